import Crypto
import Foundation
import SQLKit

/// The end of the audit hash chain: the last event's sequence number and hash.
struct AuditChainHead: Codable, Sendable {
    var sequence: Int64
    var hash: Data

    /// Before the first event: sequence 0 and 32 zero bytes.
    static let genesis = AuditChainHead(sequence: 0, hash: Data(count: 32))
}

extension AuditRow {
    /// SHA-256 over the previous hash and the event at `sequence` as JSON with sorted keys
    /// (its fields without the chain's own two; absent values are left out).
    func computedHash(sequence: Int64, previous: Data) throws -> Data {
        var canonical = self
        canonical.sequence = sequence
        canonical.prevHash = nil
        canonical.hash = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Data(SHA256.hash(data: previous + (try encoder.encode(canonical))))
    }

    /// Links this row after `head`; returns the new head.
    mutating func chain(after head: AuditChainHead) throws -> AuditChainHead {
        sequence = head.sequence + 1
        prevHash = head.hash
        hash = try computedHash(sequence: head.sequence + 1, previous: head.hash)
        return AuditChainHead(sequence: head.sequence + 1, hash: hash!)
    }
}

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
    }

    /// Events whose links were checked before the end or the first break.
    public let checked: Int
    public let firstBroken: BrokenLink?

    public var isIntact: Bool { firstBroken == nil }
}

extension PortvaktStore {
    /// Walks the audit chain in sequence order and reports the first event that was edited,
    /// removed, inserted outside the chain, or a tail that was cut off.
    public func verifyAuditChain(pageSize: Int = 1000) async throws -> AuditChainReport {
        try await read { db in
            var previous = AuditChainHead.genesis
            var checked = 0
            while true {
                let page = try await db.select().column("*").from("audit_events")
                    .where("sequence", .greaterThan, previous.sequence).orderBy("sequence").limit(pageSize)
                    .all(as: AuditRow.self)
                for row in page {
                    let expected = previous.sequence + 1
                    func broken(_ reason: String, at sequence: Int64 = expected) -> AuditChainReport {
                        AuditChainReport(checked: checked, firstBroken: .init(sequence: sequence, eventID: row.id, reason: reason))
                    }
                    guard row.sequence == expected else {
                        return broken("events \(expected)…\((row.sequence ?? expected) - 1) are missing (deleted)")
                    }
                    guard row.prevHash == previous.hash else { return broken("its previous-event hash does not match event #\(previous.sequence)") }
                    let hash = try row.computedHash(sequence: expected, previous: previous.hash)
                    guard row.hash == hash else { return broken("its contents do not match its hash (edited)") }
                    previous = AuditChainHead(sequence: expected, hash: hash)
                    checked += 1
                }
                if page.count < pageSize { break }
            }
            let head = try await db.select().column("*").from("audit_chain_head").where("id", .equal, 1).first(as: AuditChainHead.self)
            if let head, head.sequence != previous.sequence || head.hash != previous.hash {
                return AuditChainReport(checked: checked, firstBroken: .init(
                    sequence: previous.sequence + 1, eventID: nil, reason: "events up to #\(head.sequence) are missing at the end (cut off)"
                ))
            }
            if let outside = try await db.select().column("id").from("audit_events").where("sequence", .is, SQLLiteral.null).first() {
                return AuditChainReport(checked: checked, firstBroken: .init(
                    sequence: previous.sequence + 1, eventID: try outside.decode(column: "id", as: String.self), reason: "an event outside the chain (no sequence)"
                ))
            }
            return AuditChainReport(checked: checked, firstBroken: nil)
        }
    }
}
