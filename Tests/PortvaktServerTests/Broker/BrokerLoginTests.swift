import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Logins through the broker over real HTTP, with the in-process sandbox as BankID and Vipps,
/// on SQLite and PostgreSQL.
@Suite("Broker login end to end")
struct BrokerLoginTests {
    @Test("S2.2/S2.3 Vipps with nin: a session, the member's roles in the token, the personnummer kept sealed", arguments: TestDatabase.kinds)
    func vippsWithNin(kind: DatabaseKind) async throws {
        // Over a socket, with no PORTVAKT_PUBLIC_URL: `dev` as a developer starts it (the sandbox connected once listening).
        try await LiveBroker.run(kind, over: .socket) { broker in
            let tokens = try await broker.tokens(provider: "vipps", user: "kari")
            let accessToken = try #require(tokens["access_token"] as? String)
            let access = LiveBroker.claims(accessToken)
            #expect(access["iss"] as? String == broker.baseURL)
            #expect(access["aud"] as? String == "no.portvakt.app")
            #expect((access["sid"] as? String)?.isEmpty == false)
            let organisations = try #require(access["org"] as? [[String: Any]])
            #expect(organisations.map { $0["slug"] as? String } == ["nhf"])
            #expect(organisations.first?["roles"] as? [String] == ["peer_mentor"])
            #expect((access["exp"] as? Int ?? 0) - (access["iat"] as? Int ?? 0) == 600)
            #expect(tokens["refresh_token"] is String)
            #expect(tokens["id_token"] is String)

            let userinfo = try await broker.send("/oauth/userinfo", headers: [("Authorization", "Bearer \(tokens["access_token"] as! String)")])
            #expect(userinfo.status == 200)
            #expect(userinfo.string("name") == "Kari Nordmann")
            let subject = try #require(access["sub"] as? String)
            let user = try await broker.withStore { try await $0.user(id: subject) }
            #expect(user?.personnummer != nil, "Vipps gave nin: the user keeps it, sealed")
        }
    }

    @Test("Vipps without nin (scope not approved): a record with no number and no account is claimed by the verified phone; review III item 1: one with a number is not", arguments: TestDatabase.kinds)
    func vippsWithoutNin(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            try await broker.setFaults(["nin_missing"], for: "vipps")
            let tokens = try await broker.tokens(provider: "vipps", user: "kari")
            let accessToken = try #require(tokens["access_token"] as? String)
            let subject = try #require(LiveBroker.claims(accessToken)["sub"] as? String)
            let user = try await broker.withStore { try await $0.user(id: subject) }
            #expect(user?.displayName == "Kari Nordmann")
            #expect(user?.personnummer == nil)
            // Ola's record holds his number: a phone alone (it may be someone else's now) does not claim it.
            let (ola, _) = try await broker.providerLogin(AppLogin(), provider: "vipps", user: "ola")
            #expect(ola.error == "access_denied" && ola.messageID == "not_registered")
        }
    }

    @Test("S1.2 BankID: private_key_jwt upstream, nnin_altsub links the member, amr and acr from BankID", arguments: TestDatabase.kinds)
    func bankID(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let tokens = try await broker.tokens(provider: "bankid", user: "magnus")
            let accessToken = try #require(tokens["access_token"] as? String)
            let access = LiveBroker.claims(accessToken)
            #expect(access["amr"] as? [String] == ["BID"])
            #expect(access["acr"] as? String == "urn:bankid:bid;LOA=4")
            let slugs = (access["org"] as? [[String: Any]])?.compactMap { $0["slug"] as? String }
            #expect(slugs == ["hlf", "nhf"], "Magnus is a member of two organisations")
            // The same person again through Vipps reaches the same user (same personnummer).
            let again = try await broker.tokens(provider: "vipps", user: "magnus")
            #expect(LiveBroker.claims(again["access_token"] as! String)["sub"] as? String == access["sub"] as? String)
        }
    }

    @Test("S1.4 cancel at BankID → access_denied + bankid_cancelled; cancel at Vipps → vipps_cancelled", arguments: TestDatabase.kinds)
    func cancel(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let login = AppLogin()
            let (app, _) = try await broker.providerLogin(login, provider: "bankid", user: "kari", action: "cancel")
            #expect(app.error == "access_denied")
            #expect(app.messageID == "bankid_cancelled")
            #expect(app.fields["error_description"] == "BankID login was cancelled")
            #expect(app.fields["state"] == login.state)
            #expect(app.fields["iss"] == broker.baseURL)
            #expect(app.code == nil)
            let (vipps, _) = try await broker.providerLogin(AppLogin(), provider: "vipps", user: "kari", action: "cancel")
            #expect(vipps.messageID == "vipps_cancelled")
        }
    }

    @Test("S1.5 BankID outage → provider_unavailable naming Vipps, at the start and during the code exchange", arguments: TestDatabase.kinds)
    func outage(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            try await broker.setFaults(["outage"], for: "bankid")
            let (atStart, _) = try await broker.providerLogin(AppLogin(), provider: "bankid", user: "kari")
            #expect(atStart.error == "temporarily_unavailable")
            #expect(atStart.messageID == "bankid_unavailable")
            #expect(atStart.fields["error_description"] == "BankID is temporarily unavailable. Try Vipps instead or retry later")

            // The provider comes back, the user approves, and it fails again before the exchange.
            try await broker.setFaults([], for: "bankid")
            let login = AppLogin()
            let start = try await broker.send(login.authorizeURL(method: "bankid"))
            let providerURL = try #require(start.location)
            let atProvider = try await broker.send(providerURL + "&sandbox_user=kari&sandbox_action=approve")
            try await broker.setFaults(["outage"], for: "bankid")
            let callbackURL = try #require(atProvider.location)
            let back = try await broker.send(callbackURL)
            let app = AppCallback(location: back.location)
            #expect(app.messageID == "bankid_unavailable")
            #expect(app.code == nil)
        }
    }

    @Test("S2.4 an expired code at Vipps → login_failed, retryable", arguments: TestDatabase.kinds)
    func expiredCode(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            try await broker.setFaults(["expired_code"], for: "vipps")
            let (app, _) = try await broker.providerLogin(AppLogin(), provider: "vipps", user: "kari")
            #expect(app.messageID == "login_failed")
            #expect(app.fields["error_description"] == "Login failed — please try again")
            #expect(UserMessage.loginFailed.isRetryable)
            #expect(app.code == nil)
        }
    }

    @Test("Not a member → not_registered, and no user is created", arguments: TestDatabase.kinds)
    func notAMember(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let (app, _) = try await broker.providerLogin(AppLogin(), provider: "bankid", user: "una")
            #expect(app.error == "access_denied")
            #expect(app.messageID == "not_registered")
            let user = try await broker.withStore { store in
                try await store.user(provider: .bankid, subject: "b1d00000-0000-4000-8000-000000000011")
            }
            #expect(user == nil)
        }
    }
}
