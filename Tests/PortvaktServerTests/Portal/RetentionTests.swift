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

/// Each period of PRIVACY.md's "How long" table, as the server's purge enforces it: at the purge's
/// `now` a row 1 s short of its period ("short") stays, and a row 1 s past it ("past") is gone.
/// The periods are PRIVACY.md's own numbers, not `Retention`'s: a changed constant fails here
/// until the notice that promises the period changes with it.
@Suite("S17.2: every retention period in PRIVACY.md, to the second")
struct RetentionTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let day: TimeInterval = 86_400
    /// When the rows were made: before every deadline below.
    static let created = ms(-200 * day)
    /// Far after the purge: an expiry that does not come into it.
    static let later = ms(3600)

    /// `offset` seconds from the purge's `now`, as the tables store times.
    static func ms(_ offset: TimeInterval) -> Int64 { now.addingTimeInterval(offset).millisecondsSince1970 }

    /// The two rows of a period that ends exactly at the purge when the row's deadline column is
    /// `deadline` seconds from `now`: each with the offset to store in that column.
    static func around(_ deadline: TimeInterval) -> [(key: String, at: TimeInterval)] {
        [("short", deadline + 1), ("past", deadline - 1)]
    }

    static func insert(_ store: PortvaktStore, _ statements: [SQLQueryString]) async throws {
        try await store.driver.withTransaction { db in
            for statement in statements { try await db.raw(statement).run() }
        }
    }

    /// The ones of `keys` still in `table`, found by its key `column` (a blob column holds the
    /// key's UTF-8 bytes).
    static func left(
        _ store: PortvaktStore, _ table: String, _ column: String, blob: Bool = false, of keys: [String] = ["short", "past"]
    ) async throws -> [String] {
        try await store.driver.withSession { db in
            var found: [String] = []
            for key in keys {
                let value: any Encodable & Sendable
                if blob { value = Data(key.utf8) } else { value = key }
                let count = try await db.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE \(ident: column) = \(bind: value)").first()?
                    .decode(column: "n", as: Int.self) ?? 0
                if count > 0 { found.append(key) }
            }
            return found
        }
    }

    static func purge(_ store: PortvaktStore) async {
        await ExpiryPurgeService(store: store, readiness: Readiness(), logger: Logger(label: "test")).purge(now: now)
    }

    /// An app session of `user` whose idle expiry is `idleExpiresAt` (its absolute expiry too,
    /// unless given), revoked at `revokedAt` when given.
    static func session(_ id: String, user: String, idleExpiresAt: Int64, absoluteExpiresAt: Int64? = nil, revokedAt: Int64? = nil) -> SQLQueryString {
        var revoked: any SQLExpression = SQLLiteral.null
        if let revokedAt { revoked = SQLBind(revokedAt) }
        return """
            INSERT INTO sessions (id, user_id, client_id, amr, acr, auth_time, created_at, idle_expires_at, absolute_expires_at, revoked_at) \
            VALUES (\(bind: id), \(bind: user), 'portvakt-app', 'pwd', 'password', \(bind: created), \(bind: created), \
            \(bind: idleExpiresAt), \(bind: absoluteExpiresAt ?? idleExpiresAt), \(revoked))
            """
    }

    static func refreshToken(of session: String) -> SQLQueryString {
        let id = "token-" + session
        return """
            INSERT INTO refresh_tokens (id, session_id, token_hash, created_at, expires_at) \
            VALUES (\(bind: id), \(bind: session), \(bind: Data(id.utf8)), \(bind: created), \(bind: ms(30 * 86_400)))
            """
    }

    /// The periods of PRIVACY.md's "minutes: until they expire" row, and of the invitations,
    /// claims, portal and browser sign-ins, are lifetimes set when each row is made (24 h, 30
    /// minutes, 30 idle minutes and 12 hours, ...): the purge deletes each at its `expires_at`.
    @Test("S17.2: logins, codes, challenges, proofs, claims, invitations and portal and browser sign-ins go when they expire (idle or absolute), a BankID order 10 minutes after; a second before, they stay", arguments: TestDatabase.kinds)
    func shortLivedLoginStateGoesWhenItExpires(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let user = try await store.createUser(displayName: "Kari Nordmann", now: Self.now.addingTimeInterval(-200 * Self.day)).id
            let organisation = try await store.createOrganisation(slug: "nhf", name: "Norges Handikapforbund", now: Self.now.addingTimeInterval(-200 * Self.day))
            let record = try await store.createMemberRecord(
                organisationID: organisation.id, NewMemberRecord(externalRef: "kari", fullName: "Kari Nordmann"), now: Self.now.addingTimeInterval(-200 * Self.day)
            ).id
            let created = Self.created
            // Parents that outlive the purge.
            var rows: [SQLQueryString] = [Self.session("live", user: user, idleExpiresAt: Self.later)]
            rows.append("""
                INSERT INTO devices (id, user_id, name, platform, biometric_kind, public_key_jwk, key_thumbprint, created_at) \
                VALUES ('phone', \(bind: user), 'Phone', 'ios', 'face', '{}', 'thumbprint', \(bind: created))
                """)
            for (key, offset) in Self.around(0) {
                let (hash, at) = (Data(key.utf8), Self.ms(offset))
                rows.append("""
                    INSERT INTO login_flows (id, kind, state_hash, payload_sealed, payload_key_id, created_at, expires_at) \
                    VALUES (\(bind: key), 'authorize', \(bind: hash), \(bind: hash), 'k', \(bind: created), \(bind: at))
                    """)
                rows.append("""
                    INSERT INTO authorization_codes (code_hash, session_id, client_id, redirect_uri, code_challenge, scope, created_at, expires_at) \
                    VALUES (\(bind: hash), 'live', 'portvakt-app', 'no.portvakt.app:/callback', 'challenge', 'openid', \(bind: created), \(bind: at))
                    """)
                rows.append("""
                    INSERT INTO device_challenges (challenge_hash, device_id, purpose, created_at, expires_at) \
                    VALUES (\(bind: hash), 'phone', 'unlock', \(bind: created), \(bind: at))
                    """)
                rows.append("INSERT INTO dpop_proofs (jti_hash, expires_at) VALUES (\(bind: hash), \(bind: at))")
                rows.append("""
                    INSERT INTO membership_claims (id, handle_hash, payload_sealed, payload_key_id, emails_sent, tries, created_at, expires_at) \
                    VALUES (\(bind: key), \(bind: hash), \(bind: hash), 'k', 0, 0, \(bind: created), \(bind: at))
                    """)
                rows.append("""
                    INSERT INTO webauthn_challenges (binding_hash, purpose, challenge, created_at, expires_at) \
                    VALUES (\(bind: hash), 'authentication', \(bind: hash), \(bind: created), \(bind: at))
                    """)
                rows.append("""
                    INSERT INTO portal_logins (state_hash, payload_sealed, payload_key_id, expires_at) VALUES (\(bind: hash), \(bind: hash), 'k', \(bind: at))
                    """)
                rows.append("""
                    INSERT INTO password_invites (token_hash, member_record_id, email, created_by, created_at, expires_at) \
                    VALUES (\(bind: hash), \(bind: record), 'kari@sandbox.portvakt.test', \(bind: user), \(bind: created), \(bind: at))
                    """)
                // The idle expiry alone, then the absolute one alone (the idle one later, which the
                // server never writes, only so that the absolute expiry is all that ends it).
                for (end, idle, absolute) in [("idle", at, Self.later), ("absolute", Self.later, at)] {
                    let id = "\(end)-\(key)"
                    let idHash = Data(id.utf8)
                    rows.append("""
                        INSERT INTO portal_sessions (id_hash, user_id, session_id, created_at, idle_expires_at, absolute_expires_at) \
                        VALUES (\(bind: idHash), \(bind: user), 'live', \(bind: created), \(bind: idle), \(bind: absolute))
                        """)
                    rows.append("""
                        INSERT INTO browser_sessions (id, id_hash, user_id, provider, amr, acr, auth_time, created_at, idle_expires_at, absolute_expires_at) \
                        VALUES (\(bind: id), \(bind: idHash), \(bind: user), 'vipps', 'vipps', 'vipps', \(bind: created), \(bind: created), \(bind: idle), \(bind: absolute))
                        """)
                }
            }
            // The 600 s are purgeExpiredBankIDOrders' own (a late collect still gets the order's
            // result), as PRIVACY.md's row says.
            for (key, offset) in Self.around(-600) {
                let hash = Data(key.utf8)
                rows.append("""
                    INSERT INTO bankid_orders (id, session_hash, client_id, payload_sealed, payload_key_id, status, started_at, expires_at) \
                    VALUES (\(bind: key), \(bind: hash), 'portvakt-app', \(bind: hash), 'k', 'pending', \(bind: created), \(bind: Self.ms(offset)))
                    """)
            }
            try await Self.insert(store, rows)

            await Self.purge(store)

            #expect(try await Self.left(store, "login_flows", "id") == ["short"])
            #expect(try await Self.left(store, "authorization_codes", "code_hash", blob: true) == ["short"])
            #expect(try await Self.left(store, "bankid_orders", "id") == ["short"])
            #expect(try await Self.left(store, "device_challenges", "challenge_hash", blob: true) == ["short"])
            #expect(try await Self.left(store, "dpop_proofs", "jti_hash", blob: true) == ["short"])
            #expect(try await Self.left(store, "membership_claims", "id") == ["short"])
            #expect(try await Self.left(store, "webauthn_challenges", "binding_hash", blob: true) == ["short"])
            #expect(try await Self.left(store, "portal_logins", "state_hash", blob: true) == ["short"])
            #expect(try await Self.left(store, "password_invites", "token_hash", blob: true) == ["short"])
            let signIns = ["idle-short", "idle-past", "absolute-short", "absolute-past"]
            #expect(try await Self.left(store, "portal_sessions", "id_hash", blob: true, of: signIns) == ["idle-short", "absolute-short"])
            #expect(try await Self.left(store, "browser_sessions", "id", of: signIns) == ["idle-short", "absolute-short"])
            #expect(try await Self.left(store, "sessions", "id", of: ["live"]) == ["live"])
        }
    }

    @Test("S17.2: a session and its refresh tokens go a day after it ended, revoked, idle or past its absolute end; a failure counter a day after its last failure, once it blocks nothing; a second before, they stay", arguments: TestDatabase.kinds)
    func endedSessionsAndStaleThrottlesGoAfterADay(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let user = try await store.createUser(displayName: "Kari Nordmann", now: Self.now.addingTimeInterval(-200 * Self.day)).id
            var sessions = ["live"]
            var rows: [SQLQueryString] = [Self.session("live", user: user, idleExpiresAt: Self.later)]
            for (key, offset) in Self.around(-Self.day) {
                // Expired: its idle expiry passed. Revoked: signed out long before it would expire.
                rows.append(Self.session("expired-\(key)", user: user, idleExpiresAt: Self.ms(offset)))
                rows.append(Self.session("revoked-\(key)", user: user, idleExpiresAt: Self.later, revokedAt: Self.ms(offset)))
                // Past its absolute end, its idle expiry later: a device unlock's session ends with
                // the device trust, which its idle expiry may pass.
                rows.append(Self.session("absolute-\(key)", user: user, idleExpiresAt: Self.later, absoluteExpiresAt: Self.ms(offset)))
                sessions += ["expired-\(key)", "revoked-\(key)", "absolute-\(key)"]
            }
            rows += sessions.map { Self.refreshToken(of: $0) }
            // A day is purgeStaleThrottles' own `age` (PRIVACY.md says a day), from the last failure;
            // a key still blocked stays whatever its age.
            for (key, offset) in Self.around(-Self.day) {
                rows.append("""
                    INSERT INTO login_throttles (\(ident: "key"), failures, last_failure_at, blocked_until) \
                    VALUES (\(bind: key), 6, \(bind: Self.ms(offset)), 0)
                    """)
            }
            for (key, offset) in Self.around(0) {
                let blocked = "blocked-\(key)"
                rows.append("""
                    INSERT INTO login_throttles (\(ident: "key"), failures, last_failure_at, blocked_until) \
                    VALUES (\(bind: blocked), 40, \(bind: Self.ms(-2 * Self.day)), \(bind: Self.ms(offset)))
                    """)
            }
            try await Self.insert(store, rows)

            await Self.purge(store)

            let kept = ["live", "expired-short", "revoked-short", "absolute-short"]
            #expect(try await Self.left(store, "sessions", "id", of: sessions) == kept)
            #expect(try await Self.left(store, "refresh_tokens", "session_id", of: sessions) == kept, "a purged session's tokens go with it")
            #expect(try await Self.left(store, "login_throttles", "key", of: ["short", "past", "blocked-short", "blocked-past"]) == ["short", "blocked-short"])
        }
    }

    @Test("S17.2: audit events' client addresses go after 90 days (the events and their chain stay), emails after 30 days, back-channel logouts after 7 days, ended member records 90 days after they ended; a second before, they stay", arguments: TestDatabase.kinds)
    func longPeriodsEndToTheSecond(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let created = Self.created
            for (key, offset) in Self.around(-90 * Self.day) {
                try await store.append(AuditEvent(
                    occurredAt: Self.now.addingTimeInterval(offset), action: .loginFailed, outcome: "failure", subjectType: "retention", subjectID: key,
                    source: "password-login", details: ["reason": "wrong_credentials", AuditEvent.clientAddressKey: "203.0.113.7"]
                ))
            }
            _ = try await store.linkPendingAuditEvents()
            var rows: [SQLQueryString] = []
            for (key, offset) in Self.around(-30 * Self.day) {
                rows.append("""
                    INSERT INTO mail_outbox (id, recipient, language, kind, subject, status, attempts, next_attempt_at, created_at, sent_at) \
                    VALUES (\(bind: key), 'kari@sandbox.portvakt.test', 'nb', 'membership_code', 'Koden din', 'sent', 1, \(bind: Self.ms(offset)), \
                    \(bind: Self.ms(offset)), \(bind: Self.ms(offset)))
                    """)
            }
            for (key, offset) in Self.around(-7 * Self.day) {
                rows.append("""
                    INSERT INTO logout_outbox (id, client_id, session_id, user_id, status, attempts, next_attempt_at, created_at, sent_at) \
                    VALUES (\(bind: key), 'course-site', 'a-session', 'an-account', 'sent', 1, \(bind: Self.ms(offset)), \(bind: Self.ms(offset)), \(bind: Self.ms(offset)))
                    """)
            }
            try await Self.insert(store, rows)
            let organisation = try await store.createOrganisation(slug: "nhf", name: "Norges Handikapforbund", now: Date(millisecondsSince1970: created))
            _ = try await store.createMemberRecord(
                organisationID: organisation.id, NewMemberRecord(externalRef: "lasting", fullName: "lasting"), now: Date(millisecondsSince1970: created)
            )
            for (key, offset) in Self.around(-90 * Self.day) {
                let record = try await store.createMemberRecord(
                    organisationID: organisation.id, NewMemberRecord(externalRef: "ended-\(key)", fullName: "ended-\(key)"), now: Date(millisecondsSince1970: created)
                )
                let read = try await store.memberRecord(id: record.id)
                let before = try #require(read)
                var values = before.values
                values.active = false
                try await store.writeMemberRecords(
                    adding: [], changing: [MemberRecordChange(before: before, values: values, personnummer: .keep)], reason: "test",
                    audit: { _ in [] }, now: Self.now.addingTimeInterval(offset)
                )
            }

            await Self.purge(store)

            let short = try await store.auditEvents(subjectType: "retention", subjectID: "short")
            let past = try await store.auditEvents(subjectType: "retention", subjectID: "past")
            #expect(short.count == 1 && past.count == 1, "the events stay")
            #expect(short.first?.details[AuditEvent.clientAddressKey] == "203.0.113.7")
            #expect(past.first?.details[AuditEvent.clientAddressKey] == nil && past.first?.details["reason"] == "wrong_credentials")
            #expect(try await store.verifyAuditChain().firstBroken == nil, "the chain is whole without the address")
            #expect(try await Self.left(store, "mail_outbox", "id") == ["short"])
            #expect(try await Self.left(store, "logout_outbox", "id") == ["short"])
            let records = try await store.memberRecords(organisationID: organisation.id).map(\.fullName).sorted()
            #expect(records == ["ended-short", "lasting"])
        }
    }
}
