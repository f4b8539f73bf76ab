import Foundation

/// How the sandbox runs: where it is mounted, who may switch faults, lifetimes, and its clock.
public struct SandboxConfiguration: Sendable {
    /// Where the sandbox's routes live, for example `/sandbox`.
    public var pathPrefix: String
    /// The base URL issuers and endpoints are built from; nil means "the Host the request used",
    /// as Keycloak does without a configured front-end URL.
    public var publicURL: String?
    /// The bearer token of the admin API (faults, client registration).
    public var adminToken: String
    public var codeLifetime: Duration
    public var accessTokenLifetime: Duration
    public var idTokenLifetime: Duration
    /// BankID orders not finished by then fail with `expiredTransaction`.
    public var orderLifetime: Duration
    /// Faults switched on at start.
    public var faults: [SandboxProvider: FaultSettings]
    /// Clients registered at start.
    public var clients: [SandboxClient]
    /// The sandbox's clock; tests move it.
    public var now: @Sendable () -> Date

    public init(
        pathPrefix: String = "/sandbox",
        publicURL: String? = nil,
        adminToken: String,
        codeLifetime: Duration = .seconds(60),
        accessTokenLifetime: Duration = .seconds(900),
        idTokenLifetime: Duration = .seconds(300),
        orderLifetime: Duration = .seconds(180),
        faults: [SandboxProvider: FaultSettings] = [:],
        clients: [SandboxClient] = [],
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.pathPrefix = pathPrefix
        self.publicURL = publicURL
        self.adminToken = adminToken
        self.codeLifetime = codeLifetime
        self.accessTokenLifetime = accessTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.orderLifetime = orderLifetime
        self.faults = faults
        self.clients = clients
        self.now = now
    }

    /// Parses a fault list such as `vipps:outage,bankid:slow,bankid:nin_missing`.
    /// - Returns: nil when a provider or fault name is unknown.
    public static func parseFaults(_ text: String) -> [SandboxProvider: FaultSettings]? {
        var result: [SandboxProvider: FaultSettings] = [:]
        for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let provider = SandboxProvider(rawValue: parts[0]), let fault = SandboxFault(rawValue: parts[1]) else {
                return nil
            }
            result[provider, default: FaultSettings()].faults.insert(fault)
        }
        return result
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
