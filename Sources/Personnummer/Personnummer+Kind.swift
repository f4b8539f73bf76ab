extension Personnummer {
    /// What kind of identity number this is (Skatteetaten's numbering rules).
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Fødselsnummer: assigned at birth or immigration.
        case fodselsnummer
        /// D-number: for people with a temporary connection to Norway; day + 40.
        case dNumber
        /// H-number: a help number used in health services; month + 40.
        case hNumber
    }

    /// Who issued a synthetic test number.
    public enum SyntheticIssuer: String, Sendable, Hashable, Codable {
        /// NAV / Dolly test numbers: month + 40 (the same offset as H-numbers).
        case nav
        /// Skatteetaten's Tenor test numbers: month + 80.
        case tenor
    }

    /// Where a number is being read, which decides what the month offsets mean.
    ///
    /// Month + 40 is both the H-number offset and NAV's synthetic offset; the digits alone cannot
    /// tell them apart. In `.production` it is read as an H-number and month + 80 is refused; in
    /// `.test` (the sandbox) both offsets are synthetic numbers.
    public enum Context: Sendable, Hashable {
        case production
        case test
    }
}
