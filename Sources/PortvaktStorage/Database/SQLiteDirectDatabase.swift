import Foundation
import Logging
import NIOCore
import SQLiteKit
import SQLKit

/// SQLKit on ``SQLiteDirectConnection``: the store's queries, written once for both databases,
/// run on SQLite one statement at a time on the caller's thread.
///
/// Values are converted exactly as SQLiteKit converts them (its `SQLiteDataEncoder` and
/// `SQLiteDataDecoder`), so rows read the same as through SQLiteNIO. Only ``SQLiteDriver`` hands
/// one out, under its lock.
struct SQLiteDirectDatabase: SQLDatabase {
    let connection: SQLiteDirectConnection
    let logger: Logger
    /// Asked for by SQLKit's future-based API only; no statement runs on it.
    let eventLoop: any EventLoop

    var dialect: any SQLDialect { SQLiteDialect() }
    /// No query log: binds would carry nonces, emails and other values that stay out of logs.
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        eventLoop.makeCompletedFuture { try run(query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        try run(query, onRow)
    }

    private func run(_ query: any SQLExpression, _ onRow: (any SQLRow) -> ()) throws {
        let (sql, binds) = serialize(query)
        let values = try binds.map { SQLiteValue(try SQLiteDirectRow.encoder.encode($0)) }
        let result = try connection.query(sql, values)
        for values in result.rows {
            onRow(SQLiteDirectRow(columns: result.columns, values: values))
        }
    }
}

/// One row read through ``SQLiteDirectDatabase``.
struct SQLiteDirectRow: SQLRow {
    let columns: [String]
    let values: [SQLiteValue]

    /// Made once: each holds a JSON coder for values stored as JSON.
    static let encoder = SQLiteDataEncoder()
    static let decoder = SQLiteDataDecoder()

    var allColumns: [String] { columns }

    func contains(column: String) -> Bool { columns.contains(column) }

    func decodeNil(column: String) throws -> Bool {
        value(of: column).map { $0 == .null } ?? true
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let value = value(of: column) else {
            throw DecodingError.keyNotFound(ColumnKey(column), .init(codingPath: [], debugDescription: "No column \(column)."))
        }
        return try Self.decoder.decode(D.self, from: SQLiteData(value))
    }

    private func value(of column: String) -> SQLiteValue? {
        columns.firstIndex(of: column).map { values[$0] }
    }
}

extension SQLiteValue {
    init(_ data: SQLiteData) {
        switch data {
        case .integer(let number): self = .integer(Int64(number))
        case .float(let number): self = .real(number)
        case .text(let text): self = .text(text)
        case .blob(let buffer): self = .blob(Data(buffer.readableBytesView))
        case .null: self = .null
        }
    }
}

extension SQLiteData {
    init(_ value: SQLiteValue) {
        switch value {
        case .integer(let number): self = .integer(Int(number))
        case .real(let number): self = .float(number)
        case .text(let text): self = .text(text)
        case .blob(let data): self = .blob(ByteBuffer(bytes: data))
        case .null: self = .null
        }
    }
}
