import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// `GET /sandbox/mailbox`: in development without `PORTVAKT_SMTP_URL`, the emails Portvakt
/// "sent", newest first (recipient, subject, time, text), so a newcomer can follow an invitation
/// link. Mounted only when the sandbox is on; everyone who reaches the development server sees it.
/// What the mailbox reads: the newest emails of the outbox.
protocol SentMailStore: Sendable {
    func recentMail(limit: Int) async throws -> [MailOutboxMessage]
}

struct SandboxMailboxPage {
    let store: any SentMailStore
    let cipher: FieldCipher

    func register(on routes: DeclaredRoutes) {
        routes.get("/sandbox/mailbox", .sandbox, surface: .page) { request, _ in
            try await page(language: PortalLanguage.of(request))
        }
    }

    private func page(language: Language) async throws -> Response {
        let messages = try await store.recentMail(limit: 50)
        let rows = messages.map { message in
            let body = message.body
                .flatMap { try? cipher.open($0, context: MailOutboxMessage.bodyContext(messageID: message.id)) }
                .map { String(decoding: $0, as: UTF8.self) }
            let paragraphs = (body ?? MailboxText.purged.text(language)).components(separatedBy: "\n\n").map { text in
                // Only a paragraph that is one http(s) address becomes a link.
                MailboxView.Paragraph(text: text, isLink: (text.hasPrefix("https://") || text.hasPrefix("http://")) && !text.contains(where: \.isWhitespace))
            }
            return MailboxView.Message(
                subject: message.subject, recipient: message.recipient, paragraphs: paragraphs,
                when: LocalTime.text(Date(millisecondsSince1970: message.createdAt), language),
                status: MailboxText.forStatus(message.status).text(language)
            )
        }
        // The portal's layout, its navigation without a sign-in, and a language switch that stays on the mailbox.
        var frame = PortalPage.Frame(language: language, path: "/sandbox/mailbox", csrf: nil)
        frame.switchLanguage = { "/sandbox/mailbox?ui_locales=\($0.rawValue)" }
        return PortalPage.shared.response("sandbox_mailbox", frame: frame, values: MailboxView(messages: rows, hasMessages: !rows.isEmpty))
    }
}

/// What `sandbox_mailbox` reads.
struct MailboxView: PageValues {
    let messages: [Message]
    let hasMessages: Bool

    /// One email "sent"; `status` is the outbox's, in words.
    struct Message: PageValues {
        let subject: String
        let recipient: String
        let paragraphs: [Paragraph]
        let when: String
        let status: String
    }

    /// A paragraph of the text; one that is only an http(s) address is a link.
    struct Paragraph: PageValues {
        let text: String
        let isLink: Bool
    }
}

/// The mailbox page's texts: keys of the server catalog (`mailbox.<id>`).
enum MailboxText: String, PageTexts {
    case title = "mailbox_title"
    case intro = "mailbox_intro"
    case to = "mailbox_to"
    case when = "mailbox_when"
    case status = "mailbox_status"
    case empty = "mailbox_empty"
    case purged = "mailbox_purged"
    case pending = "mailbox_pending"
    case sending = "mailbox_sending"
    case sent = "mailbox_sent"
    case dead = "mailbox_dead"

    static func forStatus(_ status: MailStatus) -> MailboxText {
        switch status {
        case .pending: .pending
        case .sending: .sending
        case .dead: .dead
        case .sent: .sent
        }
    }

    static var catalog: TextCatalog { ServerCatalog.texts }
    static let namespace = "mailbox"
}
