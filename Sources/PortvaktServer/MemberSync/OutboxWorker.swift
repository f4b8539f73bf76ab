import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import PortvaktCore
import PortvaktStorage
import ServiceLifecycle

/// Delivers the member outbox to the organisations' member systems, until shutdown.
///
/// Each due message is claimed for a minute (so two instances do not send it at once), opened,
/// and posted as JSON with `Idempotency-Key` (the message id) and a signature over a timestamp
/// and the body (``MemberUpdateSignature``). A 2xx delivers it. Anything else is retried after
/// 2 s, 4 s, 8 s … (at most 10 minutes), each wait shortened by up to half at random so that
/// retries after an outage do not arrive together; after `maxAttempts` the message is `dead`,
/// which administrators see. Messages live in the database, so a restart loses none, and the
/// receiver applies a message delivered twice (its answer lost) once.
struct OutboxWorker: Service {
    let broker: Broker
    let http: HTTPClient
    let maxAttempts: Int
    var interval: Duration = .milliseconds(500)
    var lease: TimeInterval = 60

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await deliverDue()
                try await Task.sleep(for: interval)
            }
        }
    }

    func deliverDue() async {
        do {
            for message in try await broker.store.claimDueOutboxMessages(lease: lease, now: broker.now()) {
                try await deliver(message)
            }
        } catch {
            broker.logger.warning("The member outbox could not be read", metadata: ["error": "\(error)"])
        }
    }

    private func deliver(_ message: OutboxMessage) async throws {
        let problem: String?
        do {
            problem = try await send(message)
        } catch {
            problem = "could not reach the member system"
        }
        let now = broker.now()
        guard let problem else {
            try await broker.store.markOutboxDelivered(id: message.id, now: now)
            broker.logger.info("Member update delivered", metadata: ["message": "\(message.id)", "attempts": "\(message.attempts + 1)"])
            return
        }
        let attempts = message.attempts + 1
        let next = attempts >= maxAttempts ? nil : now.addingTimeInterval(Self.backoff(afterAttempt: attempts))
        try await broker.store.markOutboxFailed(id: message.id, error: problem, nextAttempt: next, now: now)
        broker.logger.notice(next == nil ? "Member update is dead after its last attempt" : "Member update failed; retrying", metadata: [
            "message": "\(message.id)", "attempts": "\(attempts)", "problem": "\(problem)",
        ])
    }

    /// The failure, or nil when the member system took the message.
    private func send(_ message: OutboxMessage) async throws -> String? {
        guard let organisation = try await broker.store.organisation(id: message.organisationId),
              let system = await broker.memberSystems.system(for: organisation.slug)
        else { return "no member system is configured for the organisation" }
        let body = try broker.keys.cipher.open(message.payload, context: OutboxMessage.payloadContext(messageID: message.id))
        // The wall clock, not the broker's: the receiver compares it with its own clock.
        let timestamp = Int(Date().timeIntervalSince1970)
        var request = HTTPClientRequest(url: system.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Idempotency-Key", value: message.id)
        request.headers.add(name: MemberUpdateSignature.timestampHeader, value: String(timestamp))
        request.headers.add(name: MemberUpdateSignature.signatureHeader, value: MemberUpdateSignature.sign(body: body, timestamp: timestamp, secret: system.secret))
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await http.execute(request, timeout: .seconds(10))
        _ = try? await response.body.collect(upTo: 64 * 1024)
        return (200..<300).contains(response.status.code) ? nil : "the member system answered \(response.status.code)"
    }

    /// 2^attempt seconds, at most ten minutes, less up to half at random.
    static func backoff(afterAttempt attempt: Int) -> TimeInterval {
        let full = min(pow(2, Double(min(attempt, 20))), 600)
        return full * Double.random(in: 0.5...1.0)
    }
}

/// Service Lifecycle logs a service by its description: the name, never the settings it holds.
extension OutboxWorker: CustomStringConvertible {
    var description: String { "OutboxWorker" }
}
