import Foundation
import Logging
import PortvaktCore
import PortvaktModels

/// Puts emails in the outbox, for ``MailWorker`` to send. The body is sealed for the message
/// (it may hold an invitation link); subject, recipient and kind are not secret.
///
/// `mailer.enqueue(.passwordChanged, to: email, language: .nb)` commits on its own;
/// ``message(_:to:language:)`` makes the row for a store method to insert in its own
/// transaction, so the mail commits with the change it tells of.
public struct Mailer: Sendable {
    let store: any MailOutboxStore
    let cipher: FieldCipher
    /// The portal's account page, named in security notices (the server's address is known only once it listens).
    let accountURL: @Sendable () -> String
    let now: @Sendable () -> Date
    /// The brand of an organisation by id, for mail sent for it.
    let brands: @Sendable (String) async -> MailBrand?

    public init(
        store: any MailOutboxStore, cipher: FieldCipher, accountURL: @escaping @Sendable () -> String, now: @escaping @Sendable () -> Date,
        brands: @escaping @Sendable (String) async -> MailBrand? = { _ in nil }
    ) {
        self.store = store
        self.cipher = cipher
        self.accountURL = accountURL
        self.now = now
        self.brands = brands
    }

    /// The brand of the organisation a mail is sent for.
    public func brand(of organisationID: String) async -> MailBrand? { await brands(organisationID) }

    /// The outbox row for `notice` to `recipient`, its body sealed.
    /// - Throws: ``MailAddressError`` when `recipient` is not a usable address (a line break,
    ///   a space, no domain).
    public func message(_ notice: MailNotice, to recipient: String, language: Language, brand: MailBrand? = nil) throws -> MailOutboxMessage {
        let address = try MailAddress(recipient.trimmingCharacters(in: .whitespaces))
        let (subject, body) = notice.compose(language, accountURL: accountURL(), brand: brand)
        let id = UUID().uuidString.lowercased()
        let sealed = try cipher.seal(Data(body.utf8), context: MailOutboxMessage.bodyContext(messageID: id))
        return MailOutboxMessage(
            id: id, recipient: address.address, language: language.rawValue, kind: notice.kind, subject: subject, body: sealed, now: now()
        )
    }

    /// Queues `notice` for `recipient` in `language`.
    /// - Returns: the message's id.
    /// - Throws: ``MailAddressError`` for an unusable address; ``StoreError`` when the database fails.
    @discardableResult
    public func enqueue(_ notice: MailNotice, to recipient: String, language: Language, brand: MailBrand? = nil) async throws -> String {
        let message = try message(notice, to: recipient, language: language, brand: brand)
        try await store.enqueueMail([message])
        return message.id
    }
}

extension Mailer {
    /// A security notice after the change it tells of has committed: an account without an
    /// email gets none, and a failure to queue it is logged, never undoes the change.
    public func notify(_ notice: MailNotice, to recipient: String?, language: Language = .nb, brand: MailBrand? = nil, logger: Logger) async {
        guard let recipient else { return }
        do {
            try await enqueue(notice, to: recipient, language: language, brand: brand)
        } catch {
            logger.warning("A security notice could not be queued", metadata: ["kind": "\(notice.kind)", "error": "\(type(of: error))"])
        }
    }
}

/// Where emails wait for delivery.
public protocol MailOutboxStore: Sendable {
    func enqueueMail(_ messages: [MailOutboxMessage]) async throws
}
