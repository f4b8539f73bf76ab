import Foundation
import PortvaktCore

/// A member system's export as `portvakt-server members import` reads it: CSV (RFC 4180) with a
/// header row, or JSON lines, both UTF-8, one member per record. Pure: no I/O, no validation of
/// the values beyond the file's own shape (``MemberDirectory/plan(_:in:removeMissing:)`` checks
/// personnummer, email and phone and reports them by line).
///
/// The file is the truth for what it names: an empty cell clears the attribute, an empty
/// personnummer cell removes the number on record. A personnummer column (or JSON key) that is not
/// there at all says nothing about the number: ``PersonnummerChange/keep``.
///
/// No error text carries a cell's value except the role word and a column or key name, and those
/// show no digits (``quoted(_:)``): a personnummer in the wrong column never reaches a report.
public enum MemberFile {
    /// The columns (CSV) and keys (JSON lines) a file may name.
    enum Column: String, CaseIterable, Sendable {
        case externalID = "external_id"
        case givenName = "given_name"
        case familyName = "family_name"
        case email, phone, personnummer, role
        case memberNumber = "member_number"

        /// `external_id, given_name, …` for an error text.
        static let list = allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// Every record of `data`, with the physical line it starts on, and every bad record's reason.
    /// - Parameters:
    ///   - data: the file: CSV, or JSON lines when its first non-whitespace byte is `{`; a UTF-8
    ///     byte-order mark is skipped.
    ///   - progress: told the number of lines read so far, every few thousand records (a terminal's
    ///     progress line).
    /// - Returns: the entries in file order (a repeated `external_id` is reported and only its first
    ///   record kept) and the errors in line order. Any error means the file must not be applied.
    public static func parse(
        _ data: Data, progress: (_ lines: Int) -> Void = { _ in }
    ) -> (entries: [(line: Int, entry: MemberEntry)], errors: [ImportPlan.LineError]) {
        var bytes = [UInt8](data)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let firstByte = bytes.first(where: { !asciiWhitespace.contains($0) })
        let records = firstByte == UInt8(ascii: "{") ? jsonLines(bytes, progress: progress) : csv(bytes, progress: progress)

        var entries: [(line: Int, entry: MemberEntry)] = []
        var errors = records.errors
        var firstLine: [String: Int] = [:]
        entries.reserveCapacity(records.entries.count)
        for (line, entry) in records.entries {
            if let first = firstLine[entry.externalID] {
                errors.append(.init(line: line, reason: "duplicate external_id: also on line \(first)"))
                continue
            }
            firstLine[entry.externalID] = line
            entries.append((line, entry))
        }
        // By line; a line's reasons in the order they were found.
        let ordered = errors.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map { $0.element }
        return (entries, ordered)
    }

    /// A cell or name for an error text: at most 40 characters, control characters escaped, every
    /// digit as `#` (a personnummer in the wrong column shows its shape, never its digits).
    static func quoted(_ text: String) -> String {
        let short = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return String(Redactor.escapingControlCharacters(short).map { $0.isASCII && $0.isNumber ? "#" : $0 })
    }

    static let asciiWhitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]

    /// One record's cells by column: a column the file does not have is absent from `values`; an
    /// empty cell (or a JSON null) is "". Each problem is one reason; with any, no entry.
    static func entry(_ values: [Column: String], line: Int) -> (entry: MemberEntry?, errors: [ImportPlan.LineError]) {
        func value(_ column: Column) -> String? {
            guard let text = values[column]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        var reasons: [String] = []
        let externalID = value(.externalID)
        if externalID == nil { reasons.append("external_id is empty") }
        var role = Role.peerMentor
        if let word = value(.role) {
            if let known = Role(rawValue: word.lowercased()) {
                role = known
            } else {
                reasons.append("unknown role '\(quoted(word))' (peer_mentor, coordinator or org_admin)")
            }
        }
        let memberNumber = value(.memberNumber)
        let email = value(.email)
        let userName = memberNumber ?? email?.lowercased()
        if userName == nil { reasons.append("needs member_number or email") }
        let personnummer: PersonnummerChange = switch values[.personnummer] {
        case nil: .keep
        case .some: value(.personnummer).map(PersonnummerChange.set) ?? .remove
        }
        guard reasons.isEmpty, let externalID, let userName else {
            return (nil, reasons.map { ImportPlan.LineError(line: line, reason: $0) })
        }
        let entry = MemberEntry(
            externalID: externalID, userName: userName, givenName: value(.givenName), familyName: value(.familyName),
            email: email, phone: value(.phone), role: role, active: true, memberNumber: memberNumber, personnummer: personnummer
        )
        return (entry, [])
    }

    /// What a reader found: good records and reasons, before the check for repeated ids.
    struct Records {
        var entries: [(line: Int, entry: MemberEntry)] = []
        var errors: [ImportPlan.LineError] = []

        mutating func add(_ values: [Column: String], line: Int) {
            let read = MemberFile.entry(values, line: line)
            if let entry = read.entry { entries.append((line, entry)) }
            errors += read.errors
        }
    }

    /// How often the readers call `progress`.
    static let progressEvery = 5_000
}
