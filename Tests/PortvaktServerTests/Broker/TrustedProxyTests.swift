import Foundation
import SQLKit
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// Behind a proxy, the client address comes from the proxies the operator trusts, and
/// from nobody else.
@Suite("Client address behind trusted proxies")
struct TrustedProxyTests {
    static let proxies = ["10.0.0.0/8", "fd00::/8", "192.0.2.1"].compactMap(IPNetwork.init)
    /// The default: the proxies write `X-Forwarded-For`, and a `Forwarded` header is the client's own.
    static let resolver = ClientAddressResolver(trustedProxies: proxies)
    /// `PORTVAKT_PROXY_HEADER=forwarded`: the proxies write `Forwarded`, and `X-Forwarded-For` is the client's own.
    static let forwardedResolver = ClientAddressResolver(trustedProxies: proxies, header: .forwarded)

    @Test("Headers from an untrusted peer are ignored; behind trusted proxies the right-most untrusted hop of X-Forwarded-For is the client", arguments: [
        // (peer, Forwarded, X-Forwarded-For, client)
        ("198.51.100.9", "", "203.0.113.5", "198.51.100.9"),
        ("198.51.100.9", "for=203.0.113.5", "", "198.51.100.9"),
        ("10.0.0.2", "", "203.0.113.5", "203.0.113.5"),
        ("10.0.0.2", "", "203.0.113.5, 10.1.1.1", "203.0.113.5"),
        ("10.0.0.2", "", "6.6.6.6, 203.0.113.5, 10.1.1.1", "203.0.113.5"),
        ("10.0.0.2", "", "", "10.0.0.2"),
        ("10.0.0.2", "", "10.9.9.9", "10.9.9.9"),
        ("10.0.0.2", "", "not-an-address", "10.0.0.2"),
        ("::ffff:10.0.0.2", "", "203.0.113.5", "203.0.113.5"),
        ("192.0.2.1", "", "203.0.113.5:4711", "203.0.113.5"),
        ("192.0.2.2", "", "203.0.113.5", "192.0.2.2"),
        // Security review II, item 5: a client's own Forwarded header is never read.
        ("10.0.0.2", "for=198.51.100.7", "203.0.113.5", "203.0.113.5"),
        ("10.0.0.2", "proto=https", "203.0.113.5", "203.0.113.5"),
        ("10.0.0.2", "for=203.0.113.7", "", "10.0.0.2"),
        ("fd00::1", #"for=192.0.2.60;proto=https;by=203.0.113.43, for="[2001:db8:cafe::17]:4711""#, "", "fd00::1"),
    ])
    func resolves(peer: String, forwarded: String, forwardedFor: String, client: String) {
        let address = Self.resolver.clientAddress(
            peer: peer, forwarded: forwarded.isEmpty ? [] : [forwarded], forwardedFor: forwardedFor.isEmpty ? [] : [forwardedFor]
        )
        #expect(address == client)
    }

    @Test("PORTVAKT_PROXY_HEADER=forwarded: only Forwarded's for= hops count; without a usable hop the client is the peer", arguments: [
        // (peer, Forwarded, X-Forwarded-For, client)
        ("198.51.100.9", "for=203.0.113.5", "", "198.51.100.9"),
        ("fd00::1", #"for=192.0.2.60;proto=https;by=203.0.113.43, for="[2001:db8:cafe::17]:4711""#, "", "2001:db8:cafe::17"),
        ("10.0.0.2", #"for="_hidden", for=10.3.3.3"#, "203.0.113.5", "10.3.3.3"),
        ("10.0.0.2", "For=unknown", "", "10.0.0.2"),
        ("10.0.0.2", "for=203.0.113.7", "203.0.113.5", "203.0.113.7"),
        // Security review II, item 5: no for= value, or no Forwarded at all, is the peer; the
        // client's own X-Forwarded-For is never read.
        ("10.0.0.2", "proto=https", "203.0.113.5", "10.0.0.2"),
        ("10.0.0.2", "", "203.0.113.5", "10.0.0.2"),
        ("10.0.0.2", "for=not-an-address", "", "10.0.0.2"),
        // The proxy's own element without for= ends the walk: the client's for= before it is not believed.
        ("10.0.0.2", "for=198.51.100.7, proto=https;host=portvakt.example", "", "10.0.0.2"),
    ])
    func resolvesForwarded(peer: String, forwarded: String, forwardedFor: String, client: String) {
        let address = Self.forwardedResolver.clientAddress(
            peer: peer, forwarded: forwarded.isEmpty ? [] : [forwarded], forwardedFor: forwardedFor.isEmpty ? [] : [forwardedFor]
        )
        #expect(address == client)
    }

    @Test("PORTVAKT_PROXY_HEADER: x-forwarded-for by default, forwarded when named, anything else refused by the setting's name")
    func proxyHeaderSetting() throws {
        #expect(try ServerConfiguration.load(.development, from: [:]).proxyHeader == .xForwardedFor)
        #expect(try ServerConfiguration.load(.development, from: ["PORTVAKT_PROXY_HEADER": "Forwarded"]).proxyHeader == .forwarded)
        #expect(try ServerConfiguration.load(.development, from: ["PORTVAKT_PROXY_HEADER": "x-forwarded-for"]).proxyHeader == .xForwardedFor)
        let error = try #require(throws: ConfigurationError.self) {
            try ServerConfiguration.load(.development, from: ["PORTVAKT_PROXY_HEADER": "x-real-ip"])
        }
        #expect(error.description == "PORTVAKT_PROXY_HEADER must be x-forwarded-for or forwarded (the one header the trusted proxies write)")
    }

    @Test("CIDR blocks: prefix lengths on both families; malformed ones refused by the setting's name")
    func networks() throws {
        #expect(IPNetwork("10.0.0.0/8")?.contains(IPAddress("10.255.1.2")!) == true)
        #expect(IPNetwork("10.0.0.0/8")?.contains(IPAddress("11.0.0.1")!) == false)
        #expect(IPNetwork("172.16.0.0/12")?.contains(IPAddress("172.31.255.255")!) == true)
        #expect(IPNetwork("172.16.0.0/12")?.contains(IPAddress("172.32.0.0")!) == false)
        #expect(IPNetwork("fd00::/8")?.contains(IPAddress("fdab::1")!) == true)
        #expect(IPNetwork("fd00::/8")?.contains(IPAddress("10.0.0.1")!) == false)
        #expect(IPNetwork("0.0.0.0/0")?.contains(IPAddress("8.8.8.8")!) == true)
        for bad in ["10.0.0.0/33", "10.0.0/8", "fd00::/129", "example.org", "10.0.0.0/-1", ""] {
            #expect(IPNetwork(bad) == nil, "\(bad)")
        }
        let error = try #require(throws: ConfigurationError.self) {
            try ServerConfiguration.load(.development, from: ["PORTVAKT_TRUSTED_PROXIES": "10.0.0.0/8,10.0.0.0/33"])
        }
        #expect(error.description.contains("PORTVAKT_TRUSTED_PROXIES"))
    }

    @Test("Security review III, item 6: loopback is parsed, not a text prefix: 127.evil.example is a name", arguments: [
        ("localhost", true), ("LOCALHOST", true), ("127.0.0.1", true), ("127.255.0.9", true), ("::1", true), ("[::1]", true),
        ("::ffff:127.0.0.1", true), ("/var/run/postgresql", true), ("%2Fvar%2Frun%2Fpostgresql", true),
        ("127.evil.example", false), ("127.0.0.1.nip.io", false), ("localhost.evil.example", false), ("128.0.0.1", false),
        ("10.0.0.1", false), ("::2", false), ("0.0.0.0", false), ("", false),
    ])
    func loopbackHosts(host: String, loopback: Bool) {
        #expect(LoopbackHost.isLoopback(host) == loopback)
    }

    @Test("A URL's host is loopback only when it parses as one")
    func loopbackURLs() throws {
        for (text, loopback) in [
            ("http://127.0.0.1:8080/x", true), ("http://[::1]:8080/x", true), ("https://localhost/x", true),
            ("http://127.evil.example/x", false), ("http://example.no/x", false), ("file:///tmp/x", false),
        ] {
            let url = try #require(URL(string: text))
            #expect(url.hasLoopbackHost == loopback, "\(text)")
        }
    }

    @Test("Behind a trusted proxy one client's failures block that client only; the audit trail names the client", arguments: TestDatabase.kinds)
    func throttlePerForwardedClient(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: ["PORTVAKT_TRUSTED_PROXIES": "127.0.0.1"], over: .socket) { broker in
            let flow = try await PasswordLoginTests.form(AppLogin(), at: broker)
            func attempt(as client: String, _ index: Int) async throws -> Int {
                try await broker.send("/oauth/password", method: .POST, form: [
                    ("flow", flow), ("email", "nobody\(index)@example.no"), ("password", "wrong password"),
                ], headers: [("X-Forwarded-For", "\(client), 127.0.0.1")]).status
            }
            // 30 free failures per address: the 31st attempt from the same client waits.
            for index in 0..<30 { #expect(try await attempt(as: "203.0.113.5", index) == 401) }
            #expect(try await attempt(as: "203.0.113.5", 30) == 429)
            #expect(try await attempt(as: "203.0.113.6", 31) == 401, "another client behind the same proxy is not blocked")
            // The address is kept beside the event (PRIVACY.md: deleted after 90 days).
            let addresses = try await broker.withStore { store in
                try await store.driver.withSession { db in
                    try await db.select().column("client_address").from("audit_addresses").all().map { try $0.decode(column: "client_address", as: String.self) }
                }
            }
            #expect(addresses.contains("203.0.113.6"))
            #expect(!addresses.contains("127.0.0.1"), "the proxy is never taken for the client")
        }
    }

    @Test("Security review II, item 5: behind a trusted proxy writing X-Forwarded-For, a client's own Forwarded header does not pick its throttle bucket")
    func clientForwardedIgnoredBehindProxy() async throws {
        try await LiveBroker.run(.sqlite, settings: ["PORTVAKT_TRUSTED_PROXIES": "127.0.0.1"], over: .socket) { broker in
            let flow = try await PasswordLoginTests.form(AppLogin(), at: broker)
            for index in 0..<31 {
                let status = try await broker.send("/oauth/password", method: .POST, form: [
                    ("flow", flow), ("email", "nobody\(index)@example.no"), ("password", "wrong password"),
                ], headers: [("Forwarded", "for=198.51.100.\(index)"), ("X-Forwarded-For", "203.0.113.5")]).status
                #expect(status == (index < 30 ? 401 : 429), "attempt \(index + 1)")
            }
        }
    }

    @Test("Without PORTVAKT_TRUSTED_PROXIES a spoofed X-Forwarded-For or Forwarded changes nothing: the failures count against the peer")
    func spoofedHeadersIgnored() async throws {
        try await LiveBroker.run(.sqlite, over: .socket) { broker in
            let flow = try await PasswordLoginTests.form(AppLogin(), at: broker)
            for index in 0..<31 {
                let status = try await broker.send("/oauth/password", method: .POST, form: [
                    ("flow", flow), ("email", "nobody\(index)@example.no"), ("password", "wrong password"),
                ], headers: [("X-Forwarded-For", "203.0.113.\(index)"), ("Forwarded", "for=198.51.100.\(index)")]).status
                #expect(status == (index < 30 ? 401 : 429), "attempt \(index + 1)")
            }
        }
    }
}
