import Crypto
import CryptoExtras
import Foundation
import NIOSSL
import PortvaktCore

/// How the broker reaches a BankID order API: its base URL and how the relying party proves who
/// it is there. BankID's relying-party API takes a client certificate in the TLS handshake
/// (mutual TLS) and trusts none other; HTTP Basic with a client id and secret is the sandbox's.
public struct BankIDOrderSettings: Sendable {
    public enum Authentication: Sendable {
        /// The relying party's certificate and key, presented in the TLS handshake.
        case clientCertificate
        /// HTTP Basic: the sandbox's order API.
        case basic(clientID: String, secret: String)
    }

    /// Up to and including the version, e.g. `https://…/rp/v6.0`; no trailing slash.
    public var baseURL: String
    public var authentication: Authentication
    /// The order API's own TLS: the client certificate and key, and the CA its server certificate
    /// is checked against (BankID's, not the system's). Nil: the outbound client's defaults.
    public var transportSecurity: TLSConfiguration?
    /// An order start that takes longer is answered with a timeout error, so the app can offer
    /// Vipps within the seed's two seconds.
    public var startTimeout: Duration
    /// When the relying party's client certificate stops being valid; nil with HTTP Basic.
    public var certificateExpiry: Date?

    public init(baseURL: String, authentication: Authentication, transportSecurity: TLSConfiguration? = nil, startTimeout: Duration) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.authentication = authentication
        self.transportSecurity = transportSecurity
        self.startTimeout = startTimeout
    }

    /// Whether the order API's certificate is checked against PORTVAKT_BANKID_ORDER_CA_FILE
    /// rather than the system's trusted certificates.
    var trustsOwnAuthority: Bool {
        guard case .certificates = transportSecurity?.trustRoots else { return false }
        return true
    }

    static let certificateName = "PORTVAKT_BANKID_ORDER_CLIENT_CERTIFICATE_FILE"
    static let keyName = "PORTVAKT_BANKID_ORDER_CLIENT_KEY"
    static let authorityName = "PORTVAKT_BANKID_ORDER_CA_FILE"
    static let names = [
        "PORTVAKT_BANKID_ORDER_API_URL", certificateName, keyName, authorityName,
        "PORTVAKT_BANKID_ORDER_CLIENT_ID", "PORTVAKT_BANKID_ORDER_CLIENT_SECRET",
    ]

    /// The order API from PORTVAKT_BANKID_ORDER_*, nil when none of them is set. The certificate
    /// files are read here, once: a wrong file stops the start, not a member's login.
    static func load(
        from settings: SettingsSource, environment: ServerConfiguration.Environment, startTimeout: Duration
    ) throws(ConfigurationError) -> BankIDOrderSettings? {
        guard names.contains(where: { settings[$0] != nil }) else { return nil }
        guard let base = settings["PORTVAKT_BANKID_ORDER_API_URL"], let url = URL(string: base), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ConfigurationError("PORTVAKT_BANKID_ORDER_API_URL must be the order API's https URL, e.g. https://…/rp/v6.0")
        }
        let clientID = settings["PORTVAKT_BANKID_ORDER_CLIENT_ID"], secret = settings["PORTVAKT_BANKID_ORDER_CLIENT_SECRET"]
        let certificatePath = settings[certificateName], keyText = settings[keyName]
        let authentication: Authentication
        var tls: TLSConfiguration?
        var expiry: Date?
        if certificatePath != nil || keyText != nil {
            guard clientID == nil, secret == nil else {
                throw ConfigurationError("the BankID order API takes a client certificate (\(certificateName), \(keyName)) or, the sandbox's, a client id and secret, not both")
            }
            guard let certificatePath, let keyText else {
                throw ConfigurationError("\(certificateName) and \(keyName) (the relying party's certificate and its key, PEM) are given together")
            }
            guard url.scheme == "https" else {
                throw ConfigurationError("PORTVAKT_BANKID_ORDER_API_URL must be https: a client certificate is presented in the TLS handshake")
            }
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.minimumTLSVersion = .tlsv12
            let chain = try clientCertificate(at: certificatePath)
            configuration.certificateChain = chain.map { .certificate($0) }
            configuration.privateKey = .privateKey(try privateKey(keyText, of: chain[0]))
            tls = configuration
            expiry = Date(timeIntervalSince1970: TimeInterval(chain[0].notValidAfter))
            authentication = .clientCertificate
        } else {
            guard let clientID, let secret else {
                throw ConfigurationError("PORTVAKT_BANKID_ORDER_API_URL needs the relying party's client certificate (\(certificateName), \(keyName)), or for the sandbox PORTVAKT_BANKID_ORDER_CLIENT_ID and PORTVAKT_BANKID_ORDER_CLIENT_SECRET")
            }
            // Plain http elsewhere is refused in production by the https rule, in its own words.
            guard environment == .development || url.hasLoopbackHost || url.scheme == "http" else {
                throw ConfigurationError("PORTVAKT_BANKID_ORDER_CLIENT_ID and _SECRET (HTTP Basic) are the sandbox's, on a loopback address: BankID's order API authenticates the relying party by its client certificate, so set \(certificateName) and \(keyName)")
            }
            authentication = .basic(clientID: clientID, secret: secret)
        }
        if let authorityPath = settings[authorityName] {
            guard let authorities = try? NIOSSLCertificate.fromPEMFile(authorityPath), !authorities.isEmpty else {
                throw ConfigurationError("\(authorityName): cannot read \(authorityPath) as PEM certificates (the CA that signed the order API's certificate)")
            }
            var configuration = tls ?? TLSConfiguration.makeClientConfiguration()
            configuration.minimumTLSVersion = .tlsv12
            configuration.trustRoots = .certificates(authorities)
            tls = configuration
        }
        var orders = BankIDOrderSettings(baseURL: base, authentication: authentication, transportSecurity: tls, startTimeout: startTimeout)
        orders.certificateExpiry = expiry
        return orders
    }

    /// The certificate chain in the PEM file, the relying party's own first. An expired one is
    /// not refused here: the server starts without the order API (``ServerConfiguration``
    /// says so), so that passwords, Vipps and BankID's OIDC login keep working.
    private static func clientCertificate(at path: String) throws(ConfigurationError) -> [NIOSSLCertificate] {
        guard let chain = try? NIOSSLCertificate.fromPEMFile(path), !chain.isEmpty else {
            throw ConfigurationError("\(certificateName): cannot read \(path) as PEM certificates (from BankID's .p12: openssl pkcs12 -in rp.p12 -clcerts -nokeys -out rp.pem)")
        }
        return chain
    }

    /// What to say of the certificate at start: expired (the order API is left out), or
    /// expiring within 30 days.
    func certificateWarning(now: Date) -> String? {
        guard let certificateExpiry else { return nil }
        let date = certificateExpiry.formatted(.iso8601)
        if certificateExpiry <= now {
            return "\(Self.certificateName): the client certificate expired on \(date); the BankID order API (BankID on another device, the app's BankID app or QR code) is not offered until it is renewed with BankID"
        }
        if certificateExpiry.timeIntervalSince(now) < 30 * 86_400 {
            return "\(Self.certificateName): the client certificate expires on \(date): renew it with BankID before then"
        }
        return nil
    }

    /// The PEM private key, refused unless it is the key of `certificate` (a renewed certificate
    /// beside the old key would otherwise fail every handshake).
    private static func privateKey(_ file: String, of certificate: NIOSSLCertificate) throws(ConfigurationError) -> NIOSSLPrivateKey {
        // openssl pkcs12 writes "Bag Attributes" lines before the block, which swift-crypto refuses.
        let text = file.firstMatch(of: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/).map { String($0.output) } ?? file
        guard let key = try? NIOSSLPrivateKey(bytes: Array(text.utf8), format: .pem) else {
            throw ConfigurationError("\(keyName) is not an unencrypted PEM private key (from BankID's .p12: openssl pkcs12 -in rp.p12 -nocerts -nodes -out rp.key)")
        }
        let publicKey = (try? certificate.extractPublicKey().toSPKIBytes()).map { Data($0) }
        let derived: Data? = (try? P256.Signing.PrivateKey(pemRepresentation: text))?.publicKey.derRepresentation
            ?? (try? P384.Signing.PrivateKey(pemRepresentation: text))?.publicKey.derRepresentation
            ?? (try? P521.Signing.PrivateKey(pemRepresentation: text))?.publicKey.derRepresentation
            ?? (try? _RSA.Signing.PrivateKey(unsafePEMRepresentation: text))?.publicKey.derRepresentation
        guard let derived else {
            throw ConfigurationError("\(keyName) is neither an RSA key nor an EC key on P-256, P-384 or P-521")
        }
        guard let publicKey, derived == publicKey else {
            throw ConfigurationError("\(keyName) is not the key of the certificate in \(certificateName)")
        }
        return key
    }
}
