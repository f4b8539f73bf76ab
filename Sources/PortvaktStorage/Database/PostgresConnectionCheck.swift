import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Why the database cannot be reached, in one line an operator can act on, and whether waiting
/// can help: a refused certificate or password stays refused, a server still starting does not.
public struct PostgresConnectionProblem: Error, Sendable, CustomStringConvertible {
    public let description: String
    /// Nothing but a change of settings (or of the server's) mends it.
    public let isLasting: Bool
}

extension PostgresURL {
    /// Opens one connection as the pool would, and closes it: nil when it works. The pool itself
    /// only says that no connection came within its deadline.
    public func connectionProblem(logger: Logger) async -> PostgresConnectionProblem? {
        do {
            let connection = try await PostgresConnection.connect(configuration: try connectionConfiguration, id: 0, logger: logger)
            try? await connection.close()
            return nil
        } catch {
            return explain(error)
        }
    }

    /// `error` from a connection attempt said for this URL; never the password.
    func explain(_ error: any Error) -> PostgresConnectionProblem {
        let lasting = { (text: String) in PostgresConnectionProblem(description: text, isLasting: true) }
        let passing = { (text: String) in PostgresConnectionProblem(description: text, isLasting: false) }
        let place = "\(self)"
        guard let error = error as? PSQLError else {
            if let error = error as? PostgresURLError { return lasting("DATABASE_URL \(error.description)") }
            return passing("cannot connect to \(place) (\(type(of: error)))")
        }
        switch error.code {
        case .sslUnsupported:
            return lasting("the database at \(place) does not offer TLS, and sslmode=\(tls.rawValue) needs it (turn ssl on in postgresql.conf, or say sslmode=prefer)")
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            let said = error.serverInfo?[.message] ?? "no reason given"
            switch state {
            case "28P01": return lasting("the database at \(place) refused the password for user \(username)")
            case "28000": return lasting("the database at \(place) refused user \(username): \(said) (pg_hba.conf)")
            case "3D000": return lasting("the database \(database) does not exist at \(place)")
            case "57P03": return passing("the database at \(place) is starting up")
            case "53300": return passing("the database at \(place) has no free connection: \(said)")
            // Another refusal (an administrator's shutdown, say) may pass: waited out.
            default: return passing("the database at \(place) refused the connection: \(said) (SQLSTATE \(state))")
            }
        case .authMechanismRequiresPassword:
            return lasting("the database at \(place) asks user \(username) for a password, and DATABASE_URL gives none")
        case .unsupportedAuthMechanism:
            return lasting("the database at \(place) asks for a way of signing in that Portvakt does not speak (use scram-sha-256, md5 or a client certificate)")
        case .connectionError:
            return explainConnection(error.underlying, place: place)
        default:
            return passing("cannot connect to \(place): \(error.code)")
        }
    }

    private func explainConnection(_ underlying: (any Error)?, place: String) -> PostgresConnectionProblem {
        let lasting = { (text: String) in PostgresConnectionProblem(description: text, isLasting: true) }
        let passing = { (text: String) in PostgresConnectionProblem(description: text, isLasting: false) }
        let roots = rootCertificateFile.map { "the CA in sslrootcert \($0)" } ?? "a CA this system trusts (give its CA as sslrootcert)"
        switch underlying {
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return lasting("the TLS handshake with \(place) failed: the database's certificate does not name \(host) (sslmode=verify-full checks the name)")
        case let error as NIOSSLError:
            let text = String(describing: error)
            if text.contains("CERTIFICATE_VERIFY_FAILED") {
                return lasting("the TLS handshake with \(place) failed: the database's certificate is not signed by \(roots) (sslmode=\(tls.rawValue))")
            }
            if text.contains("CERTIFICATE_REQUIRED") || text.contains("BAD_CERTIFICATE") || text.contains("UNKNOWN_CA") {
                return lasting("the TLS handshake with \(place) failed: the database refused the client certificate (sslcert)")
            }
            // A handshake cut short by a restarting server may work on the next try.
            return passing("the TLS handshake with \(place) failed (\(Self.shortReason(text)))")
        case let error as ChannelError:
            if case .connectTimeout = error { return passing("no answer from \(place) within \(connectTimeout) (connect_timeout)") }
            return passing("cannot connect to \(place): \(error)")
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return lasting("cannot find the host \(host) of DATABASE_URL (DNS)")
            }
            return passing("nothing answers at \(place) (connection refused)")
        case let error as IOError:
            return passing(isSocket
                ? "nothing answers at the socket \(Self.socketPath(folder: host, port: port)) (\(error.errnoCode == 2 ? "no such file" : "\(error)"))"
                : "nothing answers at \(place) (\(error))")
        default:
            return passing("cannot connect to \(place) (\(underlying.map { String(describing: type(of: $0)) } ?? "closed"))")
        }
    }

    /// BoringSSL's reason (`…:OPENSSL_internal:WRONG_VERSION_NUMBER`) without the stack around it.
    static func shortReason(_ text: String) -> String {
        guard let range = text.range(of: "OPENSSL_internal:") else { return "no reason given" }
        return String(text[range.upperBound...].prefix { $0.isLetter || $0 == "_" || $0.isNumber })
    }
}
