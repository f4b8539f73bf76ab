import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// Issue 61 items 12 and 13: a member who signs in with the password may turn on biometric
/// unlock, with a key that carries no more than the password did; a BankID or Vipps login raises
/// it; after the login's five minutes the password entered again confirms the enrolment.
@Suite("Device keys of password members")
struct PasswordDeviceKeyTests {
    static let password = PasswordLoginTests.password

    /// A login with email and password through the app's browser flow.
    static func passwordLogin(_ email: String, at broker: LiveBroker) async throws -> (access: String, refresh: String) {
        let login = AppLogin()
        let flow = try await PasswordLoginTests.form(login, at: broker)
        let answer = try await PasswordLoginTests.submit(flow, email: email, password: password, at: broker)
        let tokens = try await login.redeem(try #require(AppCallback(location: answer.location).code), at: broker)
        #expect(tokens.status == 200, "\(tokens.body)")
        return (try #require(tokens.string("access_token")), try #require(tokens.string("refresh_token")))
    }

    static func setPassword(_ email: String, at broker: LiveBroker) async throws {
        _ = try await PortvaktApplication.setPassword(configuration: broker.configuration, logger: TestDatabase.logger, email: email, password: password)
    }

    @Test("Issue 61 item 12: after a password login the key is password-level; its unlock says so and opens nothing BankID or Vipps would; a new password removes it", arguments: TestDatabase.kinds)
    func passwordLevelKey(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            try await Self.setPassword("per@sandbox.portvakt.test", at: broker)
            let login = try await Self.passwordLogin("per@sandbox.portvakt.test", at: broker)
            let registered = try await broker.api(.POST, "/v1/devices", token: login.access, json: [
                "name": "Pers iPhone", "platform": "ios", "biometric_kind": "face", "public_key": TestDevice().publicJWK,
            ])
            #expect(registered.status == 201, "\(registered.body)")
            #expect(registered.string("assurance") == "password")
            let device = try await broker.registerDevice(TestDevice(), token: login.access, name: "Pers andre telefon")
            let listed = try await broker.api(.GET, "/v1/devices", token: login.access)
            #expect((listed.json["devices"] as? [[String: Any]])?.compactMap { $0["assurance"] as? String } == ["password", "password"])

            let unlocked = try await broker.unlock(device)
            #expect(unlocked.status == 200, "\(unlocked.body)")
            let access = try #require(unlocked.string("access_token"))
            let claims = LiveBroker.claims(access)
            #expect(claims["acr"] as? String == "urn:portvakt:acr:device-biometric-password")
            #expect(claims["amr"] as? [String] == ["hwk", "face"])
            let trust = try #require(unlocked.json["device_trust_expires_in"] as? Int)
            #expect(trust > 89 * 86400 && trust <= 90 * 86400, "counted from the password login just now")

            // What needs BankID or Vipps stays shut: another key, raising this one, the personnummer.
            let another = try await broker.api(.POST, "/v1/devices", token: access, json: [
                "name": "Stolen", "platform": "ios", "biometric_kind": "face", "public_key": TestDevice().publicJWK,
            ])
            #expect(another.status == 403 && another.string("message_id") == "recent_login_required")
            let confirmed = try await broker.api(.POST, "/v1/step-up/password", token: access, json: ["action": "device.enrol", "password": Self.password])
            #expect(confirmed.status == 403 && confirmed.string("message_id") == "recent_login_required", "the phone's own key enrols no other, password or not")
            let raised = try await broker.api(.POST, "/v1/devices/\(device.id)/raise", token: access)
            #expect(raised.status == 401 && raised.string("error") == "insufficient_user_authentication")
            #expect(raised.string("message_id") == "fresh_login_required")
            let personnummer = try await broker.stepUpReply(device, action: .personnummerRead, token: access)
            #expect(personnummer.status == 401 && personnummer.string("message_id") == "fresh_login_required")
            // What the password opens, the key opens too.
            _ = try await broker.stepUp(device, action: .contactsRead, token: access)

            let audit = try await broker.withStore { store in try await store.auditEvents(subjectType: "device", subjectID: device.id) }
            #expect(audit.first { $0.action == "device.registered" }?.details["assurance"] == "password")

            // A new password: whoever knew the old one loses the keys it enrolled, and their sessions.
            try await Self.setPassword("per@sandbox.portvakt.test", at: broker)
            #expect(try await broker.refresh(try #require(unlocked.string("refresh_token"))).string("message_id") == "session_expired")
            #expect(try await broker.refresh(login.refresh).string("message_id") == "session_expired", "the password's own session too")
            // A registration that waited for the new password's transaction finds its session ended.
            let ended = try #require(LiveBroker.claims(login.access)["sid"] as? String)
            await #expect(throws: StoreError.notFound("sessions")) {
                try await broker.withStore { store in
                    try await store.registerDevice(
                        userID: try await broker.userID(token: login.access), name: "Late", platform: "ios", biometricKind: "face",
                        publicKeyJWK: "{}", keyThumbprint: "late", assurance: "password", sessionID: ended
                    )
                }
            }
            let challenge = try await broker.challenge(device.id, purpose: .unlock)
            #expect(challenge.status == 404 && challenge.string("message_id") == "device_not_recognised")
        }
    }

    @Test("Issue 61 item 12: a BankID login raises the password-level key once (audited); its unlocks then carry BankID's level, and a new password leaves it", arguments: TestDatabase.kinds)
    func raisedByBankID(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            // Magnus's records carry his number, so his account is made by BankID (issue 58); then the password.
            _ = try await broker.bankIDLogin("magnus")
            try await Self.setPassword("magnus@sandbox.portvakt.test", at: broker)
            let password = try await Self.passwordLogin("magnus@sandbox.portvakt.test", at: broker)
            let device = try await broker.registerDevice(TestDevice(), token: password.access)
            let before = try await broker.unlock(device)
            #expect(LiveBroker.claims(try #require(before.string("access_token")))["acr"] as? String == "urn:portvakt:acr:device-biometric-password")

            let notYours = try await broker.api(.POST, "/v1/devices/\(device.id)/raise", token: try await broker.bankIDLogin("ola").access)
            #expect(notYours.status == 404 && notYours.string("message_id") == "device_not_recognised")
            let bankID = try await broker.bankIDLogin("magnus")
            let raised = try await broker.api(.POST, "/v1/devices/\(device.id)/raise", token: bankID.access)
            #expect(raised.status == 200, "\(raised.body)")
            #expect(raised.string("assurance") == "eid" && raised.string("id") == device.id)
            #expect(try await broker.api(.POST, "/v1/devices/\(device.id)/raise", token: bankID.access).string("assurance") == "eid", "again: as it is")
            let audit = try await broker.withStore { store in try await store.auditEvents(subjectType: "device", subjectID: device.id) }
            #expect(audit.filter { $0.action == "device.raised" }.count == 1)

            let after = try await broker.unlock(device)
            #expect(LiveBroker.claims(try #require(after.string("access_token")))["acr"] as? String == "urn:portvakt:acr:device-biometric")
            try await Self.setPassword("magnus@sandbox.portvakt.test", at: broker)
            #expect(try await broker.unlock(device).status == 200, "a key BankID vouched for is not the password's")
        }
    }

    @Test("Issue 61 item 13, S7.3: past the login's five minutes the password entered again (step-up device.enrol) enrols a password-level key; a device key cannot confirm it, nor a step-up of another action")
    func enablingLater() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            _ = try await broker.bankIDLogin("magnus")
            try await Self.setPassword("magnus@sandbox.portvakt.test", at: broker)
            let login = try await broker.bankIDLogin("magnus")
            let first = try await broker.registerDevice(TestDevice(), token: login.access)
            broker.clock.advance(by: 301)
            let stale = try #require(try await broker.refresh(login.refresh).string("access_token"))
            let body: [String: Any] = ["name": "Later", "platform": "ios", "biometric_kind": "face", "public_key": TestDevice().publicJWK]
            let late = try await broker.api(.POST, "/v1/devices", token: stale, json: body)
            #expect(late.status == 403 && late.string("message_id") == "recent_login_required")

            let wrong = try await broker.api(.POST, "/v1/step-up/password", token: stale, json: ["action": "device.enrol", "password": "not it"])
            #expect(wrong.status == 400 && wrong.string("message_id") == "wrong_password")
            let confirmed = try await broker.api(.POST, "/v1/step-up/password", token: stale, json: ["action": "device.enrol", "password": Self.password])
            #expect(confirmed.status == 200, "\(confirmed.body)")
            let elevated = try #require(confirmed.string("access_token"))
            #expect(LiveBroker.claims(elevated)["step_up"] as? String == "device.enrol")
            let enrolled = try await broker.api(.POST, "/v1/devices", token: elevated, json: body)
            #expect(enrolled.status == 201, "\(enrolled.body)")
            #expect(enrolled.string("assurance") == "password", "a BankID login of long ago does not make it BankID's")

            // A step-up of another action, or by a device key, does not confirm an enrolment.
            let contacts = try #require(try await broker.api(
                .POST, "/v1/step-up/password", token: stale, json: ["action": "contacts.read", "password": Self.password]
            ).string("access_token"))
            #expect(try await broker.api(.POST, "/v1/devices", token: contacts, json: body).status == 403)
            let byKey = try await broker.challenge(first.id, purpose: .stepUp, action: "device.enrol", token: stale)
            #expect(byKey.status == 400 && byKey.string("error") == "invalid_request", "no Face ID for what a key cannot confirm")
        }
    }

    @Test("Issue 61 item 12: a password-level key's trust is renewed by a password login; a BankID-level key's is not")
    func trustRenewal() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            try await Self.setPassword("per@sandbox.portvakt.test", at: broker)
            let device = try await broker.registerDevice(TestDevice(), token: try await Self.passwordLogin("per@sandbox.portvakt.test", at: broker).access)
            broker.clock.advance(by: 91 * 86400)
            let lapsed = try await broker.unlock(device)
            #expect(lapsed.status == 400 && lapsed.string("error") == "reauthentication_required")
            _ = try await Self.passwordLogin("per@sandbox.portvakt.test", at: broker)
            #expect(try await broker.unlock(device).status == 200)

            _ = try await broker.bankIDOrderLogin("magnus")
            try await Self.setPassword("magnus@sandbox.portvakt.test", at: broker)
            let bankIDKey = try await broker.registerDevice(TestDevice(), token: try await broker.bankIDOrderLogin("magnus").access)
            broker.clock.advance(by: 91 * 86400)
            _ = try await Self.passwordLogin("magnus@sandbox.portvakt.test", at: broker)
            #expect(try await broker.unlock(bankIDKey).string("error") == "reauthentication_required")
        }
    }
}
