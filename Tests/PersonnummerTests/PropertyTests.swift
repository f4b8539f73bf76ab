import Testing
@testable import Personnummer
import PortvaktTestSupport

/// Valid numbers built independently of the library: date, individual number, check digits.
struct ValidNumberGenerator {
    var random: any RandomNumberGenerator = SystemRandomNumberGenerator()

    mutating func next() -> String {
        while true {
            let year = Int.random(in: 1854...2025, using: &random)
            let month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...28, using: &random)
            let individual: Int = switch year {
            case ..<1900: Int.random(in: 500...749, using: &random)
            case 1900..<1940: Int.random(in: 0...499, using: &random)
            case 1940..<2000: Bool.random(using: &random) ? Int.random(in: 0...499, using: &random) : Int.random(in: 900...999, using: &random)
            default: Int.random(in: 500...999, using: &random)
            }
            var digits = [day / 10, day % 10, month / 10, month % 10, (year % 100) / 10, year % 10,
                          individual / 100, (individual / 10) % 10, individual % 10]
            guard let k1 = Self.checkDigit(digits, [3, 7, 6, 1, 8, 9, 4, 5, 2]) else { continue }
            digits.append(k1)
            guard let k2 = Self.checkDigit(digits, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) else { continue }
            digits.append(k2)
            return digits.map(String.init).joined()
        }
    }

    private static func checkDigit(_ digits: [Int], _ weights: [Int]) -> Int? {
        let k = 11 - zip(digits, weights).map(*).reduce(0, +) % 11
        return k == 11 ? 0 : (k == 10 ? nil : k)
    }
}

@Suite("Properties")
struct PropertyTests {
    @Test("Generated valid numbers parse, before and after 2032")
    func generatedNumbersAreValid() throws {
        var generator = ValidNumberGenerator()
        let later = CalendarDate(year: 2033, month: 1, day: 1)!
        for _ in 0..<2_000 {
            let digits = generator.next()
            #expect(try Personnummer(digits, today: testToday).digits == digits)
            #expect(try Personnummer(digits, today: later).digits == digits)
        }
    }

    @Test("Changing any single digit of a valid number makes it invalid, under both k1 rules")
    func singleDigitChangesAreCaught() {
        var generator = ValidNumberGenerator()
        let later = CalendarDate(year: 2033, month: 1, day: 1)!
        for _ in 0..<300 {
            let digits = Array(generator.next())
            for position in digits.indices {
                for replacement in "0123456789" where replacement != digits[position] {
                    var changed = digits
                    changed[position] = replacement
                    let text = String(changed)
                    #expect(throws: PersonnummerError.self) { try Personnummer(text, today: testToday) }
                    #expect(throws: PersonnummerError.self) { try Personnummer(text, today: later) }
                }
            }
        }
    }

    @Test("The mask never contains the individual number or the check digits")
    func maskHidesTheLastFive() throws {
        var generator = ValidNumberGenerator()
        for _ in 0..<1_000 {
            let number = try Personnummer(generator.next(), today: testToday)
            #expect(number.masked.count == 11)
            #expect(number.masked.hasPrefix(String(number.digits.prefix(6))))
            #expect(number.masked.hasSuffix("*****"))
        }
    }

    @Test("Swapping two different adjacent digits is caught")
    func transpositionsAreCaught() {
        var generator = ValidNumberGenerator()
        for _ in 0..<500 {
            let digits = Array(generator.next())
            for position in 0..<10 where digits[position] != digits[position + 1] {
                var swapped = digits
                swapped.swapAt(position, position + 1)
                #expect(throws: PersonnummerError.self) { try Personnummer(String(swapped), today: testToday) }
            }
        }
    }
}

@Suite("Hostile text")
struct HostileTextTests {
    @Test("A digit followed by a combining mark, a keycap or a fullwidth digit is refused, not a crash", arguments: [
        "190513\u{301}59561", "1\u{20E3}5058600048", "15058600048\u{301}", "\u{FF11}5058600048", "150586\u{A0}00048", "150586\u{0}00048",
    ])
    func lookalikeDigitsAreRefused(text: String) {
        #expect(throws: PersonnummerError.characters) { try Personnummer(text, today: testToday) }
    }

    @Test("Parsing any string ends with a number or a PersonnummerError, and a number is eleven ASCII digits")
    func parsingIsTotal() {
        var texts = HostileText(seed: 18)
        var valid = ValidNumberGenerator()
        for round in 0..<20_000 {
            // Every fourth input is a valid number with hostile text spliced in.
            var text = texts.next()
            if round % 4 == 0 {
                var digits = valid.next()
                digits.insert(contentsOf: texts.next(maxPieces: 2), at: digits.index(digits.startIndex, offsetBy: round % 12))
                text = digits
            }
            if let number = try? Personnummer(text, today: testToday) {
                #expect(number.digits.utf8.count == 11 && number.digits.utf8.allSatisfy { (48...57).contains($0) })
            }
        }
    }
}
