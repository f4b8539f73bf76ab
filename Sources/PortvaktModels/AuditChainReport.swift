import Crypto
import Foundation
import PortvaktCore

/// What `portvakt-server audit verify` found.
public struct AuditChainReport: Sendable, Hashable {
    /// The first event that breaks the chain, and how.
    public struct BrokenLink: Sendable, Hashable, CustomStringConvertible {
        /// The sequence number where the chain breaks (the expected one when events are missing).
        public let sequence: Int64
        public let eventID: String?
        public let reason: String

        public var description: String {
            "event #\(sequence)\(eventID.map { " (\($0))" } ?? ""): \(reason)"
        }

        package init(sequence: Int64, eventID: String?, reason: String) {
            self.sequence = sequence
            self.eventID = eventID
            self.reason = reason
        }
    }

    /// Events whose links were checked before the end or the first break.
    public let checked: Int
    /// Of those, the events sealed with an audit key (the rest predate the keys).
    public let sealed: Int
    public let firstBroken: BrokenLink?
    /// The intact chain's head, sealed: keep it outside the database to compare later.
    public let headDigest: String?
    /// The intact chain's head itself, for the store's `verifyAuditChain(pageSize:sinceVerified:)` to keep.
    package var verifiedHead: AuditChainHead? = nil

    public var isIntact: Bool { firstBroken == nil }

    package init(checked: Int, sealed: Int, firstBroken: BrokenLink?, headDigest: String?, verifiedHead: AuditChainHead? = nil) {
        self.checked = checked
        self.sealed = sealed
        self.firstBroken = firstBroken
        self.headDigest = headDigest
        self.verifiedHead = verifiedHead
    }
}

/// The end of the audit hash chain: the last event's sequence number and hash.
package struct AuditChainHead: Codable, Sendable, Hashable {
    package init(sequence: Int64, hash: Data) {
        self.sequence = sequence
        self.hash = hash
    }

    package var sequence: Int64
    package var hash: Data

    /// Before the first event: sequence 0 and 32 zero bytes.
    package static let genesis = AuditChainHead(sequence: 0, hash: Data(count: 32))
}
