import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktTestSupport
import Testing

/// A log line is one event: no value a client sends can start another, and start-up says what
/// an operator needs, not the configuration's innards.
@Suite("Log lines")
struct LogLineTests {
    @Test("A path, query, header or body with line breaks cannot forge a log line")
    func noForgedLines() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let forged = "%0a2026-01-01T00:00:00+0100%20critical%20portvakt%20:%20FORGED%0d%1b[31m%c2%85%e2%80%a8"
            _ = try await broker.send("/x\(forged)")
            _ = try await broker.send("/oauth/authorize?client_id=\(forged)&state=\(forged)")
            _ = try await broker.send("/oauth/password", method: .POST, form: [("email", "a\nFORGED"), ("password", "b")])
            _ = try await broker.send("/bankid/orders", method: .POST, raw: ("application/json", Data(#"{"client_id":"a\nFORGED"}"#.utf8)))
            _ = try await broker.send("/health/live", headers: [("User-Agent", "a\u{85}FORGED")])
            let entries = broker.logs.entries
            #expect(entries.contains { $0.contains("FORGED") }, "the forged path is logged, escaped")
            for entry in entries {
                #expect(!entry.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" }, "\(entry)")
            }
        }
    }

    @Test("Start-up at trace level names its services, never the keys or the dummy password hash they hold")
    func startUpSaysLittle() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let text = broker.logs.text
            #expect(text.contains("OutboxWorker"))
            #expect(!text.contains("$2b$") && !text.contains("$2a$") && !text.contains("dummyHash"))
            #expect(!text.contains("signingKeys") && !text.contains("Broker("))
        }
    }
}
