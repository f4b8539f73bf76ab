import Foundation
import PortvaktCore
import PortvaktProtocol
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// Issue 59: web applications as they come. PKCE as RFC 9700 §2.1.1 asks it, claims by scope
/// (OIDC Core §5.4), clients bound to organisations, and RP-initiated logout back to the
/// loopback address; over the broker's HTTP with the sandbox's BankID and Vipps.
@Suite("Relying parties")
struct RelyingPartyTests {
    static let secret = "web-secret-0123456789-abcdefghijklmn"
    static let callback = "https://kurs.example/callback"
    static let signedOut = "http://127.0.0.1:8123/signed-out"

    static func settings() throws -> [String: String] {
        let file = """
        {"clients": [
          {"client_id": "course-site", "client_name": "Kurs", "redirect_uris": ["\(callback)"], "client_secret": "\(secret)",
           "token_endpoint_auth_method": "client_secret_post", "post_logout_redirect_uris": ["\(signedOut)"], "first_party": true},
          {"client_id": "strict-site", "redirect_uris": ["\(callback)"], "client_secret": "\(secret)",
           "token_endpoint_auth_method": "client_secret_post", "require_pkce": true, "first_party": true},
          {"client_id": "hlf-site", "client_name": "HLF-kurs", "redirect_uris": ["\(callback)"], "client_secret": "\(secret)",
           "token_endpoint_auth_method": "client_secret_post", "organisations": ["hlf"], "first_party": true},
          {"client_id": "second-site", "client_name": "Aktivitetsportal", "redirect_uris": ["\(callback)"], "client_secret": "\(secret)",
           "token_endpoint_auth_method": "client_secret_post", "first_party": true, "backchannel_logout_uri": "http://127.0.0.1:9/backchannel"},
          {"client_id": "third-party", "client_name": "Tredjepart", "redirect_uris": ["\(callback)"], "client_secret": "\(secret)",
           "token_endpoint_auth_method": "client_secret_post", "first_party": false},
          {"client_id": "no.nhf.app", "token_endpoint_auth_method": "none", "redirect_uris": ["no.nhf.app:/oauth/callback"]}
        ]}
        """
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("clients-\(UUID().uuidString).json").path
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        return ["PORTVAKT_CLIENTS_FILE": path, "PORTVAKT_LEGACY_CLIENTS": ""]
    }

    static func login(_ client: String, scope: String = "openid profile", pkce: Bool = true, redirect: String = callback) -> AppLogin {
        var login = AppLogin()
        login.clientID = client
        login.redirectURI = redirect
        login.scope = scope
        login.usesPKCE = pkce
        return login
    }

    static let secretField = [("client_secret", secret)]

    @Test("Issue 59 item 1: a confidential client with a nonce signs in without PKCE; a public client, one registered require_pkce, or one without a nonce must send it; a code issued with a challenge needs its verifier, and one issued without refuses a verifier (no downgrade either way)", arguments: TestDatabase.kinds)
    func pkceAsRFC9700Asks(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: try Self.settings()) { broker in
            let plain = Self.login("course-site", pkce: false)
            let (signedIn, _) = try await broker.providerLogin(plain, provider: "vipps", user: "kari")
            let code = try #require(signedIn.code, "no code: \(signedIn.fields)")
            let redeemed = try await plain.redeem(code, at: broker, extra: Self.secretField)
            #expect(redeemed.status == 200, "\(redeemed.body)")
            #expect(LiveBroker.claims(try #require(redeemed.string("id_token")))["nonce"] as? String == plain.nonce)

            for (client, keepsNonce, why) in [("no.nhf.app", true, "a public client"), ("strict-site", true, "require_pkce"), ("course-site", false, "no nonce")] {
                var refused = Self.login(client, pkce: false)
                if client == "no.nhf.app" { refused.redirectURI = "no.nhf.app:/oauth/callback" }
                var url = refused.authorizeURL(method: "vipps")
                if !keepsNonce { url = url.replacingOccurrences(of: "&nonce=\(refused.nonce)", with: "") }
                let fields = AppCallback(location: try await broker.send(url).location).fields
                #expect(fields["error"] == "invalid_request" && fields["code"] == nil, "\(why): \(fields)")
                #expect(fields["error_description"]?.contains("PKCE") == true, "\(why): \(fields)")
            }

            // Downgrade: a challenge at authorize, no verifier at the token endpoint.
            let withChallenge = Self.login("course-site")
            let (second, _) = try await broker.providerLogin(withChallenge, provider: "vipps", user: "kari")
            let stripped = try await broker.token([
                ("grant_type", "authorization_code"), ("client_id", "course-site"), ("code", try #require(second.code)),
                ("redirect_uri", Self.callback), ("client_secret", Self.secret),
            ])
            #expect(stripped.status == 400 && stripped.string("error") == "invalid_grant", "\(stripped.body)")
            #expect(stripped.string("error_description") == "code_verifier is required.")

            // A verifier for a code issued without a challenge.
            let (third, _) = try await broker.providerLogin(plain, provider: "vipps", user: "kari")
            let injected = try await plain.redeem(try #require(third.code), at: broker, verifier: PKCE.makeVerifier(), extra: Self.secretField)
            #expect(injected.status == 400 && injected.string("error") == "invalid_grant", "\(injected.body)")
            #expect(injected.string("error_description")?.contains("had no code_challenge") == true, "\(injected.body)")
        }
    }

    @Test("Issue 59 item 2: claims follow the scopes, in the ID token, the access token, userinfo and after a refresh: name with profile, email with email, organisations only with organisations; discovery lists the scope", arguments: TestDatabase.kinds)
    func claimsByScope(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: try Self.settings()) { broker in
            let discovery = try await broker.send("/.well-known/openid-configuration").json
            #expect((discovery["scopes_supported"] as? [String])?.contains("organisations") == true)
            #expect((discovery["claims_supported"] as? [String])?.contains("org") == true)

            let profileOnly = try await Self.signIn(broker, Self.login("course-site", scope: "openid profile"))
            let idToken = LiveBroker.claims(try #require(profileOnly.string("id_token")))
            let access = LiveBroker.claims(try #require(profileOnly.string("access_token")))
            #expect(idToken["name"] as? String == "Kari Nordmann")
            #expect(idToken["email"] == nil && idToken["org"] == nil && access["org"] == nil, "\(idToken) \(access)")
            let info = try await Self.userinfo(broker, profileOnly)
            #expect(info["name"] as? String == "Kari Nordmann" && info["email"] == nil && info["org"] == nil, "\(info)")

            let refreshed = try await broker.token([
                ("grant_type", "refresh_token"), ("client_id", "course-site"), ("client_secret", Self.secret),
                ("refresh_token", try #require(profileOnly.string("refresh_token"))),
            ])
            #expect(refreshed.status == 200 && refreshed.string("scope") == "openid profile", "\(refreshed.body)")
            #expect(LiveBroker.claims(try #require(refreshed.string("access_token")))["org"] == nil)
            #expect(try await Self.userinfo(broker, refreshed)["org"] == nil)

            let organisations = try await Self.signIn(broker, Self.login("course-site", scope: "openid email organisations"))
            let withOrganisations = try await Self.userinfo(broker, organisations)
            #expect(withOrganisations["name"] == nil && withOrganisations["email"] != nil, "\(withOrganisations)")
            let slugs = (withOrganisations["org"] as? [[String: Any]])?.compactMap { $0["slug"] as? String }
            #expect(slugs == ["nhf"], "\(withOrganisations)")
            #expect((LiveBroker.claims(try #require(organisations.string("access_token")))["org"] as? [[String: Any]])?.count == 1)
            #expect(LiveBroker.claims(try #require(organisations.string("id_token")))["name"] == nil)
        }
    }

    @Test("Issue 59 item 4: a client bound to HLF tells an NHF member so on a page (403) that leads the client to access_denied, and opens no session for her; an HLF member gets a code, and is signed out there at his next refresh once HLF ends his membership", arguments: TestDatabase.kinds)
    func organisationBoundClient(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: try Self.settings()) { broker in
            var kari = Self.login("hlf-site")
            kari.scope = "openid"
            let start = try await broker.send(kari.authorizeURL(method: "vipps", extra: [("ui_locales", "en")]))
            let atProvider = try await broker.send(try #require(start.location) + "&sandbox_user=kari&sandbox_action=approve")
            let back = try await broker.send(try #require(atProvider.location))
            let page = try #require(back.location)
            #expect(page.hasPrefix(broker.baseURL + "/oauth/members-only?"), "\(page)")
            #expect(!page.contains("code="))
            let shown = try await broker.send(page)
            #expect(shown.status == 403)
            let hlfName = try #require(try await broker.withStore { try await $0.organisation(slug: "hlf") }?.name)
            #expect(shown.body.contains("This service is for members of \(hlfName)."), "\(shown.body)")
            let link = try #require(shown.body.range(of: #"href="https://kurs\.example/callback\?[^"]+""#, options: .regularExpression).map { String(shown.body[$0]) })
            let fields = AppCallback(location: String(link.dropFirst(6).dropLast()).replacingOccurrences(of: "&amp;", with: "&")).fields
            #expect(fields["error"] == "access_denied" && fields["state"] == kari.state && fields["code"] == nil, "\(fields)")
            // The client hears what it would of someone no organisation has, not that she belongs to another.
            #expect(fields["message_id"] == "not_registered" && fields["error_description"]?.contains("HLF") == false, "\(fields)")
            let kariID = try #require(try await broker.withStore { try await $0.user(email: "kari@sandbox.portvakt.test") }?.id)
            let sessions = try await broker.withStore { try await $0.activeSessions(userID: kariID) }
            #expect(!sessions.contains { $0.clientId == "hlf-site" })

            // A page for a redirect the client did not register shows nothing to follow.
            let forged = try await broker.send("/oauth/members-only?client_id=hlf-site&redirect_uri=https%3A%2F%2Fevil.example%2F&state=x")
            #expect(forged.status == 400 && !forged.body.contains("evil.example"))

            let jonas = Self.login("hlf-site")
            let (admitted, _) = try await broker.providerLogin(jonas, provider: "vipps", user: "jonas")
            #expect(admitted.code != nil, "\(admitted.fields)")

            // Magnus (NHF and HLF) signs in; once HLF ends his membership, his refresh there ends the session.
            let magnus = try await Self.signIn(broker, Self.login("hlf-site"), user: "magnus")
            let first = try await Self.refresh(broker, "hlf-site", magnus)
            #expect(first.status == 200, "\(first.body)")
            let magnusToken = try #require(magnus.string("id_token"))
            let magnusID = try #require(LiveBroker.claims(magnusToken)["sub"] as? String)
            try await broker.withStore { store in
                let hlf = try #require(try await store.organisation(slug: "hlf"))
                let records = try await store.memberships(userID: magnusID).filter { $0.organisationId == hlf.id }.compactMap(\.memberRecordId)
                #expect(!records.isEmpty)
                _ = try await store.endMemberships(recordIDs: records, reason: "test: left HLF", audit: { _ in [] })
            }
            let after = try await Self.refresh(broker, "hlf-site", first)
            #expect(after.status == 400 && after.string("error") == "invalid_grant", "\(after.body)")
        }
    }

    static func refresh(_ broker: LiveBroker, _ client: String, _ tokens: LiveBroker.Reply) async throws -> LiveBroker.Reply {
        try await broker.token([
            ("grant_type", "refresh_token"), ("client_id", client), ("client_secret", secret), ("refresh_token", tokens.string("refresh_token") ?? ""),
        ])
    }

    @Test("Issue 59 items 6 and 7: RP-initiated logout ends the session and returns to the registered loopback address with its port and state; an unregistered return, a client_id that is not the hint's, or a return without either is refused on a sign-out page, never the login's words", arguments: TestDatabase.kinds)
    func rpInitiatedLogout(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: try Self.settings()) { broker in
            let tokens = try await Self.signIn(broker, Self.login("course-site"))
            let hint = try #require(tokens.string("id_token"))
            let encoded = FormFields.encode(Self.signedOut)
            for (query, reason) in [
                ("id_token_hint=\(hint)&post_logout_redirect_uri=\(FormFields.encode("http://127.0.0.1:8124/signed-out"))", "not registered"),
                ("id_token_hint=\(hint)&client_id=hlf-site&post_logout_redirect_uri=\(encoded)", "another client"),
                ("post_logout_redirect_uri=\(encoded)", "needs id_token_hint or client_id"),
            ] {
                let refused = try await broker.send("/oauth/end-session?\(query)&ui_locales=en")
                #expect(refused.status == 400 && refused.location == nil, "\(reason): \(refused.status)")
                #expect(refused.body.contains("The sign-out could not be completed") && refused.body.contains(reason), "\(reason): \(refused.body)")
                #expect(!refused.body.contains("login could not be started"))
            }
            let stillAlive = try await broker.token([
                ("grant_type", "refresh_token"), ("client_id", "course-site"), ("client_secret", Self.secret), ("refresh_token", try #require(tokens.string("refresh_token"))),
            ])
            #expect(stillAlive.status == 200, "a refused sign-out ends nothing: \(stillAlive.body)")

            let out = try await broker.send("/oauth/end-session?id_token_hint=\(hint)&client_id=course-site&post_logout_redirect_uri=\(encoded)&state=back-1")
            #expect(out.status == 303 && out.location == Self.signedOut + "?state=back-1", "\(out.status) \(out.location ?? "")")
            let ended = try await broker.token([
                ("grant_type", "refresh_token"), ("client_id", "course-site"), ("client_secret", Self.secret), ("refresh_token", try #require(stillAlive.string("refresh_token"))),
            ])
            #expect(ended.status == 400 && ended.string("error") == "invalid_grant", "\(ended.body)")
        }
    }

    @Test("Issue 59 item 6: post_logout_redirect_uris on the loopback address must name a port and are for development only; the new client fields are read and checked")
    func clientsFileLogoutAddresses() throws {
        func parse(_ entry: String, _ environment: ServerConfiguration.Environment = .development) throws -> [AppClient] {
            try ClientsFile.parse(Data(#"{"clients": [\#(entry)]}"#.utf8), directory: "/tmp", environment: environment)
        }
        let base = #""client_id": "w", "redirect_uris": ["https://w.example/cb"], "client_secret": "\#(Self.secret)""#
        let client = try #require(try parse(#"{\#(base), "post_logout_redirect_uris": ["http://127.0.0.1:8123/out"], "first_party": true, "require_pkce": true, "organisations": ["hlf"], "backchannel_logout_uri": "http://127.0.0.1:8123/bc"}"#).first)
        #expect(client.allowsPostLogoutRedirect("http://127.0.0.1:8123/out") && !client.allowsPostLogoutRedirect("http://127.0.0.1:8124/out"))
        #expect(client.firstParty && client.requiresPKCE && client.organisations == ["hlf"] && client.backchannelLogoutURI == "http://127.0.0.1:8123/bc")
        for (entry, environment, words) in [
            (#"{\#(base), "post_logout_redirect_uris": ["http://127.0.0.1/out"]}"#, ServerConfiguration.Environment.development, "needs its port"),
            (#"{\#(base), "post_logout_redirect_uris": ["http://localhost:8123/out"]}"#, .development, "not localhost"),
            (#"{\#(base), "post_logout_redirect_uris": ["http://127.0.0.1:8123/out"]}"#, .production, "only for development"),
            (#"{\#(base), "organisations": ["HLF!"]}"#, .development, "slug"),
            (#"{\#(base), "backchannel_logout_uri": "http://w.example/bc"}"#, .development, "must be https"),
            (#"{"client_id": "a", "token_endpoint_auth_method": "none", "redirect_uris": ["a.b:/c"], "portvakt_api": true, "organisations": ["hlf"]}"#, .development, "not for a portvakt_api client"),
        ] {
            let error = #expect(throws: ConfigurationError.self, "\(words)") { try parse(entry, environment) }
            #expect(error?.description.contains(words) == true, "\(error?.description ?? "")")
        }
    }

    @Test("Issue 59 items 3, 5 and 6: a Vipps login at one client signs the browser in; another first-party client gets a code with prompt=none and no page, as of that login; a third party asks for consent once (remembered, audited); prompt=none without a sign-in is login_required, before consent consent_required; max_age=0 goes to the provider; signing out at the first client ends the second's session and queues its back-channel logout", arguments: TestDatabase.kinds)
    func singleSignOnConsentAndLogout(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: try Self.settings()) { broker in
            // A Vipps login at the course site; the browser keeps Portvakt's single sign-on cookie.
            let first = Self.login("course-site")
            let start = try await broker.send(first.authorizeURL(method: "vipps"))
            let atProvider = try await broker.send(try #require(start.location) + "&sandbox_user=kari&sandbox_action=approve")
            let back = try await broker.send(try #require(atProvider.location))
            let sso = try #require(Self.cookie("portvakt_sso", in: back), "no single sign-on cookie: \(back.headers)")
            #expect(back.setCookie("portvakt_sso")?.contains("HttpOnly") == true && back.setCookie("portvakt_sso")?.contains("SameSite=Lax") == true)
            let firstTokens = try await first.redeem(try #require(AppCallback(location: back.location).code), at: broker, extra: Self.secretField)
            let firstID = LiveBroker.claims(try #require(firstTokens.string("id_token")))
            let browser = [("Cookie", "portvakt_sso=\(sso)")]

            // prompt=none at a second first-party client: a code straight away, as of that login.
            let second = Self.login("second-site")
            let silent = try await broker.send(second.authorizeURL(method: nil, extra: [("prompt", "none")]), headers: browser)
            let secondCode = try #require(AppCallback(location: silent.location).code, "prompt=none: \(silent.status) \(silent.location ?? silent.body)")
            let earlierTokens = try await second.redeem(secondCode, at: broker, extra: Self.secretField)
            let earlierID = LiveBroker.claims(try #require(earlierTokens.string("id_token")))
            #expect(earlierID["auth_time"] as? Int == firstID["auth_time"] as? Int && (earlierID["amr"] as? [String]) == (firstID["amr"] as? [String]))
            #expect(earlierID["sid"] as? String != firstID["sid"] as? String)

            // Without the cookie, prompt=none is login_required; max_age=0 asks the provider again.
            let stranger = try await broker.send(second.authorizeURL(method: nil, extra: [("prompt", "none")]))
            #expect(AppCallback(location: stranger.location).fields["error"] == "login_required", "\(stranger.location ?? "")")
            let fresh = try await broker.send(second.authorizeURL(method: "vipps", extra: [("max_age", "0")]), headers: browser)
            #expect(fresh.location?.contains("/sandbox/vipps/") == true, "\(fresh.location ?? "")")

            // An ID token from elsewhere (no cookie) ends its own session, not the browser's sign-in.
            let elsewhere = try await broker.send("/oauth/end-session?id_token_hint=\(try #require(earlierTokens.string("id_token")))")
            #expect(elsewhere.status == 200)
            #expect(try await Self.refresh(broker, "second-site", earlierTokens).string("error") == "invalid_grant")
            let firstAlive = try await Self.refresh(broker, "course-site", firstTokens)
            #expect(firstAlive.status == 200, "\(firstAlive.body)")
            let again2 = Self.login("second-site")
            let stillSignedIn = try await broker.send(again2.authorizeURL(method: nil, extra: [("prompt", "none")]), headers: browser)
            let secondTokens = try await again2.redeem(try #require(AppCallback(location: stillSignedIn.location).code), at: broker, extra: Self.secretField)
            let secondID = LiveBroker.claims(try #require(secondTokens.string("id_token")))

            // A third party: consent_required without a page (for openid alone too), else the consent page, once.
            let bare = try await broker.send(Self.login("third-party", scope: "openid").authorizeURL(method: nil, extra: [("prompt", "none")]), headers: browser)
            #expect(AppCallback(location: bare.location).fields["error"] == "consent_required", "\(bare.location ?? "")")
            let third = Self.login("third-party", scope: "openid profile email")
            let unasked = try await broker.send(third.authorizeURL(method: nil, extra: [("prompt", "none")]), headers: browser)
            #expect(AppCallback(location: unasked.location).fields["error"] == "consent_required", "\(unasked.location ?? "")")
            let toConsent = try await broker.send(third.authorizeURL(method: nil, extra: [("ui_locales", "en")]), headers: browser)
            let consentURL = try #require(toConsent.location)
            #expect(consentURL.hasPrefix(broker.baseURL + "/oauth/consent?"), "\(consentURL)")
            let page = try await broker.send(consentURL, headers: browser)
            #expect(page.status == 200 && page.body.contains("Give Tredjepart access?") && page.body.contains("your email address"), "\(page.body)")
            #expect(!page.body.contains("which organisations you are a member of"))
            let form = try #require(Self.hiddenFields(page.body))
            // Another request's handle (a pushed request's page link, say) is no consent request.
            let foreign = try await broker.send(consentURL.replacingOccurrences(of: "continuation=", with: "continuation=x"), headers: browser)
            #expect(foreign.status == 400 && !foreign.body.contains(#"action="/oauth/consent""#))
            let forged = try await broker.send("/oauth/consent", method: .POST, form: form.map { $0.0 == "token" ? ($0.0, "forged") : $0 } + [("decision", "allow")],
                                               headers: browser + [("Origin", broker.baseURL)])
            #expect(forged.status == 403 && forged.location == nil)
            let allowed = try await broker.send("/oauth/consent", method: .POST, form: form + [("decision", "allow")], headers: browser + [("Origin", broker.baseURL)])
            #expect(AppCallback(location: allowed.location).code != nil, "\(allowed.status) \(allowed.location ?? allowed.body)")
            let again = try await broker.send(Self.login("third-party", scope: "openid profile email").authorizeURL(method: nil), headers: browser)
            #expect(AppCallback(location: again.location).code != nil, "the second time, no page: \(again.location ?? "")")
            let kariID = try #require(firstID["sub"] as? String)
            let events = try await broker.withStore { try await $0.auditEvents(actorUserID: kariID, actions: ["consent.granted"]) }
            #expect(events.count == 1)
            #expect(try await broker.withStore { try await $0.consent(userID: kariID, clientID: "third-party") }?.scope == "email profile")

            // Signing out at the course site signs the browser out, and the second site with it.
            let out = try await broker.send("/oauth/end-session?id_token_hint=\(try #require(firstTokens.string("id_token")))", headers: browser)
            #expect(out.status == 200 && out.setCookie("portvakt_sso")?.contains("portvakt_sso=;") == true, "\(out.status) \(out.headers)")
            let after = try await broker.send(second.authorizeURL(method: nil, extra: [("prompt", "none")]), headers: browser)
            #expect(AppCallback(location: after.location).fields["error"] == "login_required")
            let refreshed = try await Self.refresh(broker, "second-site", secondTokens)
            #expect(refreshed.status == 400 && refreshed.string("error") == "invalid_grant", "\(refreshed.body)")
            let secondSID = try #require(secondID["sid"] as? String)
            let queued = try await broker.withStore { store in
                try await store.driver.withSession { db in
                    try await db.raw("SELECT client_id, user_id FROM logout_outbox WHERE session_id = \(bind: secondSID)").all()
                        .map { "\(try $0.decode(column: "client_id", as: String.self)) \(try $0.decode(column: "user_id", as: String.self))" }
                }
            }
            #expect(queued == ["second-site \(kariID)"], "the second site's logout is queued once: \(queued)")
        }
    }

    @Test("Issue 59 item 6: a sign-out link without an ID token signs nobody out of Portvakt: the page asks, and only the person's own post (the cookie is SameSite=Lax) does it")
    func signOutAsksWithoutHint() async throws {
        try await LiveBroker.run(.sqlite, settings: try Self.settings()) { broker in
            let first = Self.login("course-site")
            let start = try await broker.send(first.authorizeURL(method: "vipps"))
            let atProvider = try await broker.send(try #require(start.location) + "&sandbox_user=kari&sandbox_action=approve")
            let back = try await broker.send(try #require(atProvider.location))
            let browser = [("Cookie", "portvakt_sso=\(try #require(Self.cookie("portvakt_sso", in: back)))")]
            let asked = try await broker.send("/oauth/end-session?ui_locales=en", headers: browser)
            #expect(asked.status == 200 && asked.body.contains("Sign out of Portvakt?") && asked.body.contains(#"name="confirm""#))
            let still = try await broker.send(Self.login("second-site").authorizeURL(method: nil, extra: [("prompt", "none")]), headers: browser)
            #expect(AppCallback(location: still.location).code != nil)
            // A form made elsewhere has no token: it is asked again, and nothing ends.
            let forged = try await broker.send("/oauth/end-session", method: .POST, form: [("confirm", "yes")], headers: browser)
            #expect(forged.status == 200 && forged.body.contains(#"name="confirm""#))
            let notYet = try await broker.send(Self.login("second-site").authorizeURL(method: nil, extra: [("prompt", "none")]), headers: browser)
            #expect(AppCallback(location: notYet.location).code != nil)
            let done = try await broker.send("/oauth/end-session", method: .POST, form: try #require(Self.hiddenFields(asked.body)), headers: browser)
            #expect(done.status == 200 && done.body.contains("You are logged out"), "\(done.body)")
            let gone = try await broker.send(Self.login("second-site").authorizeURL(method: nil, extra: [("prompt", "none")]), headers: browser)
            #expect(AppCallback(location: gone.location).fields["error"] == "login_required")
        }
    }

    static func cookie(_ name: String, in reply: LiveBroker.Reply) -> String? {
        guard let header = reply.setCookie(name) else { return nil }
        let value = header.drop { $0 != "=" }.dropFirst().prefix { $0 != ";" }
        return value.isEmpty ? nil : String(value)
    }

    /// The hidden fields of a page's form, as a browser would post them.
    static func hiddenFields(_ html: String) -> [(String, String)]? {
        let fields = html.matches(of: #/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/#).map { (String($0.1), String($0.2)) }
        return fields.isEmpty ? nil : fields
    }

    /// Kari's Vipps login for `login` and its code redeemed with the client's secret.
    static func signIn(_ broker: LiveBroker, _ login: AppLogin, user: String = "kari") async throws -> LiveBroker.Reply {
        let (app, _) = try await broker.providerLogin(login, provider: "vipps", user: user)
        let reply = try await login.redeem(try #require(app.code, "no code: \(app.fields)"), at: broker, extra: secretField)
        #expect(reply.status == 200, "\(reply.body)")
        return reply
    }

    static func userinfo(_ broker: LiveBroker, _ tokens: LiveBroker.Reply) async throws -> [String: Any] {
        let reply = try await broker.send("/oauth/userinfo", headers: [("Authorization", "Bearer " + (tokens.string("access_token") ?? ""))])
        #expect(reply.status == 200, "\(reply.body)")
        return reply.json
    }
}
