import Foundation
import Hummingbird
import HummingbirdTesting
import NIOHTTP1
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

@Suite("Refusals answered once per surface")
struct ErrorAnswerTests {
    @Test("A JSON endpoint answers OAuth JSON even to a browser; a page answers a page; SCIM answers SCIM; the domain's refusals come out as the API's JSON")
    func oneMappingPerSurface() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let browser = [("Accept", "text/html,application/xhtml+xml")]
            let api = try await broker.send("/v1/me", headers: browser)
            #expect(api.status == 401 && api.headers["content-type"]?.hasPrefix("application/json") == true)
            #expect(api.json["error"] as? String == "invalid_token")
            let token = try await broker.send("/oauth/token", method: .POST, form: [("grant_type", "password")], headers: browser)
            #expect((400..<500).contains(token.status) && token.json["error"] != nil, "\(token.body.prefix(200))")
            let page = try await broker.send("/oauth/authorize?client_id=unknown", headers: browser)
            #expect(page.status >= 400 && page.headers["content-type"]?.hasPrefix("text/html") == true)

            // The domain's refusal (not an administrator's entry) through the same mapping.
            let ingrid = try await broker.tokens(provider: "bankid", user: "ingrid")
            let access = try #require(ingrid["access_token"] as? String)
            let unknown = try await broker.send("/v1/organisations/nhf/member-sync/no-such-entry", headers: [("Authorization", "Bearer \(access)")] + browser)
            #expect(unknown.status == 404 && unknown.json["error"] as? String == "not_found", "\(unknown.body.prefix(200))")

            // A query the HTTP helpers refuse is the API's one error shape too.
            let malformed = try await broker.send("/v1/activities?organisation=nhf&organisation=hlf", headers: [("Authorization", "Bearer \(access)")])
            #expect(malformed.status == 400 && malformed.json["error"] as? String == "invalid_request", "\(malformed.status) \(malformed.body.prefix(200))")

            // SCIM answers in its own error shape, to a browser too: a missing token, an unknown id, a malformed query.
            let system = try await broker.scimToken(organisation: "nhf")
            for (path, token, status) in [("/scim/v2/Users", nil, 401), ("/scim/v2/Users/no-such-user", system.token, 404), ("/scim/v2/Users?count=1&count=2", system.token, 400)] {
                let reply = try await broker.send(path, headers: browser + (token.map { [("Authorization", "Bearer \($0)")] } ?? []))
                #expect(reply.status == status && reply.json["schemas"] as? [String] == [LiveBroker.scimError] && reply.json["error"] == nil, "\(path): \(reply.status) \(reply.body.prefix(200))")
            }
            // So does an address or a method no SCIM route serves, with a token or without, to a program or a browser.
            let unserved: [(String, String?, [(String, String)])] = [("/scim/v2/Groups", system.token, browser), ("/scim/v2/Groups", nil, []), ("/scim/v1/Users", nil, browser), ("/scim", system.token, []), ("//scim/v2/Groups", nil, browser)]
            for (path, token, accept) in unserved {
                let reply = try await broker.send(path, headers: accept + (token.map { [("Authorization", "Bearer \($0)")] } ?? []))
                #expect(reply.status == 404 && reply.json["schemas"] as? [String] == [LiveBroker.scimError] && reply.json["status"] as? String == "404", "\(path): \(reply.status) \(reply.body.prefix(200))")
            }
            let unservedMethods: [(String, [(String, String)])] = [("/scim/v2/ServiceProviderConfig", browser), ("/scim/v2/ServiceProviderConfig", []), ("//scim/v2/ServiceProviderConfig", browser)]
            for (path, accept) in unservedMethods {
                let wrongMethod = try await broker.send(path, method: .DELETE, headers: accept + [("Authorization", "Bearer \(system.token)")])
                #expect(wrongMethod.status == 405 && wrongMethod.headers["allow"] == "GET", "\(wrongMethod.status) \(wrongMethod.headers)")
                #expect(wrongMethod.json["schemas"] as? [String] == [LiveBroker.scimError] && wrongMethod.json["status"] as? String == "405", "\(wrongMethod.body.prefix(200))")
            }
            // Elsewhere an unknown address is still a page to a browser and the 405 still the API's JSON.
            let nowhere = try await broker.send("/no-such-page", headers: browser)
            #expect(nowhere.status == 404 && nowhere.headers["content-type"]?.hasPrefix("text/html") == true)
            let wrongMethod = try await broker.send("/.well-known/openid-configuration", method: .DELETE)
            #expect(wrongMethod.status == 405 && wrongMethod.json["error"] as? String == "method_not_allowed", "\(wrongMethod.body.prefix(200))")
            let wrongMethodInBrowser = try await broker.send("/.well-known/openid-configuration", method: .DELETE, headers: browser)
            #expect(wrongMethodInBrowser.status == 405 && wrongMethodInBrowser.headers["content-type"]?.hasPrefix("text/html") == true)
        }
    }

    @Test("On a SCIM route even an error meant for another surface, or none at all, is answered in SCIM's shape, to a browser too")
    func scimAnswersEverythingInItsShape() async throws {
        let routes = DeclaredRoutes()
        routes.get("/scim/v2/OAuth", .memberSystemToken, surface: .scim) { _, _ -> HTTPResponse.Status in throw OAuthFailure.invalidRequest("wrong surface") }
        routes.get("/scim/v2/Away", .memberSystemToken, surface: .scim) { _, _ -> HTTPResponse.Status in throw HTTPError(.serviceUnavailable) }
        routes.get("/scim/v2/Broken", .memberSystemToken, surface: .scim) { _, _ -> HTTPResponse.Status in throw CancellationError() }
        let table = try routes.table(sandboxMounted: false)
        let router = Router(context: PortvaktRequestContext.self)
        router.add(middleware: UnexpectedErrorMiddleware(routes: table))
        router.add(middleware: ErrorAnswerMiddleware(routes: table))
        routes.add(to: router)
        try await Application(router: router).test(.router) { client in
            for (path, status) in [("/scim/v2/OAuth", 400), ("/scim/v2/Away", 503), ("/scim/v2/Broken", 500)] {
                try await client.execute(uri: path, method: .get, headers: [.accept: "text/html"]) { response in
                    let body = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any]
                    #expect(Int(response.status.code) == status, "\(path)")
                    #expect(body?["schemas"] as? [String] == [LiveBroker.scimError] && body?["status"] as? String == String(status) && body?["error"] == nil, "\(path): \(String(buffer: response.body))")
                }
            }
        }
    }

    @Test("S3.5: the other-device page has one status region (the order's), not a second one from the layout")
    func oneStatusRegion() {
        let html = OtherDevicePage.render(
            sessionID: "s", qrSVG: "<svg></svg>", message: .bankIDStartApp, expiresAt: Date(timeIntervalSince1970: 180), now: Date(timeIntervalSince1970: 0),
            language: .nb, methodsURL: "/oauth/authorize?a=1&b=2", brand: nil
        )
        #expect(html.matches(of: /role="status"/).count == 1)
        #expect(html.contains("a=1&amp;b=2"))
    }

    @Test("Pages and JSON endpoints are told apart by what each route was declared with")
    func surfaces() async throws {
        try await InProcessRouteTests.withRouter { _, _, declared in
            let pages = [
                "GET /", "GET /oauth/authorize", "GET /oauth/callback/vipps", "GET /portal/login", "GET /account", "GET /admin/{slug}/sync",
                "GET /oauth/end-session", "POST /oauth/password", "GET /sandbox/mailbox",
            ]
            for page in pages {
                #expect(declared.declaration(of: page)?.surface == .page, "\(page)")
            }
            let json = [
                "GET /v1/me", "POST /oauth/token", "POST /oauth/par", "POST /oauth/revoke", "GET /oauth/userinfo", "POST /bankid/orders",
                "GET /v1/organisations/{slug}/outbox", "POST /oauth/passkey/options", "GET /sandbox/bankid/auth/realms/current/.well-known/openid-configuration",
            ]
            for endpoint in json {
                #expect(declared.declaration(of: endpoint)?.surface == .json, "\(endpoint)")
            }
            for endpoint in ["GET /scim/v2/Users", "PATCH /scim/v2/Users/{id}", "GET /scim/v2/ServiceProviderConfig"] {
                #expect(declared.declaration(of: endpoint)?.surface == .scim, "\(endpoint)")
            }
        }
    }
}
