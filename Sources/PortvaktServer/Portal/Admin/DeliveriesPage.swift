import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// `/admin/{slug}/deliveries`: the updates for the organisation's member system (waiting,
/// retrying, gave up, delivered) with attempts, next try and the last error in words, and
/// "Retry now" for one that gave up or waits.
struct DeliveriesPage {
    let admin: AdminRequest

    private var language: Language { admin.language }

    func list() async throws -> Response {
        var status: String?
        if let text = admin.query["status"], !text.isEmpty {
            guard OutboxStatus(rawValue: text) != nil else { return admin.problem(.badFilter, status: .badRequest, back: admin.base + "/deliveries") }
            status = text
        }
        let messages = try await admin.services.store.outboxMessages(organisationID: admin.organisationID, status: status)
        var names: [String: String] = [:]
        for id in Set(messages.compactMap(\.memberRecordId)) { names[id] = try await admin.services.store.memberRecord(id: id)?.fullName }
        let time = { (milliseconds: Int64) in LocalTime.text(Date(millisecondsSince1970: milliseconds), language) }
        let rows = messages.map { message in
            DeliveriesView.Message(
                id: message.id,
                created: time(message.createdAt),
                member: message.memberRecordId.flatMap { names[$0] } ?? "–",
                what: AdminWords.outboxEvent(message.event, language),
                state: AdminWords.outboxStatus(message, language),
                attempts: message.attempts,
                next: message.status == .pending ? time(message.nextAttemptAt) : "–",
                error: message.lastError.map { AdminWords.deliveryError($0, language) } ?? "–",
                retryable: message.isRetryable
            )
        }
        var page = admin
        if admin.query["done"] == "retried" { page.frame.status = AdminText.retryQueued.text(language) }
        let choices: [(String, AdminText)] = [
            (OutboxStatus.pending.rawValue, .deliveryWaiting), (OutboxStatus.dead.rawValue, .deliveryDead), (OutboxStatus.delivered.rawValue, .deliveryDelivered),
        ]
        return page.page("admin_deliveries", section: .deliveries, values: DeliveriesView(
            statuses: choices.map { AdminOption(value: $0.0, label: $0.1.text(language), selected: $0.0 == status) },
            messages: rows, hasMessages: !rows.isEmpty
        ))
    }

    func retry(_ id: String) async throws -> Response {
        let back = admin.base + "/deliveries"
        guard let actor = try await admin.actor() else { return admin.problem(.deliveryNotFound, heading: .notFoundTitle, status: .notFound, back: back) }
        do {
            _ = try await admin.administration.retryDelivery(id, in: admin.organisation, by: actor, source: "portal")
        } catch let refusal as DomainError where refusal.kind == .notFound {
            return admin.problem(.deliveryNotFound, heading: .notFoundTitle, status: .notFound, back: back)
        } catch let refusal as DomainError {
            return admin.problem(refusal, back: back)
        }
        return admin.redirect(back + "?done=retried")
    }
}

/// What `admin_deliveries` reads.
struct DeliveriesView: PageValues {
    let statuses: [AdminOption]
    let messages: [Message]
    let hasMessages: Bool

    /// One update for the member system; "–" where it has no value.
    struct Message: PageValues {
        let id: String
        let created: String
        let member: String
        let what: String
        let state: String
        let attempts: Int
        let next: String
        let error: String
        let retryable: Bool
    }
}
