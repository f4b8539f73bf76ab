import Foundation
import Testing
@testable import Personnummer

@Suite("Redaction")
struct RedactionTests {
    let number = try! Personnummer("15058600048", today: testToday)

    @Test("description, debugDescription, interpolation and dump never show the digits")
    func textForms() {
        var dumped = ""
        dump(number, to: &dumped)
        let forms = [
            number.description, number.debugDescription, "\(number)", String(describing: number),
            String(reflecting: number), dumped, "\([number])", "\(Optional(number) as Any)",
        ]
        for form in forms {
            #expect(!form.contains("00048"), "\(form)")
            #expect(!form.contains("150586"), "\(form)")
        }
    }

    @Test("A decoding error names the rule, not the value")
    func decodingErrors() throws {
        let json = Data(#"["15058600049"]"#.utf8)
        do {
            _ = try JSONDecoder().decode([Personnummer].self, from: json)
            Issue.record("decoding should fail")
        } catch {
            let text = "\(error) \(String(reflecting: error))"
            #expect(!text.contains("15058600049"))
            #expect(!text.contains("00049"))
            #expect(text.contains("second check digit"))
        }
    }

    @Test("Encoding round-trips the digits; the test context decodes synthetic numbers")
    func codable() throws {
        let data = try JSONEncoder().encode([number])
        #expect(try JSONDecoder().decode([Personnummer].self, from: data) == [number])

        let synthetic = Data(#""15858600003""#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Personnummer.self, from: synthetic) }
        let decoder = JSONDecoder()
        decoder.userInfo[.personnummerContext] = Personnummer.Context.test
        #expect(try decoder.decode(Personnummer.self, from: synthetic).syntheticIssuer == .tenor)
    }
}
