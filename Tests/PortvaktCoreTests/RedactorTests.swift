import Logging
import PortvaktTestSupport
import Testing
@testable import PortvaktCore

@Suite("Log redaction")
struct RedactorTests {
    @Test("Personnummer-shaped digit runs are removed however they are typed", arguments: [
        "user 15058600048 logged in", "user 150586 00048", "user 150586-00048", "/members/15058600048?x=1",
        "nin=15058600048&y", "1505860004812345",
    ])
    func digitRuns(text: String) {
        let redacted = Redactor.redact(text)
        #expect(!redacted.contains("00048"))
        #expect(redacted.contains(Redactor.placeholder))
    }

    @Test("Short numbers, dates and ports survive")
    func harmlessNumbers() {
        let text = "listening on 127.0.0.1:8080 at 2026-11-21 with 3 retries, order 1234567890"
        #expect(Redactor.redact(text) == text)
    }

    @Test("A UUID stays whole, however its digits run (audit details name records and entries by id); a number beside one is still removed")
    func uuids() {
        for id in ["66f83532-2015-477b-a327-52ce1cfe43a2", "12345678-9012-4345-8789-012345678901", "AAAAAAAA-1505-8600-0481-234567890123"] {
            #expect(Redactor.redact("entry \(id)") == "entry \(id)")
        }
        #expect(Redactor.redact("66f83532-2015-477b-a327-52ce1cfe43a2 15058600048") == "66f83532-2015-477b-a327-52ce1cfe43a2 [redacted]")
        #expect(Redactor.redact("12345678-9012-4345-8789-0123456789012") .contains(Redactor.placeholder), "not a UUID: one digit too many")
    }

    @Test("JWTs are removed")
    func jwts() {
        let text = "token eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl end"
        #expect(Redactor.redact(text) == "token [redacted] end")
    }

    @Test("S17: a long run of eyJ without a dot is scanned once, and what it hides is still found: the digits inside it, a token after it")
    func longRunsWithoutADot() {
        let run = String(repeating: "eyJ", count: 20_000)
        let text = run + "15058600048" + run + " eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln tail"
        let redacted = Redactor.redact(text)
        #expect(!redacted.contains("15058600048"), "the number inside the run")
        #expect(!redacted.contains("eyJhbGciOiJFUzI1NiJ9"), "the token after it")
        #expect(redacted.hasSuffix(" [redacted] tail"))
        #expect(redacted.hasPrefix(run), "the run itself stays")
    }

    @Test("Metadata under secret names is replaced whole", arguments: [
        "personnummer", "nin", "refresh_token", "codeVerifier", "client_secret", "Authorization", "bankid_session_ref_v1", "password",
    ])
    func secretKeys(key: String) {
        #expect(Redactor.isSecretKey(key))
    }

    @Test("The log handler redacts messages, event metadata and handler metadata")
    func handler() {
        let sink = LogSink()
        var logger = Logger(label: "test") { _ in RedactingLogHandler(wrapping: sink.handler()) }
        logger.logLevel = .trace
        logger[metadataKey: "refresh_token"] = "abc"
        logger.info("number 15058600048", metadata: ["note": "150586 00048", "code": "xyz", "list": ["15058600048"]])
        let text = sink.text
        #expect(!text.contains("00048"))
        #expect(!text.contains("xyz"))
        #expect(!text.contains("abc"))
        #expect(text.contains("number [redacted]"))
    }
}
