import Foundation
import Logging
import ServiceLifecycle
import Tracing

/// Works an outbox until shutdown: claims the messages that are due, delivers each in its own
/// task with at most `capacity` in flight, records each outcome under its claim, and retries a
/// failure by `policy` until the message gives up.
///
/// Every `interval` it claims what is due, and again as soon as a delivery ends while all
/// `capacity` were busy: a slow receiver holds up only its own messages. A claim lasts `lease`
/// seconds, longer than a delivery may take, so no other worker on any instance delivers the
/// same message meanwhile. At graceful shutdown it claims nothing more and returns once the
/// deliveries in flight are recorded.
struct OutboxRunner<Queue: OutboxQueue>: Sendable {
    let queue: Queue
    let policy: RetryPolicy
    let telemetry: OutboxTelemetry
    let logger: Logger
    let now: @Sendable () -> Date
    let interval: Duration
    /// Messages in flight at once.
    let capacity: Int
    /// How long a claim keeps other workers away: a delivery's timeout and time to record the outcome.
    let lease: TimeInterval

    private enum Event: Sendable { case tick, sent }

    func run() async {
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
                // After a tick, or when a delivery ends while more may be waiting.
                guard event == .tick || inFlight == capacity - 1 else { continue }
                let claimID = UUID().uuidString
                for message in await claimDue(claimID: claimID, limit: capacity - inFlight) {
                    inFlight += 1
                    group.addTask {
                        await deliver(message, claimID: claimID)
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

    private func claimDue(claimID: String, limit: Int) async -> [Queue.Message] {
        guard limit > 0 else { return [] }
        do {
            return try await queue.claimDue(claimID: claimID, lease: lease, limit: limit, now: now())
        } catch {
            logger.warning(telemetry.unreadable, metadata: ["error": "\(error)"])
            return []
        }
    }

    private func deliver(_ message: Queue.Message, claimID: String) async {
        await withSpan(telemetry.span, ofKind: .client) { span in
            span.updateAttributes { attributes in
                for (key, value) in message.spanAttributes { attributes[key] = value }
                attributes["portvakt.attempt"] = message.attempts + 1
            }
            await record(await queue.deliver(message), of: message, claimID: claimID)
        }
    }

    private func record(_ outcome: DeliveryOutcome, of message: Queue.Message, claimID: String) async {
        let attempts = message.attempts + 1
        let metadata = message.logMetadata.merging(["attempts": "\(attempts)"]) { $1 }
        do {
            let now = self.now()
            switch outcome {
            case .delivered:
                let recorded = try await queue.markDelivered(message, claimID: claimID, now: now)
                if recorded { telemetry.deliveryLatency(now.timeIntervalSince(message.queuedAt)) }
                logger.info(recorded ? telemetry.delivered : telemetry.deliveredAfterClaimEnded, metadata: metadata)
            case .failed(let problem, let logged, let permanent):
                let next = policy.nextAttempt(afterAttempt: attempts, permanent: permanent, now: now)
                guard try await queue.markFailed(message, claimID: claimID, error: problem, nextAttempt: next, now: now) else { return }
                logger.notice(next == nil ? telemetry.dead : telemetry.retrying, metadata: metadata.merging(logged) { $1 })
            }
        } catch {
            // The claim runs out and the message is delivered again.
            logger.warning(telemetry.unrecorded, metadata: metadata.merging(["error": "\(error)"]) { $1 })
        }
    }
}
