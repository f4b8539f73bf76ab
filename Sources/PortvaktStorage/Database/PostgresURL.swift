import Foundation
import NIOSSL
import PostgresNIO

/// A `postgres://user:password@host:port/database?sslmode=…` URL, checked before any connection.
public struct PostgresURL: Sendable, CustomStringConvertible {
    public enum TLSMode: String, Sendable {
        case disable, prefer, require
    }

    public let host: String
    public let port: Int
    public let username: String
    let password: String?
    public let database: String
    public let tls: TLSMode

    /// - Throws: ``ConfigurationError``-style text naming what is wrong, never the password.
    public init(_ text: String) throws(PostgresURLError) {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme)
        else { throw PostgresURLError("must start with postgres:// or postgresql://") }
        guard let host = components.host, !host.isEmpty else { throw PostgresURLError("has no host") }
        guard let username = components.user, !username.isEmpty else { throw PostgresURLError("has no user name") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else { throw PostgresURLError("has no database name after the host") }
        let sslmode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer"
        switch sslmode {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer
        case "require", "verify-ca", "verify-full": tls = .require
        default: throw PostgresURLError("has an unknown sslmode (use disable, prefer or require)")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = username.removingPercentEncoding ?? username
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database
    }

    /// Host, port and database, without the credentials: safe to log.
    public var description: String { "postgres://\(host):\(port)/\(database)" }

    var clientConfiguration: PostgresClient.Configuration {
        let tlsConfiguration: PostgresClient.Configuration.TLS = switch tls {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tlsConfiguration
        )
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}

/// Why a database URL was refused; the message never contains the password.
public struct PostgresURLError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
