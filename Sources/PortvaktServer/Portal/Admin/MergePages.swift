import Crypto
import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// `/admin/{slug}/merge`: two accounts of one person. Search and pick the account to keep and
/// the one to merge into it, see exactly what moves (or why the merge is refused), confirm after
/// a fresh BankID or Vipps login, and see the kept account. The confirmation is bound to this
/// browser's session and to the preview: if either account changed since, it is refused.
struct MergePages {
    let admin: AdminRequest

    private var store: any AdministrationReadStore { admin.services.store }
    private var language: Language { admin.language }

    /// The accounts of the organisation's members, optionally those whose name has `q`.
    func choose(error: AdminText? = nil) async throws -> Response {
        let search = (admin.query["q"] ?? "").trimmingCharacters(in: .whitespaces)
        guard search.count <= 100 else { return admin.problem(.badFilter, status: .badRequest, back: admin.base + "/merge") }
        let userIDs = Array(Set(try await store.memberships(organisationID: admin.organisationID).map(\.userId)))
        let providers = try await store.identityProviders(userIDs: userIDs)
        var accounts: [User] = []
        for id in userIDs {
            if let user = try await store.user(id: id), search.isEmpty || user.displayName.localizedStandardContains(search) { accounts.append(user) }
        }
        accounts.sort { ($0.displayName, $0.createdAt) < ($1.displayName, $1.createdAt) }
        let rows = accounts.prefix(100).map { user in
            MergeChoiceView.Account(
                id: user.id, name: user.displayName, email: user.email ?? "–",
                logins: AdminWords.logins(providers[user.id], language),
                created: LocalTime.text(Date(millisecondsSince1970: user.createdAt), language),
                keep: admin.query["keep"] == user.id, remove: admin.query["remove"] == user.id
            )
        }
        let values = MergeChoiceView(query: search, accounts: rows, hasAccounts: !rows.isEmpty, error: error?.text(language))
        return admin.page("admin_merge", section: .merge, values: values, status: error == nil ? .ok : .badRequest)
    }

    func preview() async throws -> Response {
        guard let keep = admin.query["keep"], let remove = admin.query["remove"] else { return try await choose(error: .pickBoth) }
        guard keep != remove else { return try await choose(error: .mergeSame) }
        guard let kept = try await account(keep), let removed = try await account(remove) else { return notFound() }
        let refusal = try await admin.services.merge.refusal(keep: keep, remove: remove, adminID: admin.adminID, organisationID: admin.organisationID)
        let keptHoldings = try await store.holdings(userID: keep)
        let removedHoldings = try await store.holdings(userID: remove)
        let values = MergePreviewView(
            kept: try await describe(kept, keptHoldings), removed: try await describe(removed, removedHoldings),
            keep: keep, remove: remove,
            moves: moves(removedHoldings),
            steppedUp: try await admin.hasStepUp(for: .accountsMerge),
            confirmation: confirmation(keep: keep, remove: remove, keptHoldings, removedHoldings),
            back: FormFields.link(admin.base + "/merge", [("keep", keep), ("remove", remove)]),
            refusal: refusal.map { AdminWords.refusal($0, language) }
        )
        return admin.page("admin_merge_preview", section: .merge, values: values, status: refusal == nil ? .ok : .forbidden)
    }

    func merge() async throws -> Response {
        let form = admin.form
        // The policy first, as the JSON API checks it: nothing about the accounts is told before.
        guard try await admin.hasStepUp(for: .accountsMerge) else {
            return admin.problem(.stepUpFirst, heading: .stepUpTitle, status: .unauthorized,
                                 back: FormFields.link(admin.base + "/merge/preview", [("keep", form?["keep"]), ("remove", form?["remove"])]))
        }
        guard let keep = form?["keep"], let remove = form?["remove"] else { return admin.problem(.pickBoth, status: .badRequest, back: admin.base + "/merge") }
        guard keep != remove else { return admin.problem(.mergeSame, status: .badRequest, back: admin.base + "/merge") }
        guard try await account(keep) != nil, try await account(remove) != nil else {
            return admin.problem(.mergeGone, status: .conflict, back: admin.base + "/merge")
        }
        let expected = confirmation(keep: keep, remove: remove, try await store.holdings(userID: keep), try await store.holdings(userID: remove))
        guard let given = form?["confirmation"], constantTimeEqual(given, expected) else {
            return admin.problem(.mergeChanged, status: .conflict, back: FormFields.link(admin.base + "/merge/preview", [("keep", keep), ("remove", remove)]))
        }
        guard let actor = try await admin.actor() else { return admin.problem(.stepUpFirst, heading: .stepUpTitle, status: .unauthorized) }
        do {
            try await admin.services.merge.mergeAsAdministrator(keep: keep, remove: remove, in: admin.organisation, by: actor)
        } catch let refusal as DomainError {
            return admin.problem(refusal, back: admin.base + "/merge")
        }
        return admin.redirect("\(admin.base)/merge/done?kept=\(FormFields.encode(keep))")
    }

    /// The kept account after the merge.
    func done() async throws -> Response {
        guard let id = admin.query["kept"], let kept = try await account(id) else { return notFound() }
        var page = admin
        page.frame.status = AdminText.merged.text(language)
        return page.page("admin_merge_done", section: .merge, values: MergeDoneView(kept: try await describe(kept, try await store.holdings(userID: kept.id))))
    }

    /// An account with a role in this organisation; nil otherwise (another organisation's reads as unknown).
    private func account(_ id: String) async throws -> User? {
        guard id.utf8.count <= 64, try await store.organisationRoles(userID: id).contains(where: { $0.organisationID == admin.organisationID }) else { return nil }
        return try await store.user(id: id)
    }

    private func describe(_ user: User, _ holdings: AccountHoldings) async throws -> MergedAccount {
        let names = Dictionary(uniqueKeysWithValues: try await store.organisations().map { ($0.id, $0.name) })
        return MergedAccount(
            id: user.id, name: user.displayName, email: user.email ?? "–",
            logins: AdminWords.logins(holdings.providers, language),
            roles: holdings.memberships.map { PortalWords.role($0.role, organisation: names[$0.organisationId] ?? "", language) }.joined(separator: ", "),
            devices: holdings.devices, activities: holdings.activities, claims: holdings.claims,
            contacts: holdings.contacts, syncEntries: holdings.syncEntries
        )
    }

    /// What moves from the removed account, in words, one line each.
    private func moves(_ holdings: AccountHoldings) -> [String] {
        var lines = [AdminText.moveLogins.text(language) + ": " + AdminWords.logins(holdings.providers, language)]
        lines.append(AdminText.moveRoles.text(language) + ": \(holdings.memberships.count)")
        for (text, count) in [(AdminText.moveDevices, holdings.devices), (.moveActivities, holdings.activities), (.moveClaims, holdings.claims),
                              (.moveContacts, holdings.contacts), (.moveSyncEntries, holdings.syncEntries)] {
            lines.append(text.text(language) + ": \(count)")
        }
        return lines
    }

    /// HMAC of the session, both accounts and what they hold: a confirmation for exactly this preview.
    private func confirmation(keep: String, remove: String, _ kept: AccountHoldings, _ removed: AccountHoldings) -> String {
        let summary = [kept, removed].map { "\($0.providers)|\($0.memberships.map { "\($0.organisationId):\($0.role.rawValue)" }.sorted())|\($0.devices)|\($0.activities)|\($0.claims)|\($0.contacts)|\($0.syncEntries)" }
        let text = (["merge", admin.signedIn.reference, keep, remove] + summary).joined(separator: "\u{1F}")
        return Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: admin.confirmationKey)).base64URLEncoded()
    }

    private func notFound() -> Response {
        admin.problem(.accountNotFound, heading: .notFoundTitle, status: .notFound, back: admin.base + "/merge")
    }
}

/// What `admin_merge` reads.
struct MergeChoiceView: PageValues {
    /// The name searched for.
    let query: String
    let accounts: [Account]
    let hasAccounts: Bool
    /// Why the last choice could not be previewed; nil: none.
    let error: String?

    /// An account to keep or to merge into the kept one; `keep` and `remove` check its buttons again.
    struct Account: PageValues {
        let id: String
        let name: String
        let email: String
        let logins: String
        let created: String
        let keep: Bool
        let remove: Bool
    }
}

/// What `admin_merge_preview` reads.
struct MergePreviewView: PageValues {
    let kept: MergedAccount
    let removed: MergedAccount
    /// The two accounts' ids, for the confirming form.
    let keep: String
    let remove: String
    /// What moves from the removed account, one line each.
    let moves: [String]
    let steppedUp: Bool
    let confirmation: String
    /// The choice again, with both accounts picked.
    let back: String
    /// Why the merge is refused, in words; nil: it may go ahead.
    let refusal: String?
}

/// What `admin_merge_done` reads.
struct MergeDoneView: PageValues {
    let kept: MergedAccount
}

/// One account of a merge and what it holds (`merge_account`).
struct MergedAccount: PageValues {
    let id: String
    let name: String
    let email: String
    let logins: String
    /// Its roles in words, in one line.
    let roles: String
    let devices: Int
    let activities: Int
    let claims: Int
    let contacts: Int
    let syncEntries: Int
}
