/// A valid Norwegian national identity number (fødselsnummer, D-number or H-number, or a synthetic
/// test number where the context allows it).
///
/// The value never shows its digits by accident: `description`, `debugDescription`, string
/// interpolation, `dump` and decoding errors all redact them. Read ``digits`` only to encrypt,
/// index or send the number where it belongs, and ``masked`` to show it to its owner.
public struct Personnummer: Hashable, Sendable {
    /// The eleven digits. Handle with care: never log them.
    public let digits: String
    public let kind: Kind
    /// Set when the number is a synthetic test number (only in the `.test` context).
    public let syntheticIssuer: SyntheticIssuer?
    public let birthDate: CalendarDate

    /// Parses and validates a personnummer.
    ///
    /// Spaces anywhere and one hyphen after the six date digits are allowed (`150586-12345`).
    /// - Parameters:
    ///   - text: the number as typed or received.
    ///   - context: `.production` refuses synthetic numbers; `.test` reads month offsets as synthetic.
    ///   - today: the current date in Norway; birth dates after it are refused, and from 2032 the
    ///     first check digit may also leave a remainder of 1–3.
    /// - Throws: ``PersonnummerError`` naming the rule that failed.
    public init(_ text: some StringProtocol, context: Context = .production, today: CalendarDate = .today()) throws(PersonnummerError) {
        let d = try Self.digits(in: text)

        var day = d[0] * 10 + d[1]
        var month = d[2] * 10 + d[3]
        let shortYear = d[4] * 10 + d[5]
        let individual = d[6] * 100 + d[7] * 10 + d[8]

        var kind = Kind.fodselsnummer
        if day > 40 {
            day -= 40
            kind = .dNumber
        }
        var synthetic: SyntheticIssuer?
        switch month {
        case 81...92:
            guard context == .test else { throw .synthetic }
            month -= 80
            synthetic = .tenor
        case 41...52:
            month -= 40
            if context == .test { synthetic = .nav } else if kind == .fodselsnummer { kind = .hNumber }
        default:
            break
        }

        guard let century = Self.century(individual: individual, shortYear: shortYear) else { throw .century }
        guard let birthDate = CalendarDate(year: century + shortYear, month: month, day: day) else { throw .date }
        guard birthDate <= today else { throw .futureDate }
        guard CheckDigits.firstIsValid(d, allowing2032Rule: today.year >= 2032) else { throw .firstCheckDigit }
        guard CheckDigits.secondIsValid(d) else { throw .secondCheckDigit }

        self.digits = String(decoding: d.map { UInt8($0) + UInt8(ascii: "0") }, as: UTF8.self)
        self.kind = kind
        self.syntheticIssuer = synthetic
        self.birthDate = birthDate
    }

    /// Whether this is a synthetic test number (NAV/Dolly or Tenor).
    public var isSynthetic: Bool { syntheticIssuer != nil }

    /// The six date digits followed by five asterisks (`150586*****`): the individual number and
    /// the check digits never appear.
    public var masked: String { String(digits.prefix(6)) + "*****" }

    /// The eleven digits of `text` once spaces and a hyphen after the date are removed.
    ///
    /// Reads the UTF-8 bytes, so only ASCII digits count: a digit followed by a combining mark,
    /// a fullwidth digit or any other non-ASCII byte is refused rather than read as a digit.
    private static func digits(in text: some StringProtocol) throws(PersonnummerError) -> [Int] {
        var digits: [Int] = []
        var sawHyphen = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "):
                continue
            case UInt8(ascii: "-"):
                guard !sawHyphen, digits.count == 6 else { throw .separators }
                sawHyphen = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard digits.count < 11 else { throw .length }
                digits.append(Int(byte - UInt8(ascii: "0")))
            default:
                throw .characters
            }
        }
        guard digits.count == 11 else { throw .length }
        return digits
    }

    /// The century from the individual number (digits 7–9) and the two-digit year.
    private static func century(individual: Int, shortYear: Int) -> Int? {
        switch (individual, shortYear) {
        case (0...499, _): 1900
        case (500...749, 54...99): 1800
        case (500...999, 0...39): 2000
        case (900...999, 40...99): 1900
        default: nil
        }
    }
}
