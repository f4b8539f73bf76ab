import Foundation
import NIOHTTP1
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktSandbox
@testable import PortvaktServer
import PortvaktStorage
import PortvaktTestSupport
import SQLKit
import Testing

/// `user find` and `user erase` (issue 45, item 4), through the functions the commands call, on a
/// live server of each database started as `dev --no-seed` starts it, so that the test's person
/// is the only one in it: every cell that still holds her afterwards is a leak.
@Suite("Operator commands: user find and user erase")
struct UserEraseTests {
    static let kari = TestUsers.user(id: "kari")!
    static let noSeed = ["PORTVAKT_SEED": "off"]
    static let reason = "Sak 2026-114, sletting etter art. 17 via FFO"

    /// Kari as ffo's member system (SCIM) registered her, and what her use of Portvakt left.
    struct Footprint: Sendable {
        let userID: String
        let recordID: String
        let scimToken: String
        let access: String
        let refresh: String
        /// What must be gone afterwards, each with the label a leak is reported by (never the value).
        let needles: [(label: String, text: String)]
        /// Her personnummer as her account and her record sealed it.
        let sealed: [Data]
    }

    /// ffo with Kari as its coordinator (her personnummer on the record), and her BankID and Vipps
    /// sign-ins, a phone, a passkey, a password, a portal sign-in, an activity, an expense claim
    /// and a contact she looks after.
    static func kariWithAHistory(_ broker: LiveBroker) async throws -> Footprint {
        let kari = Self.kari
        let token = try await broker.scimToken(organisation: "ffo").token
        let created = try await broker.scimCreate(LiveBroker.scimUser(
            externalID: "ffo-kari", userName: "kari.nordmann", given: kari.givenName, family: kari.familyName, email: kari.email,
            phone: kari.phone, role: "coordinator", personnummer: kari.personnummer
        ), token: token)
        let recordID = try #require(created["id"] as? String)
        let bankID = try await broker.bankIDLogin("kari")
        _ = try await broker.tokens(provider: "vipps", user: "kari")
        let userID = try await broker.userID(token: bankID.access)

        let device = try await broker.registerDevice(TestDevice(), token: bankID.access, name: "Karis iPhone")
        let elevated = try await broker.stepUp(device, action: .expensesSubmit, token: bankID.access)
        let claim = try await broker.api(.POST, "/v1/expenses", token: elevated, json: [
            "organisation": "ffo", "amount_ore": 34950, "description": "Taxi for Kari Nordmann",
        ], headers: [("Idempotency-Key", "erase-claim")])
        #expect(claim.status == 201, "\(claim.body)")
        let activity = try await broker.api(.POST, "/v1/activities", token: bankID.access, json: [
            "organisation": "ffo", "kind": "visit", "occurred_at": "2026-11-20T10:00:00Z", "duration_minutes": 45, "note": "Kari Nordmann met the group",
        ], headers: [("Idempotency-Key", "erase-activity")])
        #expect(activity.status == 201, "\(activity.body)")
        let contact = try await broker.api(.POST, "/v1/contacts", token: bankID.access, json: [
            "organisation": "ffo", "display_name": "Anne", "assigned_to": userID, "details": ["note": "Visits on Tuesdays"],
        ])
        #expect(contact.status == 201, "\(contact.body)")
        let passkeyAdded = try await broker.withStore { store in
            let id = UUID().uuidString.lowercased()
            return try await store.insertPasskey(Passkey(
                id: id, userId: userID, credentialId: Data((0..<16).map { _ in UInt8.random(in: 0...255) }), userHandle: Data(userID.utf8),
                publicKey: Data([0xA5, 0x01]), algorithm: -7, signCount: 0, backupEligible: false, backedUp: false, aaguid: Data(count: 16),
                name: "Kari Nordmanns nøkkel", createdAt: Date().millisecondsSince1970
            ), limit: 20, audit: AuditEvent(
                occurredAt: Date(), action: .passkeyRegistered, outcome: "success", actorUserID: UUID(uuidString: userID),
                subjectType: "passkey", subjectID: id, source: "test"
            ))
        }
        #expect(passkeyAdded)
        _ = try await PortvaktApplication.setPassword(
            configuration: broker.configuration, logger: TestDatabase.logger, email: kari.email, password: PasswordLoginTests.password
        )
        _ = try await PortalTests.signIn(broker, person: "kari")

        let stored = try await broker.withStore { store in
            let user = try await store.user(id: userID)
            let record = try await store.memberRecord(id: recordID)
            return (user, record)
        }
        let user = try #require(stored.0)
        let number = try #require(user.personnummer)
        #expect(user.passwordHash != nil && user.email == kari.email)
        return Footprint(
            userID: userID, recordID: recordID, scimToken: token, access: bankID.access, refresh: bankID.refresh,
            needles: [
                ("email", kari.email), ("name", kari.name), ("phone", kari.phone), ("phone as Vipps writes it", String(kari.phone.dropFirst())),
                ("personnummer", kari.personnummer), ("personnummer index", number.index), ("user name", "kari.nordmann"),
                ("BankID subject", kari.bankIDSubject), ("Vipps subject", kari.vippsSubject), ("device name", "Karis iPhone"),
                ("passkey name", "Kari Nordmanns nøkkel"), ("password hash", user.passwordHash ?? "-"),
            ],
            sealed: [number.sealed.combined] + (stored.1?.personnummer.map { [$0.sealed.combined] } ?? [])
        )
    }

    /// Every text and binary cell of every table but `skipping`: those holding one of her
    /// needles (any case) or sealed numbers, and those outside the audit trail naming her account.
    static func scan(
        _ footprint: Footprint, in broker: LiveBroker, skipping: Set<String>
    ) async throws -> (cells: Int, leaks: [String], idOutsideAudit: [String]) {
        try await broker.withStore { store in
            try await store.driver.withSession { db in
                let listing = db.dialect.name == "sqlite"
                    ? "SELECT name AS t FROM sqlite_master WHERE type = 'table'"
                    : "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public'"
                let tables = try await db.raw(SQLQueryString(listing)).all().map { try $0.decode(column: "t", as: String.self) }
                var cells = 0
                var leaks: [String] = []
                var ids: [String] = []
                for table in tables where !skipping.contains(table) {
                    for row in try await db.raw("SELECT * FROM \(ident: table)").all() {
                        for column in row.allColumns {
                            let text = (try? row.decode(column: column, as: String?.self)) ?? nil
                            let bytes = (try? row.decode(column: column, as: Data?.self)) ?? nil
                            guard text != nil || bytes != nil else { continue }
                            cells += 1
                            let read = (text ?? "") + " " + String(decoding: bytes ?? Data(), as: UTF8.self)
                            let lowered = read.lowercased()
                            for needle in footprint.needles where lowered.contains(needle.text.lowercased()) {
                                leaks.append("\(table).\(column) holds her \(needle.label)")
                            }
                            if let bytes, footprint.sealed.contains(where: { bytes.range(of: $0) != nil }) {
                                leaks.append("\(table).\(column) holds her sealed personnummer")
                            }
                            if table != "audit_events", read.contains(footprint.userID) { ids.append("\(table).\(column)") }
                        }
                    }
                }
                return (cells, leaks, ids)
            }
        }
    }

    @Test(
        "Issue 45 item 4: user erase removes her account and all that is only hers in one go; her member record stays the member system's, unlinked; no other row holds her email, name, phone or number; the audit chain verifies; her next BankID login finds no account and makes a new one from the record",
        arguments: TestDatabase.kinds
    )
    func eraseWhileTheRecordStays(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: Self.noSeed) { broker in
            let kari = try await Self.kariWithAHistory(broker)
            let configuration = broker.configuration
            let logger = TestDatabase.logger

            let preview = try await PortvaktApplication.eraseUser(configuration: configuration, logger: logger, userID: kari.userID, reason: Self.reason, confirmed: false)
            let counts = preview.counts
            #expect(!preview.erased && preview.lines.last?.contains("--yes") == true && preview.recordsKept == 1)
            #expect(counts.identities == 2 && counts.memberships == 1 && counts.devices == 1 && counts.passkeys == 1, "\(counts)")
            #expect(counts.activities == 1 && counts.expenseClaims == 1 && counts.contactsUnlinked == 1 && counts.syncEntriesUnlinked >= 1, "\(counts)")
            #expect(counts.sessions >= 3 && counts.portalSessions >= 1 && counts.mails >= 1, "\(counts)")
            let afterPreview = try await broker.withStore { try await $0.user(id: kari.userID) }
            #expect(afterPreview != nil, "the dry run erased nothing")

            let report = try await PortvaktApplication.eraseUser(configuration: configuration, logger: logger, userID: kari.userID, reason: Self.reason, confirmed: true)
            #expect(report.erased && report.counts.devices == 1 && report.counts.passkeys == 1 && report.counts.activities == 1)
            #expect(report.lines.contains { $0.contains("new account") }, "the operator is told the record stays: \(report.lines)")

            let (cells, leaks, ids) = try await Self.scan(kari, in: broker, skipping: ["member_records"])
            #expect(cells > 200, "the scan read \(cells) cells")
            #expect(leaks.isEmpty, "\(leaks)")
            #expect(ids.isEmpty, "her account's id outside the audit trail: \(ids)")

            // The member system's record is as it sent it, and no account holds it.
            let kept = try await broker.withStore { try await $0.memberRecord(id: kari.recordID) }
            let record = try #require(kept)
            let holder = try await broker.withStore { try await $0.user(holdingAnyOf: [record]) }
            #expect(record.email == Self.kari.email && record.personnummer != nil && record.isActive && holder == nil)

            // The chain verifies as `audit verify` walks it; the erasure is in it, with counts and the reference only.
            let chain = try await PortvaktApplication.verifyAuditChain(configuration: configuration, logger: logger)
            #expect(chain.isIntact, "\(String(describing: chain.firstBroken))")
            let events = try await broker.withStore { try await $0.auditEvents(subjectType: "user", subjectID: kari.userID) }
            let erased = try #require(events.first { $0.action == AuditAction.userErased.rawValue })
            #expect(erased.details["reason"] == Self.reason && erased.details["devices"] == "1" && erased.source == "operator" && erased.actorUserID == nil)

            // Her tokens are dead; nothing finds the account; her next login makes a new one from the record that still matches.
            let refresh = try await broker.refresh(kari.refresh)
            #expect(refresh.status == 400 && refresh.string("error") == "invalid_grant", "\(refresh.body)")
            let userinfo = try await broker.send("/oauth/userinfo", headers: [("Authorization", "Bearer \(kari.access)")])
            #expect(userinfo.status == 401)
            let found = try await PortvaktApplication.findUsers(configuration: configuration, logger: logger, by: .email(Self.kari.email))
            let unheld: [UserSearchResult.UnheldRecord] = [.init(organisation: "ffo", role: .coordinator, ended: false)]
            #expect(found.accounts.isEmpty)
            #expect(found.unheldRecords == unheld)
            let again = try await broker.bankIDLogin("kari")
            let newID = try await broker.userID(token: again.access)
            #expect(newID != kari.userID)
            let old = try await broker.withStore { try await $0.user(id: kari.userID) }
            #expect(old == nil)
        }
    }

    @Test(
        "Issue 45 item 4: after the member system deleted her record, user erase leaves no row anywhere with her email, name, phone or number; the audit chain verifies; her BankID login answers not_registered",
        arguments: TestDatabase.kinds
    )
    func eraseAfterTheMemberSystemDeletedHer(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: Self.noSeed) { broker in
            let kari = try await Self.kariWithAHistory(broker)
            let deleted = try await broker.scim(.DELETE, "/Users/\(kari.recordID)", token: kari.scimToken)
            #expect(deleted.status == 204)
            let report = try await PortvaktApplication.eraseUser(
                configuration: broker.configuration, logger: TestDatabase.logger, userID: kari.userID, reason: Self.reason, confirmed: true
            )
            #expect(report.erased && report.recordsKept == 0 && report.counts.memberships == 0 && report.counts.identities == 2)
            #expect(!report.lines.contains { $0.contains("new account") })

            let (cells, leaks, ids) = try await Self.scan(kari, in: broker, skipping: [])
            #expect(cells > 200, "the scan read \(cells) cells")
            #expect(leaks.isEmpty, "\(leaks)")
            #expect(ids.isEmpty, "her account's id outside the audit trail: \(ids)")
            let chain = try await PortvaktApplication.verifyAuditChain(configuration: broker.configuration, logger: TestDatabase.logger)
            #expect(chain.isIntact, "\(String(describing: chain.firstBroken))")

            let (app, _) = try await broker.providerLogin(AppLogin(), provider: "bankid", user: "kari")
            #expect(app.error == "access_denied" && app.messageID == "not_registered")
        }
    }

    @Test("Issue 45 item 4: user find by email, phone or personnummer shows her account, masked: id, name, memberships, disabled, sessions, devices, passkeys", arguments: TestDatabase.kinds)
    func find(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: Self.noSeed) { broker in
            let kari = try await Self.kariWithAHistory(broker)
            let configuration = broker.configuration
            let logger = TestDatabase.logger
            let searches: [UserSearch] = [
                .email(Self.kari.email.uppercased()), .phone("900 00 001"), .phone("+47 900 00 001"), .phone("0047 90000001"),
                .personnummer(Self.kari.personnummer),
            ]
            for search in searches {
                let found = try await PortvaktApplication.findUsers(configuration: configuration, logger: logger, by: search)
                #expect(found.accounts.map(\.userID) == [kari.userID], "\(search)")
                #expect(found.unheldRecords.isEmpty)
                let account = try #require(found.accounts.first)
                #expect(account.name == "Kari Nordmann" && account.personnummer == "124385*****" && account.email == "k***@s***.p***.test")
                let memberships: [UserLookup.Membership] = [.init(organisation: "ffo", role: .coordinator)]
                #expect(account.phones == ["+47******01"] && !account.disabled)
                #expect(account.memberships == memberships)
                #expect(account.sessions >= 2 && account.devices == 1 && account.passkeys == 1, "\(account)")
                let printed = found.lines.joined(separator: "\n")
                #expect(printed.contains(kari.userID) && printed.contains("ffo coordinator"))
                for shown in [Self.kari.personnummer, Self.kari.email, Self.kari.phone, "90000001"] {
                    #expect(!printed.contains(shown), "printed in the clear")
                }
            }
            let nobody = try await PortvaktApplication.findUsers(configuration: configuration, logger: logger, by: .email("nobody@example.org"))
            #expect(nobody.accounts.isEmpty && nobody.lines == ["No account found."])

            // A value that cannot be one is a usage error, and a personnummer is never echoed.
            let invalid = await #expect(throws: OperatorError.self) {
                try await PortvaktApplication.findUsers(configuration: configuration, logger: logger, by: .personnummer("12438510086"))
            }
            #expect(invalid?.exitCode == 64 && invalid?.description.contains("12438510086") == false)
            for phone in ["12", "+47 abc 001"] {
                let refused = await #expect(throws: OperatorError.self) {
                    try await PortvaktApplication.findUsers(configuration: configuration, logger: logger, by: .phone(phone))
                }
                #expect(refused?.exitCode == 64)
            }
            #expect(Masked.email("a@b") == "a***@b***" && Masked.phone("+47123") == "***")
        }
    }

    @Test("Issue 45 item 4: user erase refuses a reason that names her (the audit trail keeps it for good), a malformed id (64) and an unknown one (65); nothing is erased")
    func refusals() async throws {
        try await LiveBroker.run(.sqlite, settings: Self.noSeed) { broker in
            let kari = try await Self.kariWithAHistory(broker)
            let configuration = broker.configuration
            let logger = TestDatabase.logger
            let naming = ["Kari Nordmann asked", "asked by KARI@sandbox.portvakt.test", "phoned from +47 900 00 001", "Nordmann's request", "kari.nordmann", "", "two\nlines"]
            for reason in naming {
                let refusal = await #expect(throws: OperatorError.self) {
                    try await PortvaktApplication.eraseUser(configuration: configuration, logger: logger, userID: kari.userID, reason: reason, confirmed: true)
                }
                #expect(refusal?.exitCode == 64, "\(reason)")
            }
            let malformed = await #expect(throws: OperatorError.self) {
                try await PortvaktApplication.eraseUser(configuration: configuration, logger: logger, userID: "kari", reason: Self.reason, confirmed: true)
            }
            #expect(malformed?.exitCode == 64)
            let unknown = await #expect(throws: OperatorError.self) {
                try await PortvaktApplication.eraseUser(configuration: configuration, logger: logger, userID: UUID().uuidString, reason: Self.reason, confirmed: true)
            }
            #expect(unknown?.exitCode == 65)
            let still = try await broker.withStore { try await $0.user(id: kari.userID) }
            #expect(still != nil)
            // Upper case is the same id.
            let preview = try await PortvaktApplication.eraseUser(
                configuration: configuration, logger: logger, userID: kari.userID.uppercased(), reason: Self.reason, confirmed: false
            )
            #expect(preview.userID == kari.userID && !preview.erased)
        }
    }
}
