import Foundation
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Review IV, M1: a provider's answer finishes a login only in the browser that started it
/// (RFC 6749 §10.12). Otherwise someone could send a victim the callback URL of their own login
/// and have the victim's browser signed in as them, or offered their membership claim.
@Suite("Login CSRF at the provider's callback")
struct LoginCSRFTests {
    @Test("S15.2: a callback URL opened in another browser is refused and stays usable where it began; two logins in two tabs both finish", arguments: TestDatabase.kinds)
    func callbackBoundToItsBrowser(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            // The attacker's own login, up to the provider's answer.
            let login = AppLogin()
            let start = try await broker.send(login.authorizeURL(method: "vipps"))
            let binding = try #require(start.setCookies.first { $0.hasPrefix("portvakt_login_") })
            #expect(binding.hasPrefix("portvakt_login_") && binding.contains("HttpOnly") && binding.contains("SameSite=Lax") && binding.contains("Path=/") && !binding.contains("Path=/o"))
            let atProvider = try await broker.send(try #require(start.location) + "&sandbox_user=kari&sandbox_action=approve")
            let callbackURL = try #require(atProvider.location)

            // The victim's browser: no cookie, another login's cookie under this login's name, a made-up value.
            let name = String(binding.prefix { $0 != "=" })
            let other = try await broker.send(AppLogin().authorizeURL(method: "bankid"), asAnotherBrowser: true)
            let otherValue = String(try #require(other.setCookies.first { $0.hasPrefix("portvakt_login_") }).drop { $0 != "=" }.dropFirst().prefix { $0 != ";" })
            for cookie in [nil, "\(name)=\(otherValue)", "\(name)=" + String(repeating: "A", count: 43)] {
                let victim = try await broker.send(callbackURL, headers: cookie.map { [("Cookie", $0)] } ?? [], asAnotherBrowser: true)
                #expect(victim.status == 403 && victim.body.contains("another browser"), "\(cookie ?? "no cookie"): \(victim.status)")
                #expect(victim.location == nil && victim.setCookies.isEmpty, "nothing continues and no claim is offered")
            }

            // Where it began, the login finishes: the refused answers took nothing.
            let own = try await broker.send(callbackURL)
            #expect(own.status == 303)
            #expect(AppCallback(location: own.location).code != nil)
            #expect(!broker.logs.text.contains(AppCallback(location: callbackURL).fields["state"] ?? "-"), "the state is not logged")

            // Two tabs: each login has its own cookie, so the second does not undo the first.
            let (first, second) = (AppLogin(), AppLogin())
            var callbacks: [String] = []
            for tab in [first, second] {
                let started = try await broker.send(tab.authorizeURL(method: "bankid"))
                let approved = try await broker.send(try #require(started.location) + "&sandbox_user=ingrid&sandbox_action=approve")
                callbacks.append(try #require(approved.location))
            }
            for callback in callbacks {
                let back = try await broker.send(callback)
                #expect(back.status == 303 && AppCallback(location: back.location).code != nil, "\(back.status)")
            }
        }
    }
}
