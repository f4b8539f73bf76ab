import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// The member outbox: the store's `member_outbox`, and a signed POST to the organisation's
/// member system.
extension OutboxWorker: OutboxQueue {
    func claimDue(claimID: String, lease: TimeInterval, limit: Int, now: Date) async throws -> [OutboxMessage] {
        try await store.claimDueOutboxMessages(claimID: claimID, lease: lease, limit: limit, now: now)
    }

    func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
        do {
            guard let problem = try await send(message) else { return .delivered }
            return .failed(problem: problem, logged: ["problem": "\(problem)"])
        } catch {
            return .failed(problem: "could not reach the member system", logged: ["problem": "could not reach the member system"])
        }
    }

    func markDelivered(_ message: OutboxMessage, claimID: String, now: Date) async throws -> Bool {
        try await store.markOutboxDelivered(id: message.id, claimID: claimID, now: now)
    }

    func markFailed(_ message: OutboxMessage, claimID: String, error: String, nextAttempt: Date?, now: Date) async throws -> Bool {
        try await store.markOutboxFailed(id: message.id, claimID: claimID, error: error, nextAttempt: nextAttempt, now: now)
    }

    /// The failure (words of Portvakt's, safe to log), or nil when the member system took the message.
    private func send(_ message: OutboxMessage) async throws -> String? {
        guard let organisation = try await store.organisation(id: message.organisationId),
              let system = await memberSystems.system(for: organisation.slug)
        else { return "no member system is configured for the organisation" }
        let body = try cipher.open(message.payload, context: OutboxMessage.payloadContext(messageID: message.id))
        // The server's clock (the wall clock in production): the receiver compares it with its own.
        let timestamp = Int(now().timeIntervalSince1970)
        var request = HTTPClientRequest(url: system.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: MemberUpdateSignature.idempotencyKeyHeader, value: message.id)
        request.headers.add(name: MemberUpdateSignature.timestampHeader, value: String(timestamp))
        request.headers.add(name: MemberUpdateSignature.signatureHeader, value: MemberUpdateSignature.sign(
            body: body, timestamp: timestamp, idempotencyKey: message.id, secret: system.secret
        ))
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await http.execute(request, timeout: .seconds(Int64(Self.sendTimeout)))
        _ = try? await response.body.collect(upTo: 64 * 1024)
        return (200..<300).contains(response.status.code) ? nil : "the member system answered \(response.status.code)"
    }
}

extension OutboxMessage: OutboxItem {
    var queuedAt: Date { Date(millisecondsSince1970: createdAt) }
    var logMetadata: Logger.Metadata { ["message": "\(id)"] }
    var spanAttributes: [String: String] { [:] }
}
