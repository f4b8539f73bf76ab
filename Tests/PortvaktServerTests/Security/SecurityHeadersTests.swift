import Hummingbird
import HummingbirdTesting
import Testing
@testable import PortvaktServer

/// Review II, item 9: an https deployment tells browsers never to try plain http again.
@Suite("Security headers")
struct SecurityHeadersTests {
    static func headers(publicURL: String) async throws -> HTTPFields {
        let router = Router()
        router.add(middleware: SecurityHeadersMiddleware(publicURL: publicURL))
        router.get("/page") { _, _ in "ok" }
        return try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/page", method: .get) { response in response.headers }
        }
    }

    @Test("Strict-Transport-Security on https, never on http; nosniff and DENY on both")
    func hsts() async throws {
        let https = try await Self.headers(publicURL: "https://portvakt.example")
        #expect(https[.strictTransportSecurity] == "max-age=31536000")
        #expect(https[.xFrameOptions] == "DENY")
        let http = try await Self.headers(publicURL: "http://127.0.0.1:8080")
        #expect(http[.strictTransportSecurity] == nil)
        #expect(http[.xContentTypeOptions] == "nosniff")
    }
}
