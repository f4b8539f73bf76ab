import Foundation
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// The latest time any of `keys` is blocked until, when later than `now`.
    public func throttleBlockedUntil(keys: [String], now: Date = Date()) async throws -> Date? {
        guard !keys.isEmpty else { return nil }
        let blockedUntil = Self.blockedUntil(keys, after: now.millisecondsSince1970)
        return try await read { db in
            try await db.raw("SELECT \(blockedUntil) AS throttled_until").first().flatMap(Self.blockedUntil(in:))
        }
    }

    /// A row of `table` by its `id` (nil when there is none) and the latest time any of
    /// `throttleKeys` is blocked until, when later than `now`: one read where a request needs both.
    func row<Model: Decodable & Sendable>(
        of table: String, id: String, as model: Model.Type, blockedUntilFor throttleKeys: [String], now: Date
    ) async throws -> (Model?, Date?) {
        let blockedUntil = Self.blockedUntil(throttleKeys, after: now.millisecondsSince1970)
        return try await read { db in
            // One row whether or not the id is known: the throttle answers for unknown ids too.
            guard let row = try await db.raw("""
                SELECT \(blockedUntil) AS throttled_until, \(ident: table).* FROM (SELECT 1 AS one) AS request \
                LEFT JOIN \(ident: table) ON \(ident: table).id = \(bind: id)
                """).first()
            else { return (nil, nil) }
            let found = try row.decodeNil(column: "id") ? nil : try row.decode(model: Model.self, keyDecodingStrategy: SnakeCaseColumns.decoding)
            return (found, try Self.blockedUntil(in: row))
        }
    }

    /// The latest `blocked_until` of `keys` later than `time`, as a value to select (NULL when
    /// none is). Written out: SQLKit's builders cost more to serialize than this takes to run.
    private static func blockedUntil(_ keys: [String], after time: Int64) -> SQLQueryString {
        keys.isEmpty ? "NULL" : """
            (SELECT MAX(blocked_until) FROM login_throttles WHERE "key" IN (\(binds: keys)) AND blocked_until > \(bind: time))
            """
    }

    /// The value ``blockedUntil(_:after:)`` selected, as `throttled_until`.
    private static func blockedUntil(in row: any SQLRow) throws -> Date? {
        try row.decodeNil(column: "throttled_until") ? nil : Date(millisecondsSince1970: try row.decode(column: "throttled_until", as: Int64.self))
    }

    /// Counts a failure against each key, atomically (two instances counting at once both count).
    public func recordThrottleFailures(_ failures: [ThrottleFailure], now: Date = Date()) async throws {
        let time = now.millisecondsSince1970
        try await write { db in
            for failure in failures {
                let startOver = time - Int64(failure.forgetAfter * 1000)
                let count = try await db.raw("""
                    INSERT INTO login_throttles (key, failures, last_failure_at, blocked_until) VALUES (\(bind: failure.key), 1, \(bind: time), 0)
                    ON CONFLICT (key) DO UPDATE SET
                        failures = CASE WHEN login_throttles.last_failure_at < \(bind: startOver) THEN 1 ELSE login_throttles.failures + 1 END,
                        last_failure_at = excluded.last_failure_at
                    RETURNING failures
                    """).first().map { try $0.decode(column: "failures", as: Int.self) } ?? 1
                if let wait = failure.blockFor(count) {
                    try await db.update("login_throttles").set("blocked_until", to: time + Int64(wait * 1000))
                        .where("key", .equal, failure.key).run()
                }
            }
        }
    }

    /// Counts an attempt as a failure against every key before it is judged, in one transaction,
    /// unless one of them is blocked: then nothing is counted and the answer is until when.
    /// Concurrent attempts cannot all pass a "blocked?" read that precedes their count: the
    /// upsert takes the row's lock, so each sees the count and block of the attempts before it.
    /// - Returns: nil when the attempt may be judged (a success gives its count back with
    ///   ``releaseThrottleAttempt(key:)`` or ``clearThrottle(key:)``).
    public func reserveThrottleAttempt(_ failures: [ThrottleFailure], now: Date = Date()) async throws -> Date? {
        let time = now.millisecondsSince1970
        return try await write { db in
            var counted: [(failure: ThrottleFailure, count: Int)] = []
            var blocked: Int64?
            for failure in failures {
                let startOver = time - Int64(failure.forgetAfter * 1000)
                // A blocked key is not counted again: the attempt is refused without a judgement.
                guard let row = try await db.raw("""
                    INSERT INTO login_throttles (key, failures, last_failure_at, blocked_until) VALUES (\(bind: failure.key), 1, \(bind: time), 0)
                    ON CONFLICT (key) DO UPDATE SET
                        failures = CASE WHEN login_throttles.blocked_until > \(bind: time) THEN login_throttles.failures
                            WHEN login_throttles.last_failure_at < \(bind: startOver) THEN 1 ELSE login_throttles.failures + 1 END,
                        last_failure_at = CASE WHEN login_throttles.blocked_until > \(bind: time) THEN login_throttles.last_failure_at
                            ELSE excluded.last_failure_at END
                    RETURNING failures, blocked_until
                    """).first()
                else { continue }
                let until = try row.decode(column: "blocked_until", as: Int64.self)
                if until > time {
                    blocked = max(blocked ?? 0, until)
                } else {
                    counted.append((failure, try row.decode(column: "failures", as: Int.self)))
                }
            }
            if let blocked {
                for (failure, _) in counted {
                    try await db.raw("UPDATE login_throttles SET failures = failures - 1 WHERE \"key\" = \(bind: failure.key) AND failures > 0").run()
                }
                return Date(millisecondsSince1970: blocked)
            }
            for (failure, count) in counted {
                if let wait = failure.blockFor(count) {
                    try await db.update("login_throttles").set("blocked_until", to: time + Int64(wait * 1000))
                        .where("key", .equal, failure.key).run()
                }
            }
            return nil
        }
    }

    /// Gives back one attempt counted by ``reserveThrottleAttempt(_:now:)`` that turned out a success.
    public func releaseThrottleAttempt(key: String) async throws {
        try await writeAlone { db in
            try await db.raw("UPDATE login_throttles SET failures = failures - 1 WHERE \"key\" = \(bind: key) AND failures > 0").run()
        }
    }

    /// A success: the key starts over.
    public func clearThrottle(key: String) async throws {
        // Nearly always there is nothing to clear: a read first keeps a success off the write lock.
        let counted = try await read { db in
            try await db.select().column("key").from("login_throttles").where("key", .equal, key).first() != nil
        }
        guard counted else { return }
        try await write { db in
            try await db.delete(from: "login_throttles").where("key", .equal, key).run()
        }
    }

    /// Deletes counters with no failure for `age` that block nothing any more.
    @discardableResult
    public func purgeStaleThrottles(age: TimeInterval = 86400, now: Date = Date()) async throws -> Int {
        let time = now.millisecondsSince1970
        return try await write { db in
            try await db.delete(from: "login_throttles")
                .where("last_failure_at", .lessThan, time - Int64(age * 1000)).where("blocked_until", .lessThan, time)
                .returning("key").all().count
        }
    }
}
