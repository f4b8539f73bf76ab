import Testing
@testable import Personnummer

@Suite("Dates and centuries")
struct DateAndCenturyTests {
    @Test("Century boundaries of the individual number", arguments: [
        ("31129949980", 1999), // 000–499 → 1900s
        ("01015450068", 1854), // 500–749 with year ≥ 54 → 1800s
        ("01015474943", 1854), // 749, still 1800s
        ("01010050053", 2000), // 500–999 with year < 40 → 2000s
        ("01012450083", 2024),
        ("01014090017", 1940), // 900–999 with year ≥ 40 → 1900s
    ])
    func centuries(digits: String, year: Int) throws {
        #expect(try Personnummer(digits, today: testToday).birthDate.year == year)
    }

    @Test("Individual numbers that fit no century are refused", arguments: [
        "01015350047", // 500–749 with year 40–53
        "01018075071", // 750–899 with year ≥ 40
    ])
    func noCentury(digits: String) {
        #expect(throws: PersonnummerError.century) { try Personnummer(digits, today: testToday) }
    }

    @Test("Dates that do not exist are refused", arguments: [
        "29020000064", // 29 February 1900: not a leap year
        "31048600053", // 31 April
    ])
    func impossibleDates(digits: String) {
        #expect(throws: PersonnummerError.date) { try Personnummer(digits, today: testToday) }
    }

    @Test("29 February 2000 exists")
    func leapDay() throws {
        #expect(try Personnummer("29020050088", today: testToday).birthDate == CalendarDate(year: 2000, month: 2, day: 29))
    }

    @Test("A birth date in the future is refused; today is allowed")
    func futureDates() throws {
        #expect(throws: PersonnummerError.futureDate) { try Personnummer("01013950187", today: testToday) }
        let number = try Personnummer("01012450083", today: testToday)
        let birthDay = number.birthDate
        #expect(try Personnummer("01012450083", today: birthDay).birthDate == birthDay)
        let dayBefore = CalendarDate(year: 2023, month: 12, day: 31)!
        #expect(throws: PersonnummerError.futureDate) { try Personnummer("01012450083", today: dayBefore) }
    }
}
