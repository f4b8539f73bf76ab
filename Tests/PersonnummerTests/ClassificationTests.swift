import Testing
@testable import Personnummer

@Suite("Classification")
struct ClassificationTests {
    @Test("Fødselsnummer")
    func fodselsnummer() throws {
        let number = try Personnummer("15058600048", today: testToday)
        #expect(number.kind == .fodselsnummer)
        #expect(!number.isSynthetic)
        #expect(number.birthDate == CalendarDate(year: 1986, month: 5, day: 15))
    }

    @Test("D-number: day + 40")
    func dNumber() throws {
        let number = try Personnummer("55058600031", today: testToday)
        #expect(number.kind == .dNumber)
        #expect(number.birthDate == CalendarDate(year: 1986, month: 5, day: 15))
    }

    @Test("H-number: month + 40 in production")
    func hNumber() throws {
        let number = try Personnummer("15458600020", today: testToday)
        #expect(number.kind == .hNumber)
        #expect(number.syntheticIssuer == nil)
        #expect(number.birthDate == CalendarDate(year: 1986, month: 5, day: 15))
    }

    @Test("NAV synthetic: month + 40 in the test context")
    func navSynthetic() throws {
        let number = try Personnummer("15458600020", context: .test, today: testToday)
        #expect(number.kind == .fodselsnummer)
        #expect(number.syntheticIssuer == .nav)
        #expect(number.birthDate == CalendarDate(year: 1986, month: 5, day: 15))
    }

    @Test("Tenor synthetic: month + 80 in the test context, refused in production")
    func tenorSynthetic() throws {
        let number = try Personnummer("15858600003", context: .test, today: testToday)
        #expect(number.syntheticIssuer == .tenor)
        #expect(number.birthDate == CalendarDate(year: 1986, month: 5, day: 15))
        #expect(throws: PersonnummerError.synthetic) {
            try Personnummer("15858600003", context: .production, today: testToday)
        }
    }

    @Test("Masked form shows the date digits and hides the rest")
    func masked() throws {
        let number = try Personnummer("150586 00048", today: testToday)
        #expect(number.masked == "150586*****")
    }
}
