import PortvaktCore
import Testing

@Suite("Form fields and control characters")
struct FormFieldsTests {
    @Test("Fields split on & and the first =, values decoded; letters beyond ASCII and emoji pass")
    func splitsAndDecodes() throws {
        let fields = try FormFields.parse("grant_type=refresh_token&note=bl%C3%A5b%C3%A6r+og+%F0%9F%91%8D&empty=&eq=a=b&&name=Kari%20Nordmann")
        #expect(fields["grant_type"] == "refresh_token")
        #expect(fields["note"] == "blåbær og 👍")
        #expect(fields["empty"] == nil)
        #expect(fields["eq"] == "a=b")
        #expect(fields["name"] == "Kari Nordmann")
        // Unencoded non-ASCII, as a lenient client may send it.
        #expect(try FormFields.parse("city=Tromsø&emoji=👍🏽")["city"] == "Tromsø")
        #expect(try FormFields.parse("city=Tromsø&emoji=👍🏽")["emoji"] == "👍🏽")
    }

    @Test("A repeated name, bad percent-encoding or a control character is refused")
    func refusesWhatIsNotAField() {
        #expect(throws: FormFields.Problem.self) { try FormFields.parse("a=1&a=2") }
        #expect(throws: FormFields.Problem.self) { try FormFields.parse("a=%zz") }
        #expect(throws: FormFields.Problem.self) { try FormFields.parse("a=%C3") }
        for control in ["%00", "%09", "%0A", "%0D", "%1B", "%1F", "%7F", "%C2%85", "%C2%9F", "%E2%80%A8", "%E2%80%A9"] {
            #expect(throws: FormFields.Problem.self, "\(control)") { try FormFields.parse("a=x\(control)y") }
        }
    }

    @Test("Control characters: ASCII's C0 and DEL, C1, and the line and paragraph separators; nothing else")
    func controlCharacters() {
        for scalar in (0...0x1F).map({ Unicode.Scalar($0)! }) + ["\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{2028}", "\u{2029}"] {
            #expect(TextInput.isControl(scalar), "U+\(String(scalar.value, radix: 16))")
        }
        for scalar: Unicode.Scalar in [" ", "~", "A", "ø", "\u{A0}", "\u{200B}", "👍"] {
            #expect(!TextInput.isControl(scalar), "U+\(String(scalar.value, radix: 16))")
        }
        #expect(TextInput.hasControlCharacters("a\nb"))
        #expect(!TextInput.hasControlCharacters("a\nb\tc", allowingLineBreaks: true))
        #expect(TextInput.hasControlCharacters("a\u{7F}b", allowingLineBreaks: true))
    }
}
