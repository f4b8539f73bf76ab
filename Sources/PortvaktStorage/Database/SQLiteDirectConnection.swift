import Foundation
import PortvaktModels
import VaporCSQLite

/// A value bound to or read from a statement run by ``SQLiteDirectConnection``.
enum SQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case null
}

/// The server's connection to its SQLite file, driven synchronously through SQLite's C API (the
/// copy sqlite-nio builds) with statements prepared once.
///
/// SQLiteNIO sends every statement to a thread pool and its rows back to an event loop, so a
/// transaction of eight statements hops between threads two dozen times; those hops, not SQLite,
/// were most of a request's CPU and most of its latency. Here each statement runs on the caller's
/// thread. SQLiteNIO offers no way to run statements synchronously, hence the C API.
///
/// Not thread-safe by itself: ``SQLiteDriver`` uses it only under the lock it takes for every
/// session and transaction, so one statement runs at a time.
final class SQLiteDirectConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    private var isClosed = false
    /// The store's statements are a few hundred fixed texts; past this, the cache starts over
    /// (ad-hoc SQL from an operator's tool must not grow it without end).
    private static let statementLimit = 1024

    init(path: String) throws {
        var handle: OpaquePointer?
        let opened = sqlite_nio_sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard opened == SQLITE_OK, let handle else {
            defer { sqlite_nio_sqlite3_close(handle) }
            throw SQLiteFailure(code: opened, message: handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "cannot open")
        }
        self.handle = handle
        // synchronous=NORMAL with WAL: no fsync per commit, still never corrupt; a power cut may lose the last
        // commits (a few refreshes: their users log in again). https://www.sqlite.org/pragma.html#pragma_synchronous
        for pragma in ["PRAGMA foreign_keys = ON", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA busy_timeout = 5000"] {
            _ = try run(pragma)
        }
    }

    deinit { close() }

    /// Finalizes the statements and closes the file (the last connection to close checkpoints the WAL).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
        statements = [:]
        sqlite_nio_sqlite3_close(handle)
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back
    /// when it throws.
    func transaction<R>(_ body: (SQLiteDirectConnection) throws -> R) throws -> R {
        _ = try run("BEGIN IMMEDIATE")
        do {
            let result = try body(self)
            _ = try run("COMMIT")
            return result
        } catch {
            _ = try? run("ROLLBACK")
            throw error
        }
    }

    /// Runs one statement and returns its rows, each its columns in the statement's order.
    @discardableResult
    func run(_ sql: String, _ binds: SQLiteValue...) throws -> [[SQLiteValue]] {
        try execute(sql, binds, namingColumns: false).rows
    }

    /// Runs one statement; its column names and rows.
    func query(_ sql: String, _ binds: [SQLiteValue]) throws -> (columns: [String], rows: [[SQLiteValue]]) {
        try execute(sql, binds, namingColumns: true)
    }

    /// The hand-written hot paths read rows by position and need no column names.
    private func execute(_ sql: String, _ binds: [SQLiteValue], namingColumns: Bool) throws -> (columns: [String], rows: [[SQLiteValue]]) {
        let statement = try prepared(sql)
        // Reset, not `sqlite3_clear_bindings`: clearing marks a statement whose plan looked at a
        // parameter as expired, and SQLite then prepared it again on every run (the roles join:
        // 4 % of a rotation). Every parameter is bound on every run instead, so none keeps an old value.
        defer { sqlite_nio_sqlite3_reset(statement) }
        guard sqlite_nio_sqlite3_bind_parameter_count(statement) == binds.count else {
            throw SQLiteFailure(code: SQLITE_RANGE, message: "\(binds.count) values for \(sqlite_nio_sqlite3_bind_parameter_count(statement)) parameters")
        }
        for (index, value) in binds.enumerated() {
            try check(bind(value, at: Int32(index + 1), in: statement))
        }
        let count = sqlite_nio_sqlite3_column_count(statement)
        var rows: [[SQLiteValue]] = []
        while true {
            let step = sqlite_nio_sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw error(step) }
            rows.append((0 ..< count).map { column($0, of: statement) })
        }
        guard namingColumns else { return ([], rows) }
        return ((0 ..< count).map { String(cString: sqlite_nio_sqlite3_column_name(statement, $0)) }, rows)
    }

    /// How many rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { Int(sqlite_nio_sqlite3_changes(handle)) }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        guard !isClosed else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "the database is closed") }
        var statement: OpaquePointer?
        let rest: String = try sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            try check(sqlite_nio_sqlite3_prepare_v3(handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail))
            return tail.map { String(cString: $0) } ?? ""
        }
        guard let statement else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "empty statement") }
        guard rest.allSatisfy({ $0.isWhitespace || $0 == ";" }) else {
            sqlite_nio_sqlite3_finalize(statement)
            throw SQLiteFailure(code: SQLITE_MISUSE, message: "one statement at a time")
        }
        if statements.count >= Self.statementLimit {
            for cached in statements.values { sqlite_nio_sqlite3_finalize(cached) }
            statements = [:]
        }
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: SQLiteValue, at index: Int32, in statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let number): sqlite_nio_sqlite3_bind_int64(statement, index, number)
        case .real(let number): sqlite_nio_sqlite3_bind_double(statement, index, number)
        case .text(let text): sqlite_nio_sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
        case .blob(let data): data.withUnsafeBytes { sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), transient) }
        case .null: sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    private func column(_ index: Int32, of statement: OpaquePointer) -> SQLiteValue {
        switch sqlite_nio_sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: .integer(sqlite_nio_sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: .real(sqlite_nio_sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            .text(String(decoding: UnsafeBufferPointer(
                start: sqlite_nio_sqlite3_column_text(statement, index), count: Int(sqlite_nio_sqlite3_column_bytes(statement, index))
            ), as: UTF8.self))
        case SQLITE_BLOB:
            .blob(Data(bytes: sqlite_nio_sqlite3_column_blob(statement, index), count: Int(sqlite_nio_sqlite3_column_bytes(statement, index))))
        default: .null
        }
    }

    private func check(_ status: Int32) throws {
        guard status == SQLITE_OK else { throw error(status) }
    }

    private func error(_ status: Int32) -> SQLiteFailure {
        SQLiteFailure(code: sqlite_nio_sqlite3_extended_errcode(handle), message: String(cString: sqlite_nio_sqlite3_errmsg(handle)))
    }
}

/// A failed call into SQLite: its extended result code and message.
struct SQLiteFailure: Error, CustomStringConvertible {
    let code: Int32
    let message: String

    var description: String { "SQLite error \(code): \(message)" }

    /// The ``StoreError`` a constraint failure means (https://www.sqlite.org/rescode.html).
    var storeError: StoreError? {
        guard code & 0xFF == SQLITE_CONSTRAINT else { return nil }
        let detail = message.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
        switch code >> 8 {
        case 6, 8: return .duplicate(detail) // SQLITE_CONSTRAINT_PRIMARYKEY, _UNIQUE
        case 3: return .missingReference(detail) // SQLITE_CONSTRAINT_FOREIGNKEY
        default: return .constraint(detail)
        }
    }
}

/// SQLite copies the bound bytes (`SQLITE_TRANSIENT`, a C macro Swift does not import).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension SQLiteValue {
    var integer: Int64? { if case .integer(let number) = self { number } else { nil } }
    var text: String? { if case .text(let text) = self { text } else { nil } }
    var blob: Data? { if case .blob(let data) = self { data } else { nil } }
}
