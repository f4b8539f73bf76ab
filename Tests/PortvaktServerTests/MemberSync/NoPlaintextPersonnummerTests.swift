import Foundation
import PortvaktSandbox
import PortvaktStorage
import PortvaktTestSupport
import SQLKit
import Testing

/// After logins that write personnummer back, conflict, fail to deliver and deliver, no table
/// of either database holds a personnummer in the clear (issue 7).
@Suite("No plaintext personnummer at rest")
struct NoPlaintextPersonnummerTests {
    @Test("Every table, every text and binary column, on SQLite and PostgreSQL", arguments: TestDatabase.kinds)
    func dumpEveryTable(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            try await broker.setMemberSystemFault("blindeforbundet", "outage")
            for (provider, user) in [("vipps", "kari"), ("bankid", "ola"), ("vipps", "per"), ("bankid", "magnus")] {
                _ = try await broker.tokens(provider: provider, user: user)
            }
            // Sofie's phone match is refused; her number waits sealed in the review entry.
            _ = try await broker.providerLogin(AppLogin(), provider: "vipps", user: "sofie")
            #expect(try await broker.eventually { try await broker.memberSystemReceived("nhf").count == 1 })

            let numbers = TestUsers.all.map(\.personnummer) + ["14489237688"]
            let (tables, cells, leaks) = try await broker.withStore { store in
                try await store.driver.withSession { db in
                    let listing = db.dialect.name == "sqlite"
                        ? "SELECT name AS t FROM sqlite_master WHERE type = 'table'"
                        : "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public'"
                    let tables = try await db.raw(SQLQueryString(listing)).all().map { try $0.decode(column: "t", as: String.self) }
                    var cells = 0
                    var leaks: [String] = []
                    for table in tables {
                        for row in try await db.raw("SELECT * FROM \(ident: table)").all() {
                            for column in row.allColumns {
                                let text: String
                                if let value = try? row.decode(column: column, as: String?.self) {
                                    text = value ?? ""
                                } else if let bytes = try? row.decode(column: column, as: Data?.self) {
                                    text = String(decoding: bytes ?? Data(), as: UTF8.self)
                                } else {
                                    continue
                                }
                                cells += 1
                                if let number = numbers.first(where: { text.contains($0) }) {
                                    leaks.append("\(table).\(column) holds \(number.prefix(6))*****")
                                }
                            }
                        }
                    }
                    return (tables, cells, leaks)
                }
            }
            #expect(tables.contains("member_records") && tables.contains("member_sync_log") && tables.contains("member_outbox") && tables.contains("audit_events"))
            #expect(cells > 500, "the dump read \(cells) cells")
            #expect(leaks.isEmpty, "\(leaks)")
        }
    }
}
