import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit
import Tracing

/// Portvakt's records, on whichever database the driver reaches. Every query is written once
/// with SQLKit and runs unchanged on SQLite and PostgreSQL.
///
/// Concurrency: a value type holding a `Sendable` driver; safe to share between tasks. Each
/// method is one statement or one transaction.
public struct PortvaktStore: Sendable {
    public let driver: any DatabaseDriver
    /// Seals each audit event into the chain; kept outside the database.
    public let auditKeys: AuditKeyRing
    let auditLinker = AuditLinker()

    public init(driver: any DatabaseDriver, auditKeys: AuditKeyRing) {
        self.driver = driver
        self.auditKeys = auditKeys
    }

    func read<R: Sendable>(function: String = #function, _ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await traced(function) { try await driver.withSession(body) }
    }

    /// One INSERT, UPDATE or DELETE that commits on its own: on PostgreSQL no BEGIN and COMMIT
    /// round trips around it. Not for audited changes (their events commit in a ``write``).
    func writeAlone<R: Sendable>(function: String = #function, _ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await traced(function) { try await driver.withSession(body) }
    }

    /// A transaction; the audit events it appended are linked into the chain right after its commit.
    func write<R: Sendable>(function: String = #function, _ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let appends = AuditAppends()
        let result = try await AuditAppends.$inTransaction.withValue(appends) {
            try await traced(function) { try await driver.withTransaction(body) }
        }
        if appends.happened { linkAuditEventsSoon() }
        return result
    }

    /// A hot path's transaction on SQLite's direct connection (see ``SQLiteDriver/withDirectTransaction(_:)``).
    func writeDirectly<R: Sendable>(
        on sqlite: SQLiteDriver, function: String = #function, _ body: @escaping @Sendable (SQLiteDirectConnection) throws -> R
    ) async throws -> R {
        try await traced(function) { try await sqlite.withDirectTransaction(body) }
    }

    /// One span per store operation (a client span named by the store's method, as OpenTelemetry's
    /// database conventions ask), with the outage mapping below.
    private func traced<R>(_ function: String, _ body: () async throws -> R) async throws -> R {
        let operation = String(function.prefix { $0 != "(" })
        return try await withSpan(operation, ofKind: .client) { span in
            span.updateAttributes { attributes in
                attributes["db.system.name"] = driver.kind == .postgres ? "postgresql" : "sqlite"
                attributes["db.operation.name"] = operation
            }
            return try await Self.reportingOutages(body)
        }
    }

    /// Any failure that is not one of the store's own answers becomes ``StoreError/unavailable(_:)``,
    /// so that callers tell the user "try again", never "not found" or "logged out".
    private static func reportingOutages<R>(_ body: () async throws -> R) async throws -> R {
        do {
            return try await body()
        } catch let error as StoreError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw StoreError.unavailable(String(describing: error))
        }
    }
}

/// Decoding rows whose Codable properties are the camelCase forms of the columns.
extension SQLQueryFetcher {
    func first<D: Decodable>(as type: D.Type) async throws -> D? {
        try await first(decoding: type, keyDecodingStrategy: SnakeCaseColumns.decoding)
    }

    func all<D: Decodable>(as type: D.Type) async throws -> [D] {
        try await all(decoding: type, keyDecodingStrategy: SnakeCaseColumns.decoding)
    }
}

extension SQLInsertBuilder {
    /// Inserts an Encodable row, its camelCase properties as snake_case columns, nil as NULL.
    func row(_ row: some Encodable) throws -> Self {
        try model(row, keyEncodingStrategy: SnakeCaseColumns.encoding, nilEncodingStrategy: .asNil)
    }
}
