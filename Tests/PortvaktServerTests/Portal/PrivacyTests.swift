import Foundation
import Logging
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import SQLKit
import Testing
@testable import PortvaktServer

/// S17: the member downloads their data from My account; every retention period in PRIVACY.md
/// is enforced by the server's purge.
@Suite("Privacy (S17)")
struct PrivacyTests {
    @Test("S17.1: Download my data gives the member's account, memberships, devices, sessions and own security events as JSON, the personnummer masked; audited; nobody else's", arguments: TestDatabase.kinds)
    func S17_1_downloadMyData(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let kari = try await broker.tokens(provider: "vipps", user: "kari")
            let device = try await broker.registerDevice(TestDevice(), token: try #require(kari["access_token"] as? String))
            _ = device
            // Something done to her account by someone else: the operator sets her a password.
            _ = try await PortvaktApplication.setPassword(
                configuration: broker.configuration, logger: TestDatabase.logger, email: "kari@sandbox.portvakt.test", password: PasswordLoginTests.password
            )
            let cookie = try await PortalTests.signIn(broker, person: "kari").cookie
            let account = try await broker.send("/account", headers: [("Cookie", cookie)])
            #expect(account.body.contains(#"href="/account/data""#) && account.body.contains("Last ned dataene mine"))

            let download = try await broker.send("/account/data", headers: [("Cookie", cookie)])
            #expect(download.status == 200)
            #expect(download.headers["content-disposition"]?.hasPrefix("attachment") == true)
            #expect(download.headers["content-type"]?.hasPrefix("application/json") == true && download.headers["cache-control"] == "no-store")
            let json = download.json
            let profile = try #require(json["profile"] as? [String: Any])
            #expect(profile["name"] as? String == "Kari Nordmann")
            #expect(profile["personnummer"] as? String == "124385*****")
            #expect(profile["sign_in_methods"] as? [String] == ["vipps"])
            let memberships = try #require(json["memberships"] as? [[String: Any]])
            #expect(memberships.first?["organisation"] as? String == "Norges Handikapforbund")
            #expect((memberships.first?["record"] as? [String: Any])?["personnummer"] as? String == "124385*****", "the number written back, masked")
            #expect((json["devices"] as? [[String: Any]])?.count == 1)
            #expect(((json["sessions"] as? [[String: Any]])?.count ?? 0) >= 2, "the app's and the browser's")
            let events = (json["security_events"] as? [[String: Any]] ?? []).compactMap { $0["action"] as? String }
            #expect(events.contains("login.succeeded") && events.contains("device.registered"))
            let about = (json["events_about_you"] as? [[String: Any]] ?? []).compactMap { $0["action"] as? String }
            #expect(about.contains("user.password_set"), "what was done to her account: \(about)")
            #expect(events.contains("member.personnummer.updated"), "the write-back her login made")
            #expect(json["events_truncated"] as? Bool == false)
            for secret in ["12438510085", "public_key", "refresh", "token_hash", "thumbprint"] {
                #expect(!download.body.contains(secret), "the export holds no \(secret)")
            }
            let kariID = try await broker.userID(token: try #require(kari["access_token"] as? String))
            let exported = try await broker.withStore { try await $0.auditEvents(actorUserID: kariID, actions: ["account.data_exported"]) }
            #expect(exported.count == 1)

            let anonymous = try await broker.send("/account/data")
            #expect(anonymous.status == 401 && !anonymous.body.contains("Kari"))
        }
    }

    @Test("S17.2: the purge deletes audit events' client addresses after 90 days (the events and their chain stay whole), emails after 30 days, and ended membership claims", arguments: TestDatabase.kinds)
    func S17_2_retentionIsEnforced(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let day: TimeInterval = 86_400
            func event(_ age: TimeInterval, _ address: String) -> AuditEvent {
                AuditEvent(
                    occurredAt: start.addingTimeInterval(age), action: .loginFailed, outcome: "failure", subjectType: "retention", subjectID: "test",
                    source: "password-login", details: ["reason": "wrong_credentials", "client_address": address]
                )
            }
            try await store.append(event(0, "203.0.113.7"))
            try await store.append(event(80 * day, "203.0.113.8"))
            _ = try await store.linkPendingAuditEvents()
            let text = DataProtectionKeys.generateText()
            let keys = try DataProtectionKeys(encryptionKeys: text.encryptionKeys, indexKey: text.indexKey, encryptionSetting: "k", indexSetting: "i")
            let body = try keys.cipher.seal(Data("a code".utf8), context: MailOutboxMessage.bodyContext(messageID: "old-mail"))
            try await store.enqueueMail([
                MailOutboxMessage(id: "old-mail", recipient: "kari@sandbox.portvakt.test", language: "nb", kind: "membership_code", subject: "Koden din", body: body, now: start),
            ])
            let claimHash = Data("a claim".utf8)
            _ = try await store.insertMembershipClaim(handleHash: claimHash, expiresAt: start.addingTimeInterval(1800), now: start) { _ in body }

            let purge = ExpiryPurgeService(store: store, readiness: Readiness(), logger: Logger(label: "test"))
            await purge.purge(now: start.addingTimeInterval(91 * day))

            let events = try await store.auditEvents(subjectType: "retention", subjectID: "test")
            #expect(events.count == 2, "the events stay")
            #expect(events.first?.details["client_address"] == nil && events.first?.details["reason"] == "wrong_credentials")
            #expect(events.last?.details["client_address"] == "203.0.113.8", "an address younger than 90 days stays")
            #expect(try await store.verifyAuditChain().firstBroken == nil, "the chain is whole without the address")
            #expect(try await store.recentMail().isEmpty)
            #expect(try await store.membershipClaim(handleHash: claimHash, now: start) == nil)
        }
    }

    @Test("Issue 45 item 2: the purge deletes a member record 90 days after its membership ended; a lasting record and one ended since stay", arguments: TestDatabase.kinds)
    func endedMemberRecordsArePurged(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let day: TimeInterval = 86_400
            let organisation = try await store.createOrganisation(slug: "ffo", name: "FFO", now: start)
            var ids: [String] = []
            for name in ["Gone Early", "Gone Lately", "Still Here"] {
                let record = try await store.createMemberRecord(organisationID: organisation.id, NewMemberRecord(externalRef: name, fullName: name), now: start)
                ids.append(record.id)
            }
            for (id, endedAt) in [(ids[0], start), (ids[1], start.addingTimeInterval(80 * day))] {
                let read = try await store.memberRecord(id: id)
                let before = try #require(read)
                var values = before.values
                values.active = false
                try await store.writeMemberRecords(
                    adding: [], changing: [MemberRecordChange(before: before, values: values, personnummer: .keep)], reason: "test",
                    audit: { _ in [] }, now: endedAt
                )
            }
            let purge = ExpiryPurgeService(store: store, readiness: Readiness(), logger: Logger(label: "test"))
            await purge.purge(now: start.addingTimeInterval(91 * day))
            let left = try await store.memberRecords(organisationID: organisation.id).map(\.fullName).sorted()
            #expect(left == ["Gone Lately", "Still Here"])
        }
    }

    @Test("S17.2: a purge step that fails is counted by its table in portvakt_purge_failures_total and logged; the other steps still purge", arguments: TestDatabase.kinds)
    func failingPurgeStepIsCounted(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let text = DataProtectionKeys.generateText()
            let keys = try DataProtectionKeys(encryptionKeys: text.encryptionKeys, indexKey: text.indexKey, encryptionSetting: "k", indexSetting: "i")
            let sealed = try keys.cipher.seal(Data("a claim".utf8), context: MailOutboxMessage.bodyContext(messageID: "claim"))
            let claimHash = Data("a claim".utf8)
            _ = try await store.insertMembershipClaim(handleHash: claimHash, expiresAt: start.addingTimeInterval(1800), now: start) { _ in sealed }
            // The table a step deletes from is gone (a botched manual change): that step fails.
            try await store.driver.withTransaction { db in try await db.raw("DROP TABLE dpop_proofs").run() }
            let failures = { Self.counter("portvakt_purge_failures_total", table: "dpop_proofs") }
            let before = failures()
            let logs = LogSink()
            await ExpiryPurgeService(store: store, readiness: Readiness(), logger: TestServer.logger(into: logs)).purge(now: start.addingTimeInterval(3600))
            // At least: the other database's case runs beside this one and fails its step too.
            #expect(failures() >= before + 1)
            #expect(Self.counter("portvakt_purge_failures_total", table: "mail_outbox", present: true) >= 0, "every step's series is there, from 0, for increase()")
            #expect(logs.entries.contains { $0.contains("Could not purge") && $0.contains("dpop_proofs") })
            #expect(try await store.membershipClaim(handleHash: claimHash, now: start) == nil, "the steps after it ran")
        }
    }

    /// A counter's value in the process's Prometheus registry, as `/metrics` shows it.
    /// `present`: -1 when the series is not there at all.
    static func counter(_ name: String, table: String, present: Bool = false) -> Double {
        _ = PortvaktMetrics.registry
        let prefix = "\(name){table=\"\(table)\"} "
        let line = PortvaktMetrics.registry.emitToString().split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Double($0.dropFirst(prefix.count)) } ?? (present ? -1 : 0)
    }
}
