import Testing
@testable import Personnummer

@Suite("Check digits")
struct CheckDigitTests {
    @Test("k1 remainder 11 gives 0")
    func firstCheckDigitZero() throws {
        #expect(try Personnummer("15058601508", today: testToday).digits == "15058601508")
    }

    @Test("k2 remainder 11 gives 0")
    func secondCheckDigitZero() throws {
        #expect(try Personnummer("15058600390", today: testToday).digits == "15058600390")
    }

    @Test("A wrong first check digit is named")
    func wrongFirst() {
        #expect(throws: PersonnummerError.firstCheckDigit) { try Personnummer("15058600058", today: testToday) }
    }

    @Test("A wrong second check digit is named")
    func wrongSecond() {
        #expect(throws: PersonnummerError.secondCheckDigit) { try Personnummer("15058600049", today: testToday) }
    }

    @Test("Remainder 10 leaves no valid k1 before 2032: every digit is refused")
    func remainderTenHasNoValidNumber() {
        for k1 in 0...9 {
            for k2 in 0...9 {
                #expect(throws: PersonnummerError.self) {
                    try Personnummer("150586008\(k1)\(k2)", today: testToday)
                }
            }
        }
    }

    @Test("From 2032 a k1 remainder of 1–3 is valid; before, it is not", arguments: [
        "15058600803", // remainder 1, where the classic rule has no valid k1 at all
        "15058600811", // remainder 2
        "15058600064", // remainder 2, beside the classic 15058600048
    ])
    func rule2032(digits: String) throws {
        let lastDayBefore = CalendarDate(year: 2031, month: 12, day: 31)!
        let firstDayOf2032 = CalendarDate(year: 2032, month: 1, day: 1)!
        #expect(throws: PersonnummerError.firstCheckDigit) { try Personnummer(digits, today: lastDayBefore) }
        #expect(try Personnummer(digits, today: firstDayOf2032).digits == digits)
    }

    @Test("The 2032 rule leaves k2 unchanged")
    func rule2032KeepsSecondCheckDigit() {
        let from2032 = CalendarDate(year: 2032, month: 6, day: 1)!
        #expect(throws: PersonnummerError.secondCheckDigit) { try Personnummer("15058600065", today: from2032) }
    }
}
