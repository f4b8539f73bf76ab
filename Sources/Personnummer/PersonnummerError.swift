/// Why a string is not a valid personnummer. Names the rule that failed, never the digits.
public struct PersonnummerError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case separators, length, characters, date, century, futureDate, synthetic
        case firstCheckDigit, secondCheckDigit
    }

    private let code: Code

    private init(_ code: Code) { self.code = code }

    /// More than one hyphen, or a hyphen anywhere but after the six date digits.
    public static let separators = Self(.separators)
    /// Not eleven digits once spaces and the hyphen are removed.
    public static let length = Self(.length)
    /// Contains something other than digits, spaces and one hyphen.
    public static let characters = Self(.characters)
    /// The first six digits are not a real calendar date.
    public static let date = Self(.date)
    /// The individual number does not belong to any century for this birth year.
    public static let century = Self(.century)
    /// The birth date lies in the future.
    public static let futureDate = Self(.futureDate)
    /// A synthetic test number where only real numbers are accepted.
    public static let synthetic = Self(.synthetic)
    /// The first check digit (k1) does not match.
    public static let firstCheckDigit = Self(.firstCheckDigit)
    /// The second check digit (k2) does not match.
    public static let secondCheckDigit = Self(.secondCheckDigit)

    /// A stable machine-readable name of the failed rule, for example `firstCheckDigit`.
    public var rule: String { code.rawValue }

    public var description: String {
        switch code {
        case .separators: "personnummer: only spaces and one hyphen after the date are allowed"
        case .length: "personnummer: must have exactly eleven digits"
        case .characters: "personnummer: may contain only digits"
        case .date: "personnummer: the first six digits are not a real date"
        case .century: "personnummer: the individual number does not fit the birth year"
        case .futureDate: "personnummer: the birth date is in the future"
        case .synthetic: "personnummer: synthetic test numbers are not accepted here"
        case .firstCheckDigit: "personnummer: the first check digit is wrong"
        case .secondCheckDigit: "personnummer: the second check digit is wrong"
        }
    }
}
