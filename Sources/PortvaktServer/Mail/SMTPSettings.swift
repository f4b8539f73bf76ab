import Foundation
import PortvaktCore
import PortvaktDomain

/// Where mail goes: `PORTVAKT_SMTP_URL` (`smtp://[user:password@]host:port`, or `smtps://` for
/// TLS from the first byte, RFC 8314) and the sender, `PORTVAKT_MAIL_FROM`
/// (`Portvakt <noreply@example.org>`).
///
/// `smtp://` to any host but this machine must upgrade with STARTTLS (RFC 3207) or nothing is
/// sent: the messages hold invitation links. To a loopback address (a local relay) it speaks
/// plain SMTP. Whether the host is this machine is decided by parsing it (``LoopbackHost``).
struct SMTPSettings: Sendable {
    enum Transport: Sendable, Equatable {
        /// Plain SMTP; only to a loopback address.
        case plain
        /// Plain SMTP upgraded with STARTTLS before anything else is said; refused without it.
        case startTLS
        /// TLS from the start (`smtps://`).
        case implicitTLS
    }

    struct Credentials: Sendable, CustomStringConvertible {
        let username: String
        let password: String

        var description: String { "\(username):…" }
    }

    static let urlSetting = "PORTVAKT_SMTP_URL"
    static let fromSetting = "PORTVAKT_MAIL_FROM"
    static let names = [urlSetting, fromSetting]

    var host: String
    var port: Int
    var transport: Transport
    var credentials: Credentials?
    var from: MailAddress
    /// PEM files of certificates trusted besides the system's (a test's own server).
    var additionalTrustRoots: [String] = []
    /// How long one message's whole conversation may take, from connecting to QUIT.
    var timeout: Duration = .seconds(30)

    var isLoopback: Bool { LoopbackHost.isLoopback(host) }

    /// The name TLS checks the certificate against and sends as SNI; nil for an IP address,
    /// which is checked against the certificate's IP addresses instead.
    var serverName: String? { IPAddress(host) == nil ? host : nil }

    /// Reads both settings; nil when neither is set (the development sandbox's mailbox, or no mail).
    /// - Throws: ``ConfigurationError`` naming the setting, never a password.
    static func load(from settings: SettingsSource) throws(ConfigurationError) -> SMTPSettings? {
        switch (settings[urlSetting], settings[fromSetting]) {
        case (nil, nil):
            return nil
        case (.some, nil):
            throw ConfigurationError("\(fromSetting) must be set when \(urlSetting) is: the sender, like Portvakt <noreply@example.org>")
        case (nil, .some):
            throw ConfigurationError("\(urlSetting) must be set when \(fromSetting) is: the SMTP server, like smtp://user:password@smtp.example.org:587")
        case (.some(let url), .some(let from)):
            return try SMTPSettings(url: url, from: from)
        }
    }

    init(url text: String, from: String) throws(ConfigurationError) {
        let expected = "\(Self.urlSetting) must be smtp://[user:password@]host:port (STARTTLS) or smtps://[user:password@]host:port (TLS), with the user and password percent-encoded"
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), ["smtp", "smtps"].contains(scheme),
              var host = url.host, !host.isEmpty, url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil
        else { throw ConfigurationError(expected) }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.hasPrefix("/"), host.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value != 127 }) else {
            throw ConfigurationError(expected)
        }
        let port = url.port ?? (scheme == "smtps" ? 465 : 587)
        guard (1...65535).contains(port) else { throw ConfigurationError("\(Self.urlSetting) must have a port from 1 to 65535") }
        switch (url.user, url.password) {
        case (nil, nil):
            credentials = nil
        case (.some(let user), .some(let password)) where !user.isEmpty && !password.isEmpty:
            // AUTH PLAIN separates the parts with NUL; CR and LF would end the command.
            guard !(user + password).contains(where: { $0 == "\0" || $0 == "\r" || $0 == "\n" }) else {
                throw ConfigurationError("\(Self.urlSetting): the user and password may not hold NUL, CR or LF")
            }
            credentials = Credentials(username: user, password: password)
        default:
            throw ConfigurationError("\(Self.urlSetting) must give both a user and a password, or neither")
        }
        do {
            self.from = try MailAddress(parsing: from)
        } catch {
            throw ConfigurationError("\(Self.fromSetting): \(error.description) (write it like Portvakt <noreply@example.org>)")
        }
        self.host = host
        self.port = port
        transport = scheme == "smtps" ? .implicitTLS : (LoopbackHost.isLoopback(host) ? .plain : .startTLS)
    }
}
