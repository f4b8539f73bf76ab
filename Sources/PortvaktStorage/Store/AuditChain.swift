import Crypto
import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension AuditRow {
    /// HMAC-SHA256 under the key `keyId` names (SHA-256 for an event chained before the chain had
    /// keys) over the previous hash and the event at `sequence` as JSON with sorted keys (its
    /// fields, its seal included, without the chain's own two; absent values are left out). Nil
    /// for an unknown key.
    func computedHash(sequence: Int64, previous: Data, keys: AuditKeyRing?) throws -> Data? {
        var canonical = self
        canonical.sequence = sequence
        canonical.prevHash = nil
        canonical.clientAddress = nil
        canonical.hash = nil
        let input = previous + (try Self.canonicalEncoder.encode(canonical))
        guard let keyId else { return Data(SHA256.hash(data: input)) }
        return keys?.seal(input, keyID: keyId)
    }

    /// Seals the event as written, not yet linked, with the ring's current key.
    mutating func seal(with keys: AuditKeyRing) throws {
        keyId = keys.currentID
        seal = keys.seal(try unlinkedForm(), keyID: keys.currentID)
    }

    /// Whether the event's seal is one of the ring's keys over the event as it reads now: what a
    /// server wrote and nobody changed since. Only such events are linked.
    func hasValidSeal(_ keys: AuditKeyRing) -> Bool {
        guard let keyId, let seal, let expected = try? keys.seal(unlinkedForm(), keyID: keyId) else { return false }
        return expected == seal
    }

    /// The event's own fields as JSON with sorted keys: no place in the chain, no seal.
    private func unlinkedForm() throws -> Data {
        var form = self
        form.sequence = nil
        form.prevHash = nil
        form.hash = nil
        form.seal = nil
        form.clientAddress = nil
        return try Self.canonicalEncoder.encode(form)
    }

    private static let canonicalEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// Links this row after `head` under its own key (none: SHA-256 only, as the migration that
    /// built the chain had no key); returns the new head.
    mutating func chain(after head: AuditChainHead, keys: AuditKeyRing?) throws -> AuditChainHead {
        sequence = head.sequence + 1
        prevHash = head.hash
        guard let sealed = try computedHash(sequence: head.sequence + 1, previous: head.hash, keys: keys) else {
            throw StoreError.notFound("audit key")
        }
        hash = sealed
        return AuditChainHead(sequence: head.sequence + 1, hash: sealed)
    }
}

extension PortvaktStore {
    /// Links the events still waiting (a crash between commit and linking leaves some), then
    /// walks the audit chain in sequence order and reports the first event that was edited,
    /// removed, inserted outside the chain, or a tail that was cut off.
    ///
    /// - Parameter sinceVerified: start after the head the last intact walk reached (which must
    ///   still be there, unchanged), and keep the new one: a page that shows the verdict on every
    ///   view does not walk the whole chain each time.
    public func verifyAuditChain(pageSize: Int = 1000, sinceVerified: Bool = false) async throws -> AuditChainReport {
        let keys = auditKeys
        try await linkPendingAuditEvents()
        let report: AuditChainReport = try await read { db in
            var previous = AuditChainHead.genesis
            var checked = 0
            var sealed = 0
            if sinceVerified, let verified = try await db.select().column("sequence").column("hash").from("audit_verified_head")
                .where("id", .equal, 1).first(as: AuditChainHead.self) {
                let row = try await db.select().column("*").from("audit_events").where("sequence", .equal, verified.sequence).first(as: AuditRow.self)
                // The kept head must still be that event, and the event still match its seal.
                guard let row, row.hash == verified.hash, let previousHash = row.prevHash,
                      try row.computedHash(sequence: verified.sequence, previous: previousHash, keys: keys) == row.hash
                else {
                    return AuditChainReport(checked: 0, sealed: 0, firstBroken: .init(
                        sequence: verified.sequence, eventID: row?.id, reason: "it changed or went after it was verified"
                    ), headDigest: nil)
                }
                previous = verified
                checked = Int(verified.sequence)
                sealed = row.keyId == nil ? 0 : 1
            }
            while true {
                let page = try await db.select().column("*").from("audit_events")
                    .where("sequence", .greaterThan, previous.sequence).orderBy("sequence").limit(pageSize)
                    .all(as: AuditRow.self)
                for row in page {
                    let expected = previous.sequence + 1
                    func broken(_ reason: String, at sequence: Int64 = expected) -> AuditChainReport {
                        AuditChainReport(checked: checked, sealed: sealed, firstBroken: .init(sequence: sequence, eventID: row.id, reason: reason), headDigest: nil)
                    }
                    guard row.sequence == expected else {
                        return broken("events \(expected)…\((row.sequence ?? expected) - 1) are missing (deleted)")
                    }
                    guard row.prevHash == previous.hash else { return broken("its previous-event hash does not match event #\(previous.sequence)") }
                    // Events from before the chain had keys come first; once sealed, always sealed.
                    guard row.keyId != nil || sealed == 0 else { return broken("it is not sealed with an audit key, though earlier events are (rewritten)") }
                    guard let hash = try row.computedHash(sequence: expected, previous: previous.hash, keys: keys) else {
                        return broken("it is sealed with the audit key \"\(row.keyId ?? "")\", which this server does not have")
                    }
                    guard row.hash == hash else { return broken("its contents do not match its seal (edited)") }
                    previous = AuditChainHead(sequence: expected, hash: hash)
                    checked += 1
                    if row.keyId != nil { sealed += 1 }
                }
                if page.count < pageSize { break }
            }
            let head = try await db.select().column("*").from("audit_chain_head").where("id", .equal, 1).first(as: AuditChainHead.self)
            if let head, head.sequence != previous.sequence || head.hash != previous.hash {
                return AuditChainReport(checked: checked, sealed: sealed, firstBroken: .init(
                    sequence: previous.sequence + 1, eventID: nil, reason: "events up to #\(head.sequence) are missing at the end (cut off)"
                ), headDigest: nil)
            }
            if let outside = try await db.select().column("id").from("audit_events").where("sequence", .is, SQLLiteral.null).first() {
                return AuditChainReport(checked: checked, sealed: sealed, firstBroken: .init(
                    sequence: previous.sequence + 1, eventID: try outside.decode(column: "id", as: String.self), reason: "an event outside the chain (no sequence, and no seal of this server's)"
                ), headDigest: nil)
            }
            return AuditChainReport(checked: checked, sealed: sealed, firstBroken: nil, headDigest: previous.digest(keys: keys), verifiedHead: previous)
        }
        if sinceVerified, report.isIntact, let head = report.verifiedHead {
            try await writeAlone { db in
                try await db.raw("""
                    INSERT INTO audit_verified_head (id, sequence, hash) VALUES (1, \(bind: head.sequence), \(bind: head.hash))
                    ON CONFLICT (id) DO UPDATE SET sequence = excluded.sequence, hash = excluded.hash
                    WHERE excluded.sequence > audit_verified_head.sequence
                    """).run()
            }
        }
        return report
    }
}

extension AuditChainHead {
    /// `#N:keyid:base64url(HMAC(key, "portvakt-audit-head" · N · hash))`: what an operator keeps
    /// outside the database; a later digest of the same N must match it.
    func digest(keys: AuditKeyRing) -> String {
        var input = Data("portvakt-audit-head".utf8)
        input.append(contentsOf: withUnsafeBytes(of: sequence.bigEndian) { Array($0) })
        input.append(hash)
        let seal = keys.seal(input, keyID: keys.currentID) ?? Data()
        return "#\(sequence):\(keys.currentID):\(seal.base64URLEncoded())"
    }
}
