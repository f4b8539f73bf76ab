import Foundation
@testable import PortvaktStorage
import Testing

@Suite("SQLite's direct connection")
struct SQLiteDirectConnectionTests {
    private func withConnection(_ body: (SQLiteDirectConnection) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("direct-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let connection = try SQLiteDirectConnection(path: path)
        defer { connection.close() }
        try body(connection)
    }

    @Test("A statement kept for reuse answers each run with that run's values only")
    func rebinding() throws {
        try withConnection { (db: SQLiteDirectConnection) throws in
            try db.run("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)")
            try db.run("INSERT INTO t (k, v) VALUES (?1, ?2)", .text("a"), .integer(1))
            try db.run("INSERT INTO t (k, v) VALUES (?1, ?2)", .text("b"), .null)
            let query = "SELECT t.v, u.k FROM t JOIN t AS u ON u.k = t.k WHERE t.k = ?1 ORDER BY u.k"
            #expect(try db.run(query, .text("a")) == [[.integer(1), .text("a")]])
            #expect(try db.run(query, .text("b")) == [[.null, .text("b")]])
            #expect(try db.run(query, .text("c")) == [])
            #expect(try db.run(query, .text("a")) == [[.integer(1), .text("a")]])
        }
    }

    @Test("Fewer or more values than the statement's parameters are refused, not filled with old ones")
    func parameterCount() throws {
        try withConnection { (db: SQLiteDirectConnection) throws in
            #expect(try db.run("SELECT ?1, ?2", .integer(1), .integer(2)) == [[.integer(1), .integer(2)]])
            #expect(throws: SQLiteFailure.self) { try db.run("SELECT ?1, ?2", .integer(3)) }
            #expect(throws: SQLiteFailure.self) { try db.run("SELECT ?1", .integer(3), .integer(4)) }
            #expect(throws: SQLiteFailure.self) { try db.run("SELECT 1; SELECT 2") }
        }
    }
}
