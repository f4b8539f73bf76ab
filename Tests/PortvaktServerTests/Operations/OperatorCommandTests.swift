import Foundation
import Personnummer
import PortvaktCore
import PortvaktDomain
import PortvaktSandbox
@testable import PortvaktServer
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Going live from an empty database (issue 45, items 3 and 4): what `organisation create`,
/// `members import` and `scim-token` do, through the functions the commands call, on SQLite and
/// PostgreSQL. `scripts/going-live-test.sh` runs the commands themselves.
@Suite("Operator commands: organisations, the member import, SCIM tokens")
struct OperatorCommandTests {
    static let una = TestUsers.user(id: "una")!
    static let ffo = "Funksjonshemmedes Fellesorganisasjon"

    /// Una as ffo's first administrator, as the member system's export says.
    static func file(role: String = "org_admin") -> Data {
        Data("""
        external_id,given_name,family_name,email,phone,personnummer,role
        ffo-una,\(una.givenName),\(una.familyName),\(una.email),\(una.phone),\(una.personnummer),\(role)

        """.utf8)
    }

    /// A dev configuration on a new data directory (SQLite) or a new PostgreSQL database.
    static func withConfiguration(_ kind: DatabaseKind, _ body: @escaping @Sendable (ServerConfiguration) async throws -> Void) async throws {
        try await TestDatabase.withServerDatabase(kind) { databaseURL in
            var environment: [String: String] = [:]
            environment["DATABASE_URL"] = databaseURL
            let configuration = try TestServer.configuration(environment)
            // As an operator does: `migrate` first; the other commands never migrate.
            _ = try await PortvaktApplication.migrate(configuration: configuration, logger: TestDatabase.logger)
            try await body(configuration)
        }
    }

    static func importFile(
        _ configuration: ServerConfiguration, _ file: Data, apply: Bool, removeMissing: Bool = false, organisation: String = "ffo"
    ) async throws -> MemberImportReport {
        try await PortvaktApplication.importMembers(
            configuration: configuration, logger: TestDatabase.logger, organisation: organisation, file: file, fileName: "ffo.csv",
            apply: apply, removeMissing: removeMissing
        )
    }

    @Test("Issue 45: an organisation from empty, Una its org_admin by import: the dry run writes nothing, --apply writes, the same file again changes nothing", arguments: TestDatabase.kinds)
    func goingLive(kind: DatabaseKind) async throws {
        try await Self.withConfiguration(kind) { configuration in
            let logger = TestDatabase.logger
            try await PortvaktApplication.createOrganisation(configuration: configuration, logger: logger, slug: "ffo", name: "  \(Self.ffo) ")
            let listed = try await PortvaktApplication.organisations(configuration: configuration, logger: logger)
            #expect(listed.map { "\($0.slug) \($0.name)" } == ["ffo \(Self.ffo)"])

            let dryRun = try await Self.importFile(configuration, Self.file(), apply: false)
            #expect(dryRun.errors.isEmpty && !dryRun.applied)
            #expect(dryRun.changes == ["add  external_id=ffo-una (org_admin)"])
            #expect(dryRun.summary == "Dry run: would add 1, change 0, remove 0 (nothing written). Run again with --apply to write.")
            #expect(try await Self.importFile(configuration, Self.file(), apply: false).summary == dryRun.summary, "the dry run wrote something")

            let applied = try await Self.importFile(configuration, Self.file(), apply: true)
            #expect(applied.applied && applied.summary == "Applied: added 1, changed 0, removed 0.")
            let again = try await Self.importFile(configuration, Self.file(), apply: true)
            #expect(again.isEmpty && !again.applied && again.changes.isEmpty && again.summary == "No changes.")

            // Written as a login looks it up: sealed and indexed personnummer, E.164 phone; audited with the file as actor.
            try await PortvaktApplication.withStore(configuration: configuration, logger: logger) { store, keys in
                let organisation = try #require(try await store.organisation(slug: "ffo"))
                let number = try Personnummer(Self.una.personnummer, context: .test)
                let records = try await store.memberRecords(personnummerIndex: keys.vault.blindIndex(number))
                let record = try #require(records.first)
                #expect(records.count == 1 && record.organisationId == organisation.id && record.role == .orgAdmin)
                #expect(record.phone == Self.una.phone && record.email == Self.una.email && record.externalRef == "ffo-una")
                let events = try await store.auditEvents(subjectType: "member", subjectID: record.id)
                #expect(events.contains { $0.action == AuditAction.memberDirectoryCreated.rawValue && $0.source == "import" })
                #expect(!events.contains { $0.details.values.contains { $0.contains(Self.una.personnummer) } })
            }

            // The member system says she coordinates now: one change, named by attribute.
            let demoted = try await Self.importFile(configuration, Self.file(role: "coordinator"), apply: false)
            #expect(demoted.changes == ["change external_id=ffo-una: role org_admin → coordinator"])
            #expect(demoted.summary == "Dry run: would add 0, change 1, remove 0 (nothing written). Run again with --apply to write.")
            // A file without her, with --remove-missing, would end her record.
            let empty = try await Self.importFile(configuration, Data("external_id,email\n".utf8), apply: false, removeMissing: true)
            #expect(empty.changes == ["remove external_id=ffo-una"] && empty.removed == 1)
        }
    }

    @Test("Issue 45: a bad file writes nothing and names each line with its reason, never the personnummer", arguments: TestDatabase.kinds)
    func badFile(kind: DatabaseKind) async throws {
        try await Self.withConfiguration(kind) { configuration in
            try await PortvaktApplication.createOrganisation(configuration: configuration, logger: TestDatabase.logger, slug: "ffo", name: Self.ffo)
            let bad = Data("""
            external_id,email,personnummer,role
            ffo-1,a@example.org,12345678901,peer_mentor
            ffo-2,b@example.org,,boss
            ffo-1,c@example.org,,peer_mentor
            ffo-4,d@example.org,,coordinator

            """.utf8)
            let report = try await Self.importFile(configuration, bad, apply: true)
            #expect(!report.applied)
            #expect(report.errors.map { $0.prefix(8) } == ["line 2: ", "line 3: ", "line 4: "])
            #expect(report.errors[0].contains("personnummer"))
            #expect(report.errors[1] == "line 3: unknown role 'boss' (peer_mentor, coordinator or org_admin)")
            #expect(report.errors[2] == "line 4: duplicate external_id: also on line 2")
            #expect(!report.errors.joined().contains("12345678901"))
            #expect(report.summary.hasPrefix("Nothing written: 3 errors"))
            // Nothing of the file was written, not even its good line.
            let after = try await Self.importFile(configuration, Data("external_id,email\nffo-4,d@example.org\n".utf8), apply: false)
            #expect(after.changes == ["add  external_id=ffo-4 (peer_mentor)"])
        }
    }

    @Test("Issue 45: a SCIM token is printed once (pvscim_…), a second with the same name is refused, revoked it is listed so and revoked again refused", arguments: TestDatabase.kinds)
    func scimTokens(kind: DatabaseKind) async throws {
        try await Self.withConfiguration(kind) { configuration in
            let logger = TestDatabase.logger
            try await PortvaktApplication.createOrganisation(configuration: configuration, logger: logger, slug: "ffo", name: Self.ffo)
            let token = try await PortvaktApplication.createSCIMToken(configuration: configuration, logger: logger, organisation: "ffo", name: "Medlemsregister")
            #expect(token.hasPrefix("pvscim_") && token.count == 7 + 43)
            await #expect(throws: OperatorError.self) {
                try await PortvaktApplication.createSCIMToken(configuration: configuration, logger: logger, organisation: "ffo", name: "Medlemsregister")
            }
            var listed = try await PortvaktApplication.scimTokens(configuration: configuration, logger: logger, organisation: "ffo")
            #expect(listed.map { $0.name } == ["Medlemsregister"] && listed.allSatisfy { !$0.revoked })
            try await PortvaktApplication.revokeSCIMToken(configuration: configuration, logger: logger, organisation: "ffo", name: "Medlemsregister")
            listed = try await PortvaktApplication.scimTokens(configuration: configuration, logger: logger, organisation: "ffo")
            #expect(listed.allSatisfy { $0.revoked })
            let refusal = await #expect(throws: OperatorError.self) {
                try await PortvaktApplication.revokeSCIMToken(configuration: configuration, logger: logger, organisation: "ffo", name: "Medlemsregister")
            }
            #expect(refusal?.exitCode == 65)
            try await PortvaktApplication.withStore(configuration: configuration, logger: logger) { store, _ in
                let verified = try await SCIMTokens(store: store, now: { Date() }).verify(token)
                #expect(verified == nil)
            }
        }
    }

    @Test("Refusals: a slug against the rule is a usage error (64); a slug taken or unknown is bad data (65)")
    func refusals() async throws {
        try await Self.withConfiguration(.sqlite) { configuration in
            let logger = TestDatabase.logger
            for slug in ["FFO", "f", "1ffo", "ffo_oslo", "ffo oslo", String(repeating: "a", count: 33), "ffø"] {
                #expect(!OrganisationSlug.isValid(slug), "\(slug)")
                let error = await #expect(throws: OperatorError.self) {
                    try await PortvaktApplication.createOrganisation(configuration: configuration, logger: logger, slug: slug, name: "X")
                }
                #expect(error?.exitCode == 64)
            }
            for slug in ["ffo", "nhf-oslo", "a1", String(repeating: "a", count: 32)] { #expect(OrganisationSlug.isValid(slug), "\(slug)") }
            let badName = await #expect(throws: OperatorError.self) {
                try await PortvaktApplication.createOrganisation(configuration: configuration, logger: logger, slug: "ffo", name: "FFO\nforged line")
            }
            #expect(badName?.exitCode == 64)
            try await PortvaktApplication.createOrganisation(configuration: configuration, logger: logger, slug: "ffo", name: Self.ffo)
            let taken = await #expect(throws: OperatorError.self) {
                try await PortvaktApplication.createOrganisation(configuration: configuration, logger: logger, slug: "ffo", name: "Another")
            }
            #expect(taken?.exitCode == 65 && taken?.description.contains("exists already") == true)
            let unknown = await #expect(throws: OperatorError.self) {
                try await Self.importFile(configuration, Self.file(), apply: false, organisation: "nope")
            }
            #expect(unknown?.exitCode == 65 && unknown?.description.contains("organisation list") == true)
        }
    }

    @Test("The report's numbers and the progress line: thousands grouped with commas, whatever the locale")
    func reportWords() {
        #expect(MemberImportReport.grouped(0) == "0" && MemberImportReport.grouped(999) == "999")
        #expect(MemberImportReport.grouped(12_000) == "12,000" && MemberImportReport.grouped(1_234_567) == "1,234,567")
        #expect(MemberImportProgress.reading(lines: 12_000).description == "Reading… 12,000 lines")
    }
}
