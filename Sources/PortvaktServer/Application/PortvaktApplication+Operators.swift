import Foundation
import Logging
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// The operator's commands for going live (issue 45): organisations, the member systems' SCIM
/// tokens and the member file import. Each opens the configured database (migrated) with the
/// configured keys, as `set-password` does, and refuses with an ``OperatorError``.
extension PortvaktApplication {
    /// `organisation create SLUG NAME`.
    /// - Throws: ``OperatorError`` for a slug or name that is not allowed, or a slug taken.
    public static func createOrganisation(configuration: ServerConfiguration, logger: Logger, slug: String, name: String) async throws {
        try OrganisationSlug.check(slug)
        let checkedName = try Self.checkedText(name, what: "The organisation's name", limit: 200)
        try await withStore(configuration: configuration, logger: logger) { store, _ in
            do {
                _ = try await store.createOrganisation(slug: slug, name: checkedName)
            } catch let error as StoreError where error.isDuplicate {
                throw OperatorError.badData("an organisation with the slug '\(slug)' exists already")
            }
        }
    }

    /// `organisation create|update --display-name … --logo FILE …`: the organisation's brand, each
    /// part checked and the change audited; an empty value unsets a part.
    /// - Throws: ``OperatorError`` naming the part refused (nothing is changed then), or an unknown slug.
    public static func updateOrganisationBrand(configuration: ServerConfiguration, logger: Logger, slug: String, changes: [BrandPart: String]) async throws {
        guard !changes.isEmpty else { return }
        try await withStore(configuration: configuration, logger: logger) { store, _ in
            let organisation = try await Self.existingOrganisation(slug, in: store)
            do {
                _ = try await OrganisationBranding(store: store, now: { Date() }).update(organisationID: organisation.id, changes: changes)
            } catch let problem as BrandProblem {
                throw OperatorError.badData(problem.message)
            }
        }
    }

    /// The brand's parts checked before `organisation create` adds anything.
    /// - Throws: ``OperatorError`` naming the part refused.
    public static func checkOrganisationBrand(_ changes: [BrandPart: String]) throws {
        do { try OrganisationBranding.check(changes) } catch { throw OperatorError.badData(error.message) }
    }

    /// `organisation list`: every organisation, by slug.
    public static func organisations(configuration: ServerConfiguration, logger: Logger) async throws -> [(slug: String, name: String, createdAt: Date)] {
        try await withStore(configuration: configuration, logger: logger) { store, _ in
            try await store.organisations().map { (slug: $0.slug, name: $0.name, createdAt: Date(timeIntervalSince1970: TimeInterval($0.createdAt) / 1000)) }
        }
    }

    /// `scim-token create`: a bearer token for one member system of one organisation.
    /// - Returns: the token text; Portvakt keeps only its hash, so this is the only time it exists in full.
    public static func createSCIMToken(configuration: ServerConfiguration, logger: Logger, organisation slug: String, name: String) async throws -> String {
        try OrganisationSlug.check(slug)
        let tokenName = try Self.checkedText(name, what: "The token's name", limit: 100)
        return try await withStore(configuration: configuration, logger: logger) { store, _ in
            let organisation = try await Self.existingOrganisation(slug, in: store)
            let taken = OperatorError.badData("\(slug) has a working token named '\(tokenName)': revoke it first (`scim-token revoke`) or choose another name")
            do {
                return try await SCIMTokens(store: store, now: { Date() }).create(organisationID: organisation.id, name: tokenName).token
            } catch let error as StoreError where error.isDuplicate {
                throw taken
            } catch let error as DirectoryError where error.kind == .uniqueness {
                throw taken
            }
        }
    }

    /// `scim-token revoke`: the token stops working at once.
    /// - Throws: ``OperatorError`` when the organisation has no token of that name that still works.
    public static func revokeSCIMToken(configuration: ServerConfiguration, logger: Logger, organisation slug: String, name: String) async throws {
        try OrganisationSlug.check(slug)
        try await withStore(configuration: configuration, logger: logger) { store, _ in
            let organisation = try await Self.existingOrganisation(slug, in: store)
            guard try await SCIMTokens(store: store, now: { Date() }).revoke(organisationID: organisation.id, name: name) else {
                throw OperatorError.badData("\(slug) has no working token named '\(Redactor.sanitize(name))' (`portvakt-server scim-token list --organisation \(slug)` shows them)")
            }
        }
    }

    /// `scim-token list`: an organisation's tokens, never their text.
    public static func scimTokens(
        configuration: ServerConfiguration, logger: Logger, organisation slug: String
    ) async throws -> [(name: String, createdAt: Date, lastUsedAt: Date?, revoked: Bool)] {
        try OrganisationSlug.check(slug)
        return try await withStore(configuration: configuration, logger: logger) { store, _ in
            let organisation = try await Self.existingOrganisation(slug, in: store)
            return try await SCIMTokens(store: store, now: { Date() }).list(organisationID: organisation.id).map {
                (name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, revoked: $0.revoked)
            }
        }
    }

    /// `members import`: reads a member system's file (CSV or JSON lines, ``MemberFile``), compares
    /// it with the organisation's records by external id and, when `apply` is set and no line has
    /// an error, writes every change in one transaction.
    /// - Parameters:
    ///   - file: the file's bytes; `fileName` names it in the audit trail (`import` actor).
    ///   - apply: false for a dry run, which writes nothing.
    ///   - removeMissing: whether records absent from the file end (otherwise they are left alone).
    ///   - progress: told each step, for a terminal's progress line.
    /// - Returns: what was found and what was (or would be) written; with errors nothing was written.
    public static func importMembers(
        configuration: ServerConfiguration, logger: Logger, organisation slug: String, file: Data, fileName: String,
        apply: Bool, removeMissing: Bool, progress: @escaping @Sendable (MemberImportProgress) -> Void = { _ in }
    ) async throws -> MemberImportReport {
        try OrganisationSlug.check(slug)
        return try await withStore(configuration: configuration, logger: logger) { store, keys in
            let organisation = try await Self.existingOrganisation(slug, in: store)
            let services = ServerServices(
                configuration: configuration, store: store, keys: keys, sandboxEnabled: configuration.sandboxEnabled, logger: logger, now: { Date() }
            )
            let directory = services.memberDirectory
            progress(.reading(lines: 0))
            let parsed = MemberFile.parse(file) { progress(.reading(lines: $0)) }
            progress(.checking(records: parsed.entries.count))
            do {
                let plan = try await directory.plan(parsed.entries, in: organisation.id, removeMissing: removeMissing)
                var report = MemberImportReport(plan: plan, errors: parsed.errors + plan.errors)
                guard apply, report.errors.isEmpty, !plan.isEmpty else { return report }
                progress(.applying(changes: report.added + report.changed + report.removed))
                try await directory.apply(plan, in: organisation.id, by: .importFile(fileName))
                report.applied = true
                return report
            } catch let error as DirectoryError {
                // Another writer (SCIM, a second import) got there between the plan and the write.
                throw OperatorError.badData("nothing written: \(error.description); run the import again")
            } catch let error as StoreError where error.isDuplicate {
                throw OperatorError.badData("nothing written: another record took a value of this file meanwhile (\(error.description)); run the import again")
            }
        }
    }

    /// The organisation with this slug, or a refusal naming `organisation list`.
    static func existingOrganisation(_ slug: String, in store: PortvaktStore) async throws -> Organisation {
        guard let organisation = try await store.organisation(slug: slug) else {
            throw OperatorError.badData("no organisation has the slug '\(slug)' (`portvakt-server organisation list` shows them)")
        }
        return organisation
    }

    /// `text` trimmed, when it is 1 to `limit` characters without control characters.
    static func checkedText(_ text: String, what: String, limit: Int) throws(OperatorError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= limit, !TextInput.hasControlCharacters(trimmed) else {
            throw .usage("\(what) must be 1 to \(limit) characters, without line breaks or control characters")
        }
        return trimmed
    }
}

/// An organisation's short name in URLs (`/admin/ffo`) and on the command line.
public enum OrganisationSlug {
    /// 2 to 32 characters of lowercase a–z, 0–9 and `-`, starting with a letter.
    public static func isValid(_ slug: String) -> Bool {
        let bytes = Array(slug.utf8)
        guard (2...32).contains(bytes.count), let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
        return bytes.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// - Throws: ``OperatorError/usage(_:)`` saying the rule.
    public static func check(_ slug: String) throws(OperatorError) {
        guard isValid(slug) else {
            throw .usage("'\(Redactor.sanitize(slug))' is not an organisation slug: 2 to 32 characters of a-z, 0-9 and -, starting with a letter (ffo, nhf-oslo)")
        }
    }
}
