import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// `/admin/{slug}/members`: the member list (search by name, filters from the overview, pages of
/// 25) and one member: their phones ("Remove all devices" for a lost phone, in every organisation
/// of the member, after a step-up as for the other sensitive actions) and an invitation to
/// password login, a one-time link the member opens to choose the password themselves.
struct MembersPage {
    let admin: AdminRequest
    static let pageSize = 25

    private var store: any AdministrationReadStore { admin.services.store }
    private var language: Language { admin.language }

    enum Filter: String {
        case noPersonnummer = "no-personnummer"
        case devices

        var label: AdminText { self == .devices ? .filteredWithDevices : .filteredWithoutPersonnummer }
    }

    func list() async throws -> Response {
        let query = admin.query
        let search = (query["q"] ?? "").trimmingCharacters(in: .whitespaces)
        var filter: Filter?
        if let name = query["filter"], !name.isEmpty {
            guard let parsed = Filter(rawValue: name) else { return admin.problem(.badFilter, status: .badRequest, back: admin.base + "/members") }
            filter = parsed
        }
        guard search.count <= 100 else { return admin.problem(.badFilter, status: .badRequest, back: admin.base + "/members") }
        let users = try await store.recordHolders(organisationID: admin.organisationID)
        let withDevices = filter == .devices ? try await store.usersWithDevices(organisationID: admin.organisationID) : []
        let records = try await store.memberRecords(organisationID: admin.organisationID).filter { record in
            if !search.isEmpty, !record.fullName.localizedStandardContains(search) { return false }
            switch filter {
            // As the overview counts them: an ended membership needs no number.
            case .noPersonnummer: return record.personnummer == nil && record.isActive
            case .devices: return users[record.id].map(withDevices.contains) ?? false
            case nil: return true
            }
        }.sorted { $0.fullName.localizedStandardCompare($1.fullName) == .orderedAscending }
        guard let paging = admin.paging(total: records.count, size: Self.pageSize) else {
            return admin.problem(.noSuchPage, status: .badRequest, back: admin.base + "/members")
        }
        let shown = Array(records.dropFirst(paging.offset).prefix(paging.size))
        let providers = try await store.identityProviders(userIDs: shown.compactMap { users[$0.id] })
        let rows = shown.map { record in
            // An ended membership is listed, marked, until its record goes (PRIVACY.md): it has no role and no sign-in.
            MembersView.Member(
                name: record.fullName,
                role: Self.role(of: record, admin),
                logins: record.isActive ? AdminWords.logins(users[record.id].flatMap { providers[$0] }, language) : "–",
                onFile: AdminWords.yesNo(record.personnummer != nil, language),
                link: admin.isAdmin ? "\(admin.base)/members/\(record.id)" : nil
            )
        }
        let link = { (page: Int) in FormFields.link(admin.base + "/members", [("q", search), ("filter", filter?.rawValue), ("page", String(page))]) }
        let first = records.isEmpty ? 0 : paging.offset + 1
        return admin.page("admin_members", section: .members, values: MembersView(
            query: search,
            members: rows, hasMembers: !rows.isEmpty,
            summary: AdminPhrase.showing.text(language, ["first": String(first), "last": String(paging.offset + shown.count), "total": String(records.count)]),
            paging: paging.links(language, link: link),
            filter: filter?.rawValue, filterLabel: filter?.label.text(language)
        ))
    }

    func member(_ recordID: String, invited: Bool = false) async throws -> Response {
        guard let record = try await record(recordID) else { return notFound() }
        let userID = try await store.recordHolders(organisationID: admin.organisationID)[record.id]
        var devices: [Device] = []
        var providers: [String]?
        if let userID {
            devices = try await store.activeDevices(userID: userID)
            providers = try await store.identityProviders(userIDs: [userID])[userID]
        }
        var frame = admin.frame
        if let done = admin.query["done"], done == "devices_removed" { frame.status = AdminText.devicesRemoved.text(language) }
        if admin.query["done"] == "suspended" { frame.status = AdminText.suspended.text(language) }
        if admin.query["done"] == "lifted" { frame.status = AdminText.suspensionLifted.text(language) }
        if invited { frame.status = AdminText.inviteMade.text(language) }
        let steppedUp = try await admin.hasStepUp(for: .devicesRemoveAll)
        var ownsSignIn = true
        if let userID { ownsSignIn = try await admin.administration.mayChangeSignInMethods(of: userID, in: admin.organisationID) }
        // Issue 45 item 5: the membership of an account that holds the record, not the administrator's own.
        let holder = record.isActive && userID != admin.adminID ? userID : nil
        let suspended = record.suspendedAt != nil
        var suspendSteppedUp = false
        if holder != nil || suspended { suspendSteppedUp = try await admin.hasStepUp(for: .membershipSuspend) }
        let values = MemberView(
            name: record.fullName, path: "\(admin.base)/members/\(record.id)",
            role: Self.role(of: record, admin),
            ended: !record.isActive,
            email: record.email ?? "–", canInvite: record.email != nil && record.suspendedAt == nil,
            logins: record.isActive ? AdminWords.logins(providers, language) : "–",
            onFile: AdminWords.yesNo(record.personnummer != nil, language),
            // A member of other organisations too: their phones are their own, not this organisation's to see.
            devices: (ownsSignIn ? devices : []).map { device in
                MemberView.Device(
                    name: device.name, kind: PortalWords.biometric(device.biometricKind, language),
                    lastUsed: device.lastUsedAt.map { LocalTime.text(Date(millisecondsSince1970: $0), language) } ?? PortalText.neverUsed.text(language)
                )
            },
            hasDevices: !devices.isEmpty, removable: !devices.isEmpty && ownsSignIn, devicesElsewhere: !devices.isEmpty && !ownsSignIn,
            steppedUp: steppedUp,
            canSuspend: holder != nil, holder: holder, suspended: suspended, suspendSteppedUp: suspendSteppedUp,
            invited: invited
        )
        var page = admin
        page.frame = frame
        return page.page("admin_member", section: .members, values: values)
    }

    /// The policy (``SensitiveAction/devicesRemoveAll``) is the domain's; without its step-up the
    /// page offers one that comes back to the member.
    func removeDevices(_ recordID: String) async throws -> Response {
        guard let record = try await record(recordID) else { return notFound() }
        guard let actor = try await admin.actor(), actor.satisfies(.devicesRemoveAll, at: admin.services.now()) else { return stepUpNeeded(record) }
        if let userID = try await store.recordHolders(organisationID: admin.organisationID)[record.id] {
            do {
                _ = try await admin.administration.removeAllDevices(of: userID, in: admin.organisation, by: actor, source: "portal")
            } catch let refusal as DomainError where refusal.kind == .stepUpRequired {
                return stepUpNeeded(record)
            } catch let refusal as DomainError where refusal.reason == .signInMethodsElsewhere {
                return admin.problem(refusal, back: "\(admin.base)/members/\(record.id)")
            }
        }
        return admin.redirect("\(admin.base)/members/\(record.id)?done=devices_removed")
    }

    /// Suspends the member's membership here (``MembershipSuspension``): their role here ends at
    /// once, other organisations' stay. The policy (``SensitiveAction/membershipSuspend``) is the
    /// domain's; without its step-up the page offers one that comes back to the member. The form
    /// names the account the page showed (`member`), so nobody else's membership is suspended.
    func suspend(_ recordID: String) async throws -> Response {
        guard let record = try await record(recordID) else { return notFound() }
        guard let actor = try await admin.actor(), actor.satisfies(.membershipSuspend, at: admin.services.now()) else { return stepUpNeeded(record) }
        do {
            _ = try await admin.services.suspension.suspend(
                recordID: record.id, holder: admin.form?["member"] ?? "", in: admin.organisation, by: actor, source: "portal"
            )
        } catch let refusal as DomainError where refusal.kind == .stepUpRequired {
            return stepUpNeeded(record)
        } catch let refusal as DomainError where refusal.kind != .notFound {
            return admin.problem(refusal, back: "\(admin.base)/members/\(record.id)")
        }
        return admin.redirect("\(admin.base)/members/\(record.id)?done=suspended")
    }

    /// Lifts the suspension (``MembershipSuspension/lift(recordID:in:by:source:)``), under the
    /// same policy as suspending.
    func liftSuspension(_ recordID: String) async throws -> Response {
        guard let record = try await record(recordID) else { return notFound() }
        guard let actor = try await admin.actor(), actor.satisfies(.membershipSuspend, at: admin.services.now()) else { return stepUpNeeded(record) }
        do {
            _ = try await admin.services.suspension.lift(recordID: record.id, in: admin.organisation, by: actor, source: "portal")
        } catch let refusal as DomainError where refusal.kind == .stepUpRequired {
            return stepUpNeeded(record)
        } catch let refusal as DomainError where refusal.kind != .notFound {
            return admin.problem(refusal, back: "\(admin.base)/members/\(record.id)")
        }
        return admin.redirect("\(admin.base)/members/\(record.id)?done=lifted")
    }

    /// Nothing was removed: the step-up links, each coming back to the member's page.
    private func stepUpNeeded(_ record: MemberRecord) -> Response {
        let path = "\(admin.base)/members/\(record.id)"
        var page = admin
        page.frame = PortalPage.Frame(language: language, path: path, csrf: admin.frame.csrf)
        return page.page("admin_step_up", section: .members, values: AdminStepUpView(back: path, stepUpBack: FormFields.encode(path)), status: .unauthorized)
    }

    /// Sends the member a one-time link by email (``MemberInvitations``); the administrator
    /// never sees it.
    func invite(_ recordID: String) async throws -> Response {
        guard let record = try await record(recordID), let actor = try await admin.actor() else { return notFound() }
        // An ended record gives no role: a password would open nothing, so none is offered.
        guard record.isActive else { return admin.problem(.membershipEndedExplained, status: .conflict, back: "\(admin.base)/members/\(record.id)") }
        do {
            try await admin.services.invitations.invite(record, in: admin.organisation, by: actor, source: "portal")
        } catch let refusal as DomainError {
            return admin.problem(refusal, back: "\(admin.base)/members/\(record.id)")
        }
        return try await member(record.id, invited: true)
    }

    /// The organisation's record with this id; nil for another organisation's or an unknown one.
    private func record(_ id: String) async throws -> MemberRecord? {
        guard id.utf8.count <= 64, let record = try await store.memberRecord(id: id), record.organisationId == admin.organisationID else { return nil }
        return record
    }

    private func notFound() -> Response {
        admin.problem(.memberNotFound, heading: .notFoundTitle, status: .notFound, back: admin.base + "/members")
    }

    /// The record's role in words, or that the membership ended or is suspended.
    static func role(of record: MemberRecord, _ admin: AdminRequest) -> String {
        if !record.isActive { return AdminText.membershipEnded.text(admin.language) }
        if record.suspendedAt != nil { return AdminText.suspendedLabel.text(admin.language) }
        return PortalWords.role(record.role, organisation: admin.organisationName, admin.language)
    }
}

/// What `admin_members` reads.
struct MembersView: PageValues {
    /// The name searched for.
    let query: String
    let members: [Member]
    let hasMembers: Bool
    let summary: String
    let paging: PagingLinks
    /// The overview's filter and its words; nil: every member.
    let filter: String?
    let filterLabel: String?

    struct Member: PageValues {
        let name: String
        let role: String
        let logins: String
        let onFile: String
        /// The member's page; nil for a coordinator, who sees the list only.
        let link: String?
    }
}

/// What `admin_member` reads.
struct MemberView: PageValues {
    let name: String
    let path: String
    let role: String
    /// The membership ended: no suspension, no invitation.
    let ended: Bool
    let email: String
    let canInvite: Bool
    let logins: String
    let onFile: String
    let devices: [Device]
    let hasDevices: Bool
    /// This organisation's administrators may remove them: the member belongs to it alone.
    let removable: Bool
    let devicesElsewhere: Bool
    /// The administrator may remove the member's devices now (``SensitiveAction/devicesRemoveAll``).
    let steppedUp: Bool
    /// An active membership of an account that holds the record, not the administrator's own.
    let canSuspend: Bool
    /// The account the suspension form names; nil when the membership cannot be suspended.
    let holder: String?
    let suspended: Bool
    /// The administrator may suspend, or lift a suspension, now (``SensitiveAction/membershipSuspend``).
    let suspendSteppedUp: Bool
    /// An invitation to password login was just sent.
    let invited: Bool

    struct Device: PageValues {
        let name: String
        let kind: String
        let lastUsed: String
    }
}
