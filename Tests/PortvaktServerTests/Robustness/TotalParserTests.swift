import Foundation
import Personnummer
import PortvaktCore
import PortvaktModels
import PortvaktProtocol
import PortvaktTestSupport
import QRCode
import Testing
@testable import PortvaktServer

/// Every parser of outside data is total: over random Unicode (combining marks, keycaps,
/// fullwidth digits, NBSP, NUL and other controls, broken percent-encoding) it returns a value or
/// an error, never traps, and what it accepts keeps its promises.
@Suite("Parsers of outside data are total")
struct TotalParserTests {
    static let rounds = 5_000

    @Test("Form and query parsing: no crash; accepted fields hold no control characters")
    func formFields() {
        var texts = HostileText(seed: 7)
        for _ in 0..<Self.rounds {
            let text = texts.next()
            let pairs = "\(text)=\(texts.next())&b=\(texts.next(maxPieces: 4))"
            for candidate in [text, pairs] {
                guard let fields = try? FormFields.parse(candidate) else { continue }
                for name in ["b", text] {
                    if let value = fields[name] { #expect(!TextInput.hasControlCharacters(value)) }
                }
            }
        }
        #expect(throws: FormFields.Problem.self) { try FormFields.parse("email=a%00b") }
        #expect((try? FormFields.parse("email=a%0Ab"))?["email"] == nil)
    }

    @Test("The percent-decoder and encoder: decoding what was encoded gives it back")
    func percentCoding() {
        var texts = HostileText(seed: 8)
        for _ in 0..<Self.rounds {
            let text = texts.next()
            let encoded = PercentEncoding.encode(text)
            #expect(encoded.utf8.allSatisfy { $0 < 128 })
            #expect(PercentEncoding.decode(encoded) == text)
            _ = PercentEncoding.decode(text)
        }
    }

    @Test("JOSE headers and base64url: no crash; a kid with control characters is refused")
    func joseHeaders() throws {
        var texts = HostileText(seed: 9)
        for _ in 0..<Self.rounds {
            let text = texts.next()
            _ = Data(base64URLEncoded: text)
            let header = (try? JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": text])) ?? Data()
            let token = header.base64URLEncoded() + "." + Data(text.utf8).base64URLEncoded() + ".c2ln"
            if let parsed = JOSEHeader(compactJWS: token), let kid = parsed.kid {
                #expect(!TextInput.hasControlCharacters(kid))
            }
            _ = JOSEHeader(compactJWS: text)
            _ = JOSEHeader(compactJWS: "\(text).\(text).\(text)")
        }
        let nul = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": "device\u{0}id"]).base64URLEncoded()
        #expect(JOSEHeader(compactJWS: "\(nul).e30.c2ln") == nil)
    }

    @Test("JSON bodies: control characters are found and named, line breaks only where free text allows them")
    func jsonText() {
        var texts = HostileText(seed: 10)
        for _ in 0..<Self.rounds {
            let text = texts.next()
            let data = (try? JSONSerialization.data(withJSONObject: ["note": text, "kind": "walk"])) ?? Data()
            let field = JSONText.fieldWithControlCharacters(in: data, multiline: [])
            #expect((field == "note") == TextInput.hasControlCharacters(text))
            _ = JSONText.fieldWithControlCharacters(in: Data(text.utf8), multiline: [])
        }
        let note = Data(#"{"kind":"walk","note":"line one\nline two"}"#.utf8)
        #expect(JSONText.fieldWithControlCharacters(in: note, multiline: ["note"]) == nil)
        #expect(JSONText.fieldWithControlCharacters(in: note, multiline: []) == "note")
        #expect(JSONText.fieldWithControlCharacters(in: Data(#"{"kind":"a\u0000b"}"#.utf8), multiline: ["kind"]) == "kind")
    }

    @Test("Device keys, languages, the QR encoder and the log sanitiser take any text")
    func otherParsers() {
        var texts = HostileText(seed: 11)
        for _ in 0..<Self.rounds {
            let text = texts.next()
            _ = try? DevicePublicKey(jwk: ["kty": "EC", "crv": "P-256", "x": text, "y": texts.next()])
            _ = Language(uiLocales: text)
            if let code = try? QRCode(text: text) { #expect(code.size >= 21) }
            let logged = Redactor.sanitize(text)
            #expect(!logged.contains("\n") && !logged.contains("\r") && !logged.unicodeScalars.contains("\u{0}"))
        }
    }
}
