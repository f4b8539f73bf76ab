import Foundation
import PortvaktCore

/// CSV as RFC 4180 writes it: fields separated by commas, a field in double quotes may hold
/// commas, line breaks and `""` for a quote; records end in CRLF or LF (or a lone CR). The first
/// record that is not blank is the header.
extension MemberFile {
    static func csv(_ bytes: ArraySlice<UInt8>, progress: (Int) -> Void) -> Records {
        var found = Records()
        var columns: [MemberFile.Column]?
        var reader = CSVReader(bytes)
        var count = 0
        while let record = reader.next() {
            count += 1
            if count % progressEvery == 0 { progress(reader.line - 1) }
            if record.isBlank { continue }
            if let problem = record.problem {
                found.errors.append(.init(line: record.line, reason: problem))
                if columns == nil { return found }  // a header that cannot be read names nothing
                continue
            }
            guard let columns else {
                let named = header(record.fields, line: record.line)
                guard named.errors.isEmpty else {
                    found.errors += named.errors
                    return found
                }
                columns = named.columns
                continue
            }
            guard record.fields.count == columns.count else {
                found.errors.append(.init(line: record.line, reason: "\(record.fields.count) \(record.fields.count == 1 ? "field" : "fields"), but the header names \(columns.count)"))
                continue
            }
            var values: [Column: String] = [:]
            for (column, field) in zip(columns, record.fields) { values[column] = field }
            found.add(values, line: record.line)
        }
        if columns == nil, found.errors.isEmpty {
            found.errors.append(.init(line: 1, reason: "the file is empty: the first line must name the columns (\(Column.list))"))
        }
        progress(reader.completeLines)
        return found
    }

    /// The columns the header names, in order; any unknown or repeated name, a missing
    /// `external_id`, or neither `member_number` nor `email` is an error for the header's line.
    static func header(_ fields: [String], line: Int) -> (columns: [Column], errors: [ImportPlan.LineError]) {
        var columns: [Column] = []
        var reasons: [String] = []
        for field in fields {
            let name = field.trimmingCharacters(in: .whitespaces).lowercased()
            guard let column = Column(rawValue: name) else {
                if name.isEmpty {
                    reasons.append("a column without a name (the columns are \(Column.list))")
                    continue
                }
                reasons.append("unknown column '\(quoted(name))' (the columns are \(Column.list))")
                continue
            }
            if columns.contains(column) { reasons.append("column '\(name)' appears twice") }
            columns.append(column)
        }
        if !columns.contains(.externalID) { reasons.append("the header has no external_id column") }
        if !columns.contains(.memberNumber) && !columns.contains(.email) {
            reasons.append("the header needs a member_number or an email column (the member's user name)")
        }
        return (columns, reasons.map { ImportPlan.LineError(line: line, reason: $0) })
    }
}

/// Reads RFC 4180 records from UTF-8 bytes, counting physical lines.
struct CSVReader {
    struct Record {
        /// The physical line the record starts on (a quoted field may span several).
        let line: Int
        var fields: [String] = []
        /// Why the record cannot be read (a stray quote, text that is not UTF-8, a quote never closed).
        var problem: String?
        /// Nothing but whitespace and commas, and no quotes: an empty line (or a spreadsheet's
        /// empty row), skipped.
        var isBlank = false
    }

    private let bytes: ArraySlice<UInt8>
    private var index: Int
    /// The physical line the reader is on (1-based).
    private(set) var line = 1

    /// The lines read so far, the last one counted once the file ends even without a line break.
    var completeLines: Int {
        guard index == bytes.endIndex, let last = bytes.last, last != Self.lf, last != Self.cr else { return line - 1 }
        return line
    }

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    private static let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")

    mutating func next() -> Record? {
        guard index < bytes.endIndex else { return nil }
        var record = Record(line: line)
        var field: [UInt8] = []
        var quoted = false
        var notText = false
        func fail(_ reason: String) { if record.problem == nil { record.problem = reason } }
        while true {
            field.removeAll(keepingCapacity: true)
            if index < bytes.endIndex, bytes[index] == Self.quote {
                quoted = true
                guard readQuoted(into: &field) else {
                    fail("a quoted field that starts on this line is never closed (a \" is missing)")
                    record.fields.append("")
                    return record
                }
                if index < bytes.endIndex, ![Self.comma, Self.cr, Self.lf].contains(bytes[index]) {
                    fail("after a closing quote comes a comma or the end of the line (write a quote inside a quoted field as \"\")")
                    while index < bytes.endIndex, ![Self.comma, Self.cr, Self.lf].contains(bytes[index]) { index += 1 }
                }
            } else {
                while index < bytes.endIndex {
                    let byte = bytes[index]
                    if byte == Self.comma || byte == Self.cr || byte == Self.lf { break }
                    if byte == Self.quote { fail("a quote (\") inside a field that does not start with one: put the field in quotes and write the quote as \"\"") }
                    field.append(byte)
                    index += 1
                }
            }
            if let text = String(validating: field, as: UTF8.self) {
                record.fields.append(text)
            } else {
                notText = true
                record.fields.append("")
            }
            guard index < bytes.endIndex else { break }
            if bytes[index] == Self.comma {
                index += 1
                continue
            }
            skipLineBreak()
            break
        }
        if notText { fail("not UTF-8 text (save the file as UTF-8)") }
        record.isBlank = !quoted && record.problem == nil
            && record.fields.allSatisfy { $0.allSatisfy { $0 == " " || $0 == "\t" } }
        return record
    }

    /// Reads a quoted field from its opening quote through its closing one; false when the file
    /// ends first.
    private mutating func readQuoted(into field: inout [UInt8]) -> Bool {
        index += 1
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == Self.quote {
                if index + 1 < bytes.endIndex, bytes[index + 1] == Self.quote {
                    field.append(Self.quote)
                    index += 2
                    continue
                }
                index += 1
                return true
            }
            if byte == Self.lf || (byte == Self.cr && !(index + 1 < bytes.endIndex && bytes[index + 1] == Self.lf)) { line += 1 }
            field.append(byte)
            index += 1
        }
        return false
    }

    /// Past CRLF, LF or a lone CR: the next physical line.
    private mutating func skipLineBreak() {
        if bytes[index] == Self.cr, index + 1 < bytes.endIndex, bytes[index + 1] == Self.lf { index += 1 }
        index += 1
        line += 1
    }
}
