import Foundation
import JWTKit
import Logging
import PortvaktCore
import PortvaktDomain
import PortvaktModels

/// What an operator needs while registering Portvakt with BankID and setting up mail
/// (docs/operations.md, "First start").
extension PortvaktApplication {
    /// The public half of BankID's `private_key_jwt` key (`PORTVAKT_BANKID_PRIVATE_KEY`) as a
    /// JWK Set, to hand to BankID; the `kid` is the one Portvakt's client assertions carry.
    /// - Throws: ``ConfigurationError`` (78) when BankID is configured with a client secret, or not at all.
    public static func bankIDPublicKeys(configuration: ServerConfiguration) throws -> String {
        guard let bankid = configuration.upstreams[.bankid] else {
            throw ConfigurationError("BankID is not configured (PORTVAKT_BANKID_DISCOVERY_URL, PORTVAKT_BANKID_CLIENT_ID, PORTVAKT_BANKID_PRIVATE_KEY)")
        }
        guard case .privateKey(let key) = bankid.authentication else {
            throw ConfigurationError("BankID is configured with a client secret, not a key (PORTVAKT_BANKID_PRIVATE_KEY): there is no public key to hand over")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(JWKS(keys: [key.publicJWK])), as: UTF8.self)
    }

    /// Sends one mail now through `PORTVAKT_SMTP_URL` (not through the outbox), to see that the
    /// server takes it.
    /// - Throws: ``OperatorError`` (64 for the address, 69 with the SMTP server's refusal);
    ///   ``ConfigurationError`` (78) without SMTP settings.
    public static func sendTestMail(configuration: ServerConfiguration, to recipient: String) async throws {
        guard let smtp = configuration.smtp else {
            throw ConfigurationError("no PORTVAKT_SMTP_URL: mail is not delivered (docs/configuration.md)")
        }
        let address: MailAddress
        do {
            address = try MailAddress(recipient)
        } catch {
            throw OperatorError.usage("--to \(error.description)")
        }
        let message = MailMessage(
            from: smtp.from, to: address, subject: "Portvakt: test mail",
            body: "This mail was sent by `portvakt-server mail test` to check the mail settings. Nothing needs doing.\n",
            id: UUID().uuidString.lowercased(), date: Date()
        )
        do {
            try await SMTPClient(settings: smtp).send(message)
        } catch let error as SMTPError {
            throw OperatorError.unavailable("the mail server at \(smtp.host):\(smtp.port) did not take the mail: \(error.description)")
        }
    }
}
