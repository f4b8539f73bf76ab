import Foundation
import Metrics
import PortvaktCore
import PortvaktModels
import SQLKit
import Synchronization

extension PortvaktStore {
    /// Links the events committed but not yet in the hash chain, oldest first, in batches of
    /// `batchSize`; returns how many it linked. Each batch is one transaction holding the chain
    /// head, so linkers on several instances take turns and each event is linked once. An event
    /// whose seal does not hold (written or changed without the audit key) is left out: `audit
    /// verify` names it.
    @discardableResult
    public func linkPendingAuditEvents(batchSize: Int = 200) async throws -> Int {
        let keys = auditKeys
        var after: AuditRow.Position?
        var linked = 0
        while true {
            let batch = try await write { [after] db in try await Self.linkBatch(after: after, limit: batchSize, keys: keys, in: db) }
            linked += batch.linked
            guard batch.read == batchSize, let last = batch.last else { return linked }
            after = last
        }
    }

    /// Asks for the events just committed to be linked, without waiting for it.
    func linkAuditEventsSoon() {
        auditLinker.runSoon { [self] in try await linkPendingAuditEvents() }
    }

    private static func linkBatch(
        after: AuditRow.Position?, limit: Int, keys: AuditKeyRing, in db: any SQLDatabase
    ) async throws -> (read: Int, linked: Int, last: AuditRow.Position?) {
        guard var head = try await db.update("audit_chain_head").set("sequence", to: SQLColumn("sequence"))
            .where("id", .equal, 1).returning("sequence", "hash").first(as: AuditChainHead.self)
        else { throw StoreError.notFound("audit_chain_head") }
        let start: SQLQueryString = after.map { "AND (occurred_at, id) > (\(bind: $0.occurredAt), \(bind: $0.id))" } ?? ""
        let rows = try await db.raw("""
            SELECT * FROM audit_events WHERE sequence IS NULL \(start) ORDER BY occurred_at, id LIMIT \(literal: limit)
            """).all(as: AuditRow.self)
        var links: [any SQLExpression] = []
        for var row in rows where row.hasValidSeal(keys) {
            head = try row.chain(after: head, keys: keys)
            links.append(SQLGroupExpression([SQLBind(row.id), SQLBind(head.sequence), SQLBind(row.prevHash), SQLBind(head.hash)]))
        }
        if !links.isEmpty {
            try await db.raw("""
                WITH linked (id, sequence, prev_hash, hash) AS (VALUES \(SQLList(links)))
                UPDATE audit_events SET sequence = linked.sequence, prev_hash = linked.prev_hash, hash = linked.hash
                FROM linked WHERE audit_events.id = linked.id
                """).run()
            try await db.update("audit_chain_head").set("sequence", to: head.sequence).set("hash", to: head.hash).where("id", .equal, 1).run()
        }
        return (rows.count, links.count, rows.last.map { AuditRow.Position(occurredAt: $0.occurredAt, id: $0.id) })
    }
}

extension AuditRow {
    /// Where an event stands in the order events are linked in.
    struct Position: Sendable {
        let occurredAt: Int64
        let id: String
    }
}

/// Runs the linking after commits: one run at a time per store; asked again while running, it
/// runs once more, so an event committed during a run is linked by the next.
final class AuditLinker: Sendable {
    private struct State {
        var running = false
        var again = false
    }

    private let state = Mutex(State())

    func runSoon(_ link: @escaping @Sendable () async throws -> Void) {
        let starts = state.withLock { state in
            if state.running { state.again = true }
            defer { state.running = true }
            return !state.running
        }
        guard starts else { return }
        Task {
            repeat {
                state.withLock { $0.again = false }
                do {
                    try await link()
                } catch {
                    // The events stay unlinked until the next run or the periodic one (AuditLinkService).
                    Counter(label: "portvakt_audit_link_failures_total").increment()
                }
            } while state.withLock { state in
                state.running = state.again
                return state.again
            }
        }
    }
}

/// Set while one of the store's transactions runs: an appended event asks for linking after the commit.
final class AuditAppends: Sendable {
    @TaskLocal static var inTransaction: AuditAppends?

    private let appended = Atomic(false)

    func record() { appended.store(true, ordering: .relaxed) }

    var happened: Bool { appended.load(ordering: .relaxed) }
}
