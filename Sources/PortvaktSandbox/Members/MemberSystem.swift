import Foundation

/// Simulated member systems of the organisations (NHF, Blindeforbundet, HLF): each receives
/// Portvakt's signed updates, applies each idempotency key once, and records what arrived so
/// that tests can see it. A fault makes one unavailable, or makes it apply an update and then
/// lose the answer (so the sender retries a delivered update).
public actor MemberSystem {
    public enum Fault: String, Sendable, Codable {
        /// 503 before reading anything.
        case outage
        /// Applies the update, then answers 500 as if the answer were lost on the way.
        case ackLost = "ack_lost"
    }

    /// One update as the member system applied it.
    public struct Received: Sendable, Codable, Hashable {
        public let idempotencyKey: String
        public let event: String
        public let memberRef: String?
        /// Masked: the sandbox shows that a number arrived, not the number.
        public let personnummerMasked: String?
        /// How many times it was delivered (applied once, whatever this says).
        public var deliveries: Int

        enum CodingKeys: String, CodingKey {
            case event, deliveries
            case idempotencyKey = "idempotency_key"
            case memberRef = "member_ref"
            case personnummerMasked = "personnummer_masked"
        }
    }

    private var secrets: [String: String] = [:]
    private var faults: [String: Fault] = [:]
    private var received: [String: [Received]] = [:]

    init() {}

    func register(slug: String, secret: String) {
        secrets[slug] = secret
    }

    func secret(for slug: String) -> String? { secrets[slug] }

    func setFault(_ fault: Fault?, for slug: String) {
        faults[slug] = fault
    }

    func fault(for slug: String) -> Fault? { faults[slug] }

    /// Applies an update once per key; returns false when the key was applied before.
    func apply(_ update: Received, to slug: String) -> Bool {
        var list = received[slug] ?? []
        if let index = list.firstIndex(where: { $0.idempotencyKey == update.idempotencyKey }) {
            list[index].deliveries += 1
            received[slug] = list
            return false
        }
        list.append(update)
        received[slug] = list
        return true
    }

    func received(by slug: String) -> [Received] { received[slug] ?? [] }
}
