import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import PortvaktCore
import PortvaktDomain
import PortvaktStorage
import ServiceLifecycle
import Tracing

/// Delivers the member outbox to the organisations' member systems, until shutdown.
///
/// Every half second the worker claims the messages that are due (``PortvaktStore/claimDueOutboxMessages(claimID:lease:limit:now:)``:
/// only a member's first undelivered message is due, so each member's updates arrive in order)
/// and sends each in its own task, at most `capacity` at once: a slow member system holds up
/// only its own messages. A claim lasts longer than a send may take, so no other worker on any
/// instance sends the same message meanwhile, and an outcome is recorded only under the claim
/// it was sent under.
///
/// It starts once the database is migrated, and on shutdown finishes the sends in flight.
///
/// A message is posted as JSON with `Idempotency-Key` (the message id) and a signature over a
/// timestamp, that key and the body (``MemberUpdateSignature``). A 2xx delivers it. Anything else is retried
/// after 2 s, 4 s, 8 s … (at most 10 minutes), each wait shortened by up to half at random so that
/// retries after an outage do not arrive together; after `maxAttempts` the message is `dead`,
/// which administrators see. Messages live in the database, so a restart loses none, and the
/// receiver applies a message delivered twice (its answer lost) once.
struct OutboxWorker: Service {
    /// How long a member system may take to answer.
    static let sendTimeout: TimeInterval = 10

    let store: PortvaktStore
    let cipher: FieldCipher
    let memberSystems: MemberSystemDirectory
    let http: any OutboundHTTP
    let readiness: Readiness
    let maxAttempts: Int
    let logger: Logger
    let now: @Sendable () -> Date
    var interval: Duration = .milliseconds(500)
    /// Messages in flight at once.
    var capacity = 20
    /// How long a claim keeps other workers away: the send's timeout and time to record the outcome.
    var lease: TimeInterval = sendTimeout + 20

    private enum Event { case tick, sent }

    func run() async throws {
        guard await readiness.waitUntilMigrated() else { return }
        await withTaskGroup(of: Event.self) { group in
            var inFlight = 0
            group.addTask { await tick() }
            while let event = await group.next() {
                if event == .sent { inFlight -= 1 }
                // Shutting down: take nothing new, let the deliveries in flight finish.
                if Task.isShuttingDownGracefully || Task.isCancelled {
                    if inFlight == 0 { break } else { continue }
                }
                if event == .tick { group.addTask { await tick() } }
                // After a tick, or when a send ends while more may be waiting.
                guard event == .tick || inFlight == capacity - 1 else { continue }
                for message in await claimDue(limit: capacity - inFlight) {
                    inFlight += 1
                    group.addTask {
                        await deliver(message)
                        return .sent
                    }
                }
            }
            group.cancelAll()
        }
    }

    private func tick() async -> Event {
        await pauseUnlessShuttingDown(for: interval)
        return .tick
    }

    private func claimDue(limit: Int) async -> [OutboxMessage] {
        guard limit > 0 else { return [] }
        do {
            return try await store.claimDueOutboxMessages(claimID: UUID().uuidString, lease: lease, limit: limit, now: now())
        } catch {
            logger.warning("The member outbox could not be read", metadata: ["error": "\(error)"])
            return []
        }
    }

    private func deliver(_ message: OutboxMessage) async {
        await withSpan("member update delivery", ofKind: .client) { span in
            span.attributes["portvakt.attempt"] = message.attempts + 1
            await attemptDelivery(message)
        }
    }

    private func attemptDelivery(_ message: OutboxMessage) async {
        guard let claim = message.claimId else { return }
        let problem: String?
        do {
            problem = try await send(message)
        } catch {
            problem = "could not reach the member system"
        }
        do {
            let now = self.now()
            guard let problem else {
                let recorded = try await store.markOutboxDelivered(id: message.id, claimID: claim, now: now)
                if recorded { PortvaktMetrics.outboxDelivered(after: now.timeIntervalSince(Date(millisecondsSince1970: message.createdAt))) }
                logger.info(recorded ? "Member update delivered" : "Member update delivered after its claim ended", metadata: [
                    "message": "\(message.id)", "attempts": "\(message.attempts + 1)",
                ])
                return
            }
            let attempts = message.attempts + 1
            let next = attempts >= maxAttempts ? nil : now.addingTimeInterval(Self.backoff(afterAttempt: attempts))
            guard try await store.markOutboxFailed(id: message.id, claimID: claim, error: problem, nextAttempt: next, now: now) else { return }
            logger.notice(next == nil ? "Member update is dead after its last attempt" : "Member update failed; retrying", metadata: [
                "message": "\(message.id)", "attempts": "\(attempts)", "problem": "\(problem)",
            ])
        } catch {
            // The claim runs out and the message is sent again; the receiver applies it once.
            logger.warning("The outcome of a member update could not be recorded", metadata: ["message": "\(message.id)", "error": "\(error)"])
        }
    }

    /// The failure, or nil when the member system took the message.
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
