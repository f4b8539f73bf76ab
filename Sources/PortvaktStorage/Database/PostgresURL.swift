import Foundation
import NIOCore
import NIOSSL
import PostgresNIO

/// `DATABASE_URL` read as libpq and psql read a connection URI
/// (`postgresql://user:password@host:port/database?sslmode=…`), checked before any connection:
/// the same URL means the same connection to Portvakt and to `psql`.
///
/// Parameters (libpq's names): `host` (a folder such as `/run/postgresql` is a Unix-domain
/// socket, `.s.PGSQL.PORT` in it), `port`, `dbname`, `user`, `password`, `sslmode`,
/// `sslrootcert`, `sslcert`, `sslkey`, `connect_timeout`, `application_name`. Any other is
/// refused by name rather than ignored.
public struct PostgresURL: Sendable, CustomStringConvertible {
    /// libpq's `sslmode`. `prefer` and `require` encrypt without checking the certificate (libpq's
    /// `require` checks the chain when `sslrootcert` is given); `verify-ca` checks the chain,
    /// `verify-full` the chain and the host name. libpq's `allow` (plain text first) is refused.
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// libpq's `host=/run/postgresql`: the folder that holds the socket `.s.PGSQL.PORT`.
        case socket(folder: String, port: Int)

        var isSocket: Bool {
            if case .socket = self { true } else { false }
        }
    }

    public let endpoint: Endpoint
    public let username: String
    let password: String?
    public let database: String
    public let tls: TLSMode
    /// `sslrootcert`: the CA file that signs the server's certificate; nil: the system's trust
    /// store (libpq's `sslrootcert=system`), which only `verify-full` may use: any public CA signs
    /// a certificate for somebody's own domain, so only the host name makes it the database's.
    public let rootCertificateFile: String?
    /// What the handshake offers and checks, read once (the certificate files too); nil: no TLS.
    let handshake: TLSConfiguration?
    let clientCertificateFile: String?
    let clientKeyFile: String?
    public let connectTimeout: Duration
    let applicationName: String?
    /// Connections one instance holds at most (`PORTVAKT_DATABASE_POOL_SIZE`).
    public var poolSize = 20

    /// The parameters read; libpq's others are refused by name.
    static let parameters: Set<String> = [
        "host", "port", "dbname", "user", "password", "sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout", "application_name",
    ]
    /// libpq's other keywords: named when refused. Anything else is not named, since it may be a
    /// piece of a password with an unescaped `&` in it.
    static let otherLibpqKeywords: Set<String> = [
        "hostaddr", "passfile", "require_auth", "channel_binding", "options", "fallback_application_name", "keepalives",
        "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication", "gssencmode",
        "sslnegotiation", "sslcompression", "sslpassword", "sslcertmode", "sslcrl", "sslcrldir", "sslsni", "requirepeer",
        "ssl_min_protocol_version", "ssl_max_protocol_version", "krbsrvname", "gsslib", "gssdelegation", "service",
        "target_session_attrs", "load_balance_hosts", "client_encoding",
    ]

    /// The host, or for a socket its folder: what the URL says the database's machine is.
    public var host: String {
        switch endpoint {
        case .tcp(let host, _): host
        case .socket(let folder, _): folder
        }
    }

    public var port: Int {
        switch endpoint {
        case .tcp(_, let port), .socket(_, let port): port
        }
    }

    /// A socket is on this machine by definition; a host when it is a loopback address.
    public var isSocket: Bool { endpoint.isSocket }

    /// - Throws: ``PostgresURLError`` naming what is wrong, never the password.
    public init(_ text: String) throws(PostgresURLError) {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme)
        else { throw PostgresURLError("must start with postgres:// or postgresql://") }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard Self.parameters.contains(item.name) else {
                let named = Self.otherLibpqKeywords.contains(item.name) ? "the parameter \(item.name)" : "a parameter"
                throw PostgresURLError("has \(named), which Portvakt does not read (it reads \(Self.parameters.sorted().joined(separator: ", ")))")
            }
            guard query[item.name] == nil else { throw PostgresURLError("gives the parameter \(item.name) twice") }
            query[item.name] = item.value ?? ""
        }

        // The authority's parts decoded once, as libpq does (a `%41` in a password stays `%41` once decoded).
        let hostText = query["host"] ?? components.percentEncodedHost.map { $0.removingPercentEncoding ?? $0 } ?? ""
        guard !hostText.isEmpty else {
            throw PostgresURLError("has no host (a name, an address, or host=/run/postgresql for the local socket)")
        }
        guard !hostText.contains(",") else { throw PostgresURLError("names several hosts; Portvakt connects to one") }
        let portText = query["port"] ?? components.port.map(String.init) ?? "5432"
        guard let port = Int(portText), (1...65535).contains(port) else { throw PostgresURLError("has a port that is not a number from 1 to 65535") }
        endpoint = hostText.hasPrefix("/") ? .socket(folder: hostText, port: port) : .tcp(host: hostText, port: port)

        let user = query["user"] ?? components.percentEncodedUser.map { $0.removingPercentEncoding ?? $0 } ?? ""
        guard !user.isEmpty else { throw PostgresURLError("has no user name") }
        username = user
        password = query["password"] ?? components.percentEncodedPassword.map { $0.removingPercentEncoding ?? $0 }
        let path = String(components.percentEncodedPath.drop(while: { $0 == "/" }))
        database = query["dbname"] ?? (path.removingPercentEncoding ?? path)
        guard !database.isEmpty else { throw PostgresURLError("has no database name after the host") }

        let modeText = query["sslmode"] ?? "prefer"
        guard let mode = TLSMode(rawValue: modeText) else {
            throw PostgresURLError(modeText == "allow"
                ? "has sslmode=allow (plain text first), which Portvakt does not offer: use prefer, require, verify-ca or verify-full"
                : "has an unknown sslmode (use disable, prefer, require, verify-ca or verify-full)")
        }
        tls = mode
        let root = query["sslrootcert"].flatMap { $0.isEmpty ? nil : $0 }
        if root != nil, mode == .disable || mode == .prefer {
            throw PostgresURLError("has sslrootcert, which sslmode=\(mode.rawValue) never checks: use verify-ca or verify-full")
        }
        // As libpq: the system's store only with the host name checked too.
        if root == "system", mode != .verifyFull {
            throw PostgresURLError("has sslrootcert=system, which is safe only with sslmode=verify-full (a public CA signs certificates for anybody's domain)")
        }
        if root == nil, mode == .verifyCA {
            throw PostgresURLError("has sslmode=verify-ca without sslrootcert: give the CA that signs the database's certificate (the system's store is for verify-full)")
        }
        rootCertificateFile = root == "system" ? nil : root
        clientCertificateFile = query["sslcert"].flatMap { $0.isEmpty ? nil : $0 }
        clientKeyFile = query["sslkey"].flatMap { $0.isEmpty ? nil : $0 }
        guard (clientCertificateFile == nil) == (clientKeyFile == nil) else {
            throw PostgresURLError("needs sslcert and sslkey together (the client certificate and its private key)")
        }
        if clientCertificateFile != nil, mode == .disable {
            throw PostgresURLError("has a client certificate (sslcert), which sslmode=disable never sends")
        }
        let timeout = query["connect_timeout"] ?? "5"
        guard let seconds = Int(timeout), (1...600).contains(seconds) else {
            throw PostgresURLError("has a connect_timeout that is not a whole number of seconds from 1 to 600")
        }
        connectTimeout = .seconds(seconds)
        applicationName = query["application_name"].flatMap { $0.isEmpty ? nil : $0 }
        handshake = try Self.tlsConfiguration(
            tls, socket: endpoint.isSocket, root: rootCertificateFile, certificate: clientCertificateFile, key: clientKeyFile
        )
    }

    /// Where the database is, without the credentials: safe to log.
    public var description: String {
        switch endpoint {
        case .tcp(let host, let port):
            let shown = host.contains(":") ? "[\(host)]" : host
            return "postgres://\(shown):\(port)/\(database)"
        case .socket(let folder, let port):
            return "postgres:///\(database)?host=\(folder)&port=\(port)"
        }
    }

    /// What to offer and check in the handshake; nil for no TLS. Reads the certificate files, so a
    /// missing or unreadable one is refused at start rather than at the first connection.
    private static func tlsConfiguration(
        _ tls: TLSMode, socket: Bool, root: String?, certificate: String?, key: String?
    ) throws(PostgresURLError) -> TLSConfiguration? {
        // libpq never uses TLS over a Unix-domain socket, whatever sslmode says.
        guard tls != .disable, !socket else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .disable, .prefer:
            configuration.certificateVerification = .none
        case .require:
            configuration.certificateVerification = root == nil ? .none : .noHostnameVerification
        case .verifyCA:
            configuration.certificateVerification = .noHostnameVerification
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
        }
        if let root {
            configuration.trustRoots = .certificates(try Self.certificates(root, parameter: "sslrootcert"))
        }
        if let certificate, let key {
            configuration.certificateChain = try Self.certificates(certificate, parameter: "sslcert").map { .certificate($0) }
            do {
                configuration.privateKey = .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
            } catch {
                throw PostgresURLError("has sslkey \(key), which cannot be read as a PEM private key (without a passphrase)")
            }
        }
        return configuration
    }

    private static func certificates(_ path: String, parameter: String) throws(PostgresURLError) -> [NIOSSLCertificate] {
        guard let certificates = try? NIOSSLCertificate.fromPEMFile(path), !certificates.isEmpty else {
            throw PostgresURLError("has \(parameter) \(path), which cannot be read as PEM certificates")
        }
        return certificates
    }

    var clientConfiguration: PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        switch endpoint {
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS = switch (tls, handshake) {
            case (.disable, _), (_, nil): .disable
            case (.prefer, let settings?): .prefer(settings)
            case (_, let settings?): .require(settings)
            }
            configuration = PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: tls)
        case .socket(let folder, let port):
            configuration = PostgresClient.Configuration(
                unixSocketPath: Self.socketPath(folder: folder, port: port), username: username, password: password, database: database
            )
        }
        configuration.options.connectTimeout = connectTimeout
        configuration.options.maximumConnections = poolSize
        if let applicationName { configuration.options.additionalStartupParameters = [("application_name", applicationName)] }
        return configuration
    }

    /// The same connection as the pool's, once, outside it.
    var connectionConfiguration: PostgresConnection.Configuration {
        get throws {
            var configuration: PostgresConnection.Configuration
            switch endpoint {
            case .tcp(let host, let port):
                let context = try handshake.map { try NIOSSLContext(configuration: $0) }
                let tls: PostgresConnection.Configuration.TLS = switch (tls, context) {
                case (.disable, _), (_, nil): .disable
                case (.prefer, let context?): .prefer(context)
                case (_, let context?): .require(context)
                }
                configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
            case .socket(let folder, let port):
                configuration = .init(unixSocketPath: Self.socketPath(folder: folder, port: port), username: username, password: password, database: database)
            }
            configuration.options.connectTimeout = TimeAmount(connectTimeout)
            if let applicationName { configuration.options.additionalStartupParameters = [("application_name", applicationName)] }
            return configuration
        }
    }

    static func socketPath(folder: String, port: Int) -> String {
        (folder as NSString).appendingPathComponent(".s.PGSQL.\(port)")
    }
}

/// Why a database URL was refused; the message never contains the password.
public struct PostgresURLError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
