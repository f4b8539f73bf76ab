import Testing
@testable import Personnummer

/// 2026-11-21: the day these tests were written; fixed so that results never depend on the clock.
let testToday = CalendarDate(year: 2026, month: 11, day: 21)!

@Suite("Parsing")
struct ParsingTests {
    @Test("Spaces and one hyphen after the date are accepted", arguments: [
        "15058600048", "150586 00048", "150586-00048", " 150586 000 48 ", "150586 - 00048",
    ])
    func acceptsSeparators(text: String) throws {
        let number = try Personnummer(text, today: testToday)
        #expect(number.digits == "15058600048")
    }

    @Test("Malformed text names the rule that failed", arguments: [
        ("150586--00048", PersonnummerError.separators),
        ("1505-8600048", .separators),
        ("15058600048-", .separators),
        ("1505860004", .length),
        ("150586000480", .length),
        ("", .length),
        ("15058600O48", .characters),
        ("150586\u{2013}00048", .characters),
        ("+15058600048", .characters),
        ("١٥٠٥٨٦٠٠٠٤٨", .characters),
    ])
    func refusesMalformedText(text: String, expected: PersonnummerError) {
        #expect(throws: expected) { try Personnummer(text, today: testToday) }
    }

    @Test("Every error message is free of digits")
    func errorMessagesHaveNoDigits() {
        let errors: [PersonnummerError] = [
            .separators, .length, .characters, .date, .century, .futureDate, .synthetic,
            .firstCheckDigit, .secondCheckDigit,
        ]
        for error in errors {
            let hasDigits = error.description.contains { $0.isNumber }
            #expect(!hasDigits, "\(error.rule)")
        }
    }
}
