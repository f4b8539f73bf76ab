import Hummingbird
import HummingbirdTesting
import Logging
@testable import PortvaktServer
import PortvaktTestSupport
import Testing

@Suite("Request log")
struct RequestLogTests {
    private struct Broken: Error {}

    @Test("Issue 63 item 5: a request answered with a server error is logged at error level, so a server running at warning (as openapi-test runs it) still shows it; other requests stay at info")
    func serverErrorsAreLoggedAsErrors() async throws {
        let sink = LogSink()
        var logger = Logger(label: "request-log") { _ in sink.handler() }
        logger.logLevel = .warning
        let router = Router()
        router.add(middleware: RequestLogMiddleware())
        router.get("/broken") { _, _ -> String in throw Broken() }
        router.get("/fine") { _, _ in "fine" }
        try await Application(router: router, logger: logger).test(.router) { client in
            let broken = try await client.execute(uri: "/broken", method: .get)
            let fine = try await client.execute(uri: "/fine", method: .get)
            #expect(broken.status == .internalServerError && fine.status == .ok)
        }
        let requests = sink.entries.filter { $0.contains(" request ") }
        #expect(requests.count == 1, "only the server error passes the warning level: \(sink.entries)")
        #expect(requests.first?.hasPrefix("error request") == true && requests.first?.contains("status=500") == true, "\(requests)")
    }
}
