import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import PortvaktServer

/// Review IV item 1: the forms of the broker's own pages (password, passkey, membership claim,
/// BankID on another device) answer only a post from this site.
@Suite("Cross-site posts to the login pages")
struct CrossSiteFormTests {
    /// Written out here, not taken from the routes' declarations, so a form route declared without the check fails.
    static let brokerForms = [
        "POST /oauth/password", "POST /oauth/passkey/options", "POST /oauth/passkey",
        "POST /oauth/claim/email", "POST /oauth/claim/code", "POST /oauth/claim/cancel",
        "POST /oauth/bankid/other-device/collect", "POST /oauth/bankid/other-device/cancel", "POST /oauth/consent",
    ]

    @Test("A post from another site is refused with a page that says so; one from this site, or from no browser, reaches the form's own checks")
    func crossSitePostsAreRefused() async throws {
        try await InProcessRouteTests.withRouter { client, routes, declared in
            #expect(Set(Self.brokerForms).isSubset(of: Set(routes)), "every listed form is served")
            #expect(Set(routes.filter { declared.declaration(of: $0)?.policy.sameOriginForm == true }) == Set(Self.brokerForms), "and no other route is declared a broker form")
            let crossSite: [HTTPFields] = [
                [.origin: "https://evil.example"], [.origin: "null"],
                [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"], [HTTPField.Name("Sec-Fetch-Site")!: "same-site"],
                [HTTPField.Name("Sec-Fetch-Site")!: "cross-site", .origin: "http://localhost"],
            ]
            for route in Self.brokerForms {
                let (method, path) = InProcessRouteTests.path(of: route)
                for headers in crossSite {
                    var fields = headers
                    fields[.contentType] = "application/x-www-form-urlencoded"
                    try await client.execute(uri: path, method: method, headers: fields, body: ByteBuffer(string: "flow=x&claim=x&session=x")) { response in
                        #expect(response.status == .forbidden, "\(route) \(headers): \(response.status)")
                        #expect(String(buffer: response.body).contains("another site"), "\(route)")
                    }
                }
                for headers: HTTPFields in [[HTTPField.Name("Sec-Fetch-Site")!: "same-origin"], [:]] {
                    var fields = headers
                    fields[.contentType] = "application/x-www-form-urlencoded"
                    try await client.execute(uri: path, method: method, headers: fields, body: ByteBuffer(string: "flow=x&claim=x&session=x")) { response in
                        #expect(!String(buffer: response.body).contains("another site"), "\(route) \(headers) reaches its handler")
                        #expect(response.status.code < 500, "\(route): \(response.status)")
                    }
                }
            }
        }
    }
}
