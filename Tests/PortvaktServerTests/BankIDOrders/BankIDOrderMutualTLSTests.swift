import Foundation
import Hummingbird
import HummingbirdTLS
import Logging
import NIOSSL
import PortvaktDomain
@testable import PortvaktServer
import ServiceLifecycle
import Synchronization
import Testing

/// BankID's order API authenticates the relying party by its client certificate in the TLS
/// handshake (issue 60 item 4): here an order API of the test's own that asks for one, with
/// certificates openssl makes.
@Suite("BankID order API over mutual TLS")
struct BankIDOrderMutualTLSTests {
    @Test("Issue 60 item 4, S3.1: the server starts an order with the relying party's client certificate, checking the API's certificate against PORTVAKT_BANKID_ORDER_CA_FILE; no certificate, another CA's certificate, or an API the CA did not sign is a named refusal, never an order")
    func ordersOverMutualTLS() async throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let bankID = try certificates.authority("bankid-ca")
        let api = try certificates.issue("order-api", by: bankID, serverNames: ["127.0.0.1"])
        let elsewhere = try certificates.issue("elsewhere", by: bankID, serverNames: ["orders.bankid.example"])
        let relyingParty = try certificates.issue("relying-party", by: bankID)
        let stranger = try certificates.authority("stranger-ca")
        let strangersClient = try certificates.issue("strangers-client", by: stranger)

        try await OrderAPIServer.run(certificate: api, clientsSignedBy: bankID) { server in
            let url = "https://127.0.0.1:\(server.port)/rp/v6.0"
            let production = ConfigurationTests.productionSettings.merging([
                "PORTVAKT_BANKID_ORDER_API_URL": url,
                "PORTVAKT_BANKID_ORDER_CLIENT_CERTIFICATE_FILE": relyingParty.certificate,
                "PORTVAKT_BANKID_ORDER_CLIENT_KEY_FILE": relyingParty.key,
                "PORTVAKT_BANKID_ORDER_CA_FILE": bankID.certificate,
            ]) { $1 }

            let started = try await Self.start(production)
            #expect(try started.get().orderRef == OrderAPIServer.orderRef, "\(started)")
            #expect(server.starts == 1)
            // The look at start and every minute (/health/ready): a collect of no order.
            let looked = try await Self.check(production)
            #expect(looked.state == .reachable, "\(looked)")

            // Without a client certificate (HTTP Basic, as the sandbox takes it): the API refuses the handshake.
            let basic = try await Self.start([
                "PORTVAKT_BANKID_ORDER_API_URL": url, "PORTVAKT_BANKID_ORDER_CA_FILE": bankID.certificate,
                "PORTVAKT_BANKID_ORDER_CLIENT_ID": "portvakt", "PORTVAKT_BANKID_ORDER_CLIENT_SECRET": "orders-secret",
            ], mode: .development)
            Self.expectRefusal(basic, naming: "client certificate")

            var another = production
            another["PORTVAKT_BANKID_ORDER_CLIENT_CERTIFICATE_FILE"] = strangersClient.certificate
            another["PORTVAKT_BANKID_ORDER_CLIENT_KEY_FILE"] = strangersClient.key
            Self.expectRefusal(try await Self.start(another), naming: "client certificate")

            var untrusted = production
            untrusted["PORTVAKT_BANKID_ORDER_CA_FILE"] = stranger.certificate
            Self.expectRefusal(try await Self.start(untrusted), naming: "PORTVAKT_BANKID_ORDER_CA_FILE")
            let misconfigured = try await Self.check(untrusted)
            #expect(misconfigured.state == .misconfigured && misconfigured.detail?.contains("PORTVAKT_BANKID_ORDER_CA_FILE") == true, "\(misconfigured)")
            #expect(try await Self.check(another).state == .misconfigured, "a client certificate the API refuses is a setting to change")

            var systemStore = production
            systemStore["PORTVAKT_BANKID_ORDER_CA_FILE"] = nil
            Self.expectRefusal(try await Self.start(systemStore), naming: "system's trusted certificates")
            #expect(server.starts == 1, "no refused handshake reached the API")
        }
        // The API's certificate from the right CA, for another name: refused, naming the host.
        try await OrderAPIServer.run(certificate: elsewhere, clientsSignedBy: bankID) { server in
            let settings = ConfigurationTests.productionSettings.merging([
                "PORTVAKT_BANKID_ORDER_API_URL": "https://127.0.0.1:\(server.port)/rp/v6.0",
                "PORTVAKT_BANKID_ORDER_CLIENT_CERTIFICATE_FILE": relyingParty.certificate,
                "PORTVAKT_BANKID_ORDER_CLIENT_KEY_FILE": relyingParty.key, "PORTVAKT_BANKID_ORDER_CA_FILE": bankID.certificate,
            ]) { $1 }
            Self.expectRefusal(try await Self.start(settings), naming: "does not name its host (127.0.0.1)")
            #expect(server.starts == 0)
        }
    }

    @Test("Issue 60 item 4: the certificate and key as the documented openssl pkcs12 commands take them out of BankID's .p12 (Bag Attributes before the PEM block) are accepted")
    func fromPKCS12() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let relyingParty = try certificates.issue("relying-party", by: try certificates.authority("bankid-ca"))
        let (certificate, key) = try certificates.throughPKCS12(relyingParty)
        #expect(try String(contentsOfFile: key, encoding: .utf8).hasPrefix("Bag Attributes"), "the shape openssl pkcs12 writes")
        let configuration = try ServerConfiguration.load(.production, from: ConfigurationTests.productionSettings.merging([
            "PORTVAKT_BANKID_ORDER_API_URL": "https://appapi2.bankid.example/rp/v6.0",
            "PORTVAKT_BANKID_ORDER_CLIENT_CERTIFICATE_FILE": certificate, "PORTVAKT_BANKID_ORDER_CLIENT_KEY_FILE": key,
        ]) { $1 })
        #expect(configuration.bankIDOrderAPI?.transportSecurity?.privateKey != nil)
        #expect(configuration.warnings.contains { $0.contains("PORTVAKT_BANKID_ORDER_CA_FILE is not set") }, "\(configuration.warnings)")
    }

    @Test("Issue 60 item 4: a client certificate is checked at start: its key must be the certificate's, the URL https; an expired one leaves the order API out (the rest starts), one about to expire is a warning; HTTP Basic is refused in production except for the sandbox on a loopback address; no key text in any message")
    func refusedAtStart() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let bankID = try certificates.authority("bankid-ca")
        let relyingParty = try certificates.issue("relying-party", by: bankID)
        let other = try certificates.issue("other", by: bankID)
        let expired = try certificates.issue("expired", by: bankID, days: 0)
        let production = ConfigurationTests.productionSettings
        func refusal(_ settings: [String: String]) -> String {
            do {
                _ = try ServerConfiguration.load(.production, from: production.merging(settings) { $1 })
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        let certificate: [String: String] = [
            "PORTVAKT_BANKID_ORDER_API_URL": "https://appapi2.bankid.example/rp/v6.0",
            "PORTVAKT_BANKID_ORDER_CLIENT_CERTIFICATE_FILE": relyingParty.certificate,
            "PORTVAKT_BANKID_ORDER_CLIENT_KEY_FILE": relyingParty.key,
        ]
        #expect(refusal(certificate) == "accepted")

        let keyText = try String(contentsOfFile: other.key, encoding: .utf8)
        let mismatch = refusal(certificate.merging(["PORTVAKT_BANKID_ORDER_CLIENT_KEY_FILE": other.key]) { $1 })
        #expect(mismatch.contains("PORTVAKT_BANKID_ORDER_CLIENT_KEY is not the key of the certificate"), "\(mismatch)")
        #expect(!mismatch.contains(keyText.split(separator: "\n")[1]), "no key text")

        // An expired certificate leaves the order API out and says so; everything else starts.
        let lapsed = try ServerConfiguration.load(.production, from: production.merging(certificate.merging([
            "PORTVAKT_BANKID_ORDER_CLIENT_CERTIFICATE_FILE": expired.certificate, "PORTVAKT_BANKID_ORDER_CLIENT_KEY_FILE": expired.key,
        ]) { $1 }) { $1 })
        #expect(lapsed.bankIDOrderAPI == nil && !OfferedMethods(lapsed).bankIDOrders)
        #expect(lapsed.warnings.contains { $0.contains("PORTVAKT_BANKID_ORDER_CLIENT_CERTIFICATE_FILE") && $0.contains("expired") && $0.contains("not offered") }, "\(lapsed.warnings)")
        let expiring = try ServerConfiguration.load(.production, from: production.merging(certificate) { $1 })
        #expect(expiring.bankIDOrderAPI != nil)
        #expect(expiring.warnings.contains { $0.contains("expires on") }, "two days left: \(expiring.warnings)")

        let notPEM = refusal(certificate.merging(["PORTVAKT_BANKID_ORDER_CLIENT_CERTIFICATE_FILE": production["PORTVAKT_CLIENTS_FILE"]!]) { $1 })
        #expect(notPEM.contains("PORTVAKT_BANKID_ORDER_CLIENT_CERTIFICATE_FILE") && notPEM.contains("PEM"), "\(notPEM)")

        let keyWithout = refusal(certificate.merging(["PORTVAKT_BANKID_ORDER_CLIENT_KEY_FILE": ""]) { $1 })
        #expect(keyWithout.contains("PORTVAKT_BANKID_ORDER_CLIENT_KEY"), "\(keyWithout)")

        let plain = refusal(certificate.merging(["PORTVAKT_BANKID_ORDER_API_URL": "http://127.0.0.1:9000/rp/v6.0"]) { $1 })
        #expect(plain.contains("https"), "\(plain)")

        let basic: [String: String] = ["PORTVAKT_BANKID_ORDER_CLIENT_ID": "portvakt", "PORTVAKT_BANKID_ORDER_CLIENT_SECRET": "orders-secret"]
        let basicAtBankID = refusal(basic.merging(["PORTVAKT_BANKID_ORDER_API_URL": "https://appapi2.bankid.example/rp/v6.0"]) { $1 })
        #expect(basicAtBankID.contains("PORTVAKT_BANKID_ORDER_CLIENT_CERTIFICATE_FILE") && !basicAtBankID.contains("orders-secret"), "\(basicAtBankID)")
        #expect(refusal(basic.merging(["PORTVAKT_BANKID_ORDER_API_URL": "http://127.0.0.1:9000/sandbox/bankid/rp/v6.0"]) { $1 }) == "accepted")

        let both = refusal(certificate.merging(basic) { $1 })
        #expect(both.contains("not both"), "\(both)")
    }

    /// An order started as the server would start it with these settings.
    private static func start(
        _ settings: [String: String], mode: ServerConfiguration.Environment = .production
    ) async throws -> Result<StartedBankIDOrder, UpstreamError> {
        let configuration = try ServerConfiguration.load(mode, from: settings)
        let orders = try #require(configuration.bankIDOrderAPI)
        let http = HTTPClientService(timeout: .seconds(5), tls: orders.transportSecurity)
        let result: Result<StartedBankIDOrder, UpstreamError>
        do {
            result = .success(try await BankIDOrderAPI(settings: orders, http: NetworkHTTP(client: http.client), timeout: .seconds(5)).start(endUserIP: "192.0.2.10"))
        } catch {
            result = .failure(error)
        }
        try await http.client.shutdown()
        return result
    }

    /// The look the server takes at the order API with these settings.
    private static func check(_ settings: [String: String]) async throws -> ProviderState {
        let orders = try #require(try ServerConfiguration.load(.production, from: settings).bankIDOrderAPI)
        let http = HTTPClientService(timeout: .seconds(5), tls: orders.transportSecurity)
        let state = await BankIDOrderAPI(settings: orders, http: NetworkHTTP(client: http.client), timeout: .seconds(5)).check(now: Date())
        try await http.client.shutdown()
        return state
    }

    private static func expectRefusal(_ result: Result<StartedBankIDOrder, UpstreamError>, naming reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .failure(.unavailable(let message)) = result else {
            Issue.record("expected the order API to be unavailable, got \(result)", sourceLocation: sourceLocation)
            return
        }
        #expect(message.contains(reason), "\(message)", sourceLocation: sourceLocation)
    }
}

/// An order API that asks for a client certificate signed by one CA, answering `/auth` as the
/// relying-party API v6 does.
final class OrderAPIServer: Sendable {
    static let orderRef = "131daac9-16c6-4618-beb0-365768f37288"
    let port: Int
    private let counted = Mutex(0)

    /// The orders started: a refused handshake never reaches `/auth`.
    var starts: Int { counted.withLock { $0 } }

    private init(port: Int) { self.port = port }

    static func run(certificate: TestCertificates.Issued, clientsSignedBy authority: TestCertificates.Issued, _ body: (OrderAPIServer) async throws -> Void) async throws {
        var logger = Logger(label: "order-api")
        logger.logLevel = .critical
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.certificate).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: certificate.key, format: .pem))
        )
        tls.certificateVerification = .noHostnameVerification
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(authority.certificate))
        let (ports, bound) = AsyncStream<Int>.makeStream()
        let server = Mutex<OrderAPIServer?>(nil)
        let router = Router()
        router.post("/rp/v6.0/auth") { _, _ -> Response in
            server.withLock { $0 }?.counted.withLock { $0 += 1 }
            let body = #"{"orderRef":"\#(orderRef)","autoStartToken":"7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6","qrStartToken":"67df3917-fa0d-44e5-b327-edcc928297f8","qrStartSecret":"d28db9a7-4cde-429e-a983-359be676944c"}"#
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        router.post("/rp/v6.0/collect") { _, _ -> Response in
            // No order was started here: every orderRef is unknown.
            let body = #"{"errorCode":"invalidParameters","details":"No such order"}"#
            return Response(status: .badRequest, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        let app = Application(
            router: router, server: try .tls(.http1(), tlsConfiguration: tls),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { bound.yield($0.localAddress?.port ?? 0) }, logger: logger
        )
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { bound.finish() }
                try await services.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                try await group.waitForAll()
                throw CancellationError()
            }
            let running = OrderAPIServer(port: port)
            server.withLock { $0 = running }
            do {
                try await body(running)
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
    }
}
