import Foundation
import PortvaktCore

/// JSON lines (jsonlines.org, also called NDJSON): one JSON object per line, with the CSV's column
/// names as keys and strings (or null, for empty) as values. Blank lines are skipped.
extension MemberFile {
    static func jsonLines(_ bytes: ArraySlice<UInt8>, progress: (Int) -> Void) -> Records {
        var found = Records()
        let decoder = JSONDecoder()
        var line = 0
        var start = bytes.startIndex
        while start < bytes.endIndex {
            line += 1
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let text = bytes[start..<end]
            start = end < bytes.endIndex ? end + 1 : end
            if line % progressEvery == 0 { progress(line) }
            guard text.contains(where: { !asciiWhitespace.contains($0) }) else { continue }
            guard String(validating: text, as: UTF8.self) != nil else {
                found.errors.append(.init(line: line, reason: "not UTF-8 text (save the file as UTF-8)"))
                continue
            }
            let cells: [String: Cell]
            do {
                cells = try decoder.decode([String: Cell].self, from: Data(text))
            } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
                let key = quoted(context.codingPath[0].stringValue)
                found.errors.append(.init(line: line, reason: "the value of '\(key)' must be a string in quotes (or null)"))
                continue
            } catch {
                found.errors.append(.init(line: line, reason: "not one JSON object on one line, like {\"external_id\": \"123\", \"email\": \"kari@example.org\"}"))
                continue
            }
            var values: [Column: String] = [:]
            var unknown: [String] = []
            for (key, cell) in cells {
                guard let column = Column(rawValue: key) else {
                    unknown.append(key)
                    continue
                }
                values[column] = cell.text
            }
            guard unknown.isEmpty else {
                for key in unknown.sorted() {
                    found.errors.append(.init(line: line, reason: "unknown key '\(quoted(key))' (the keys are \(Column.list))"))
                }
                continue
            }
            found.add(values, line: line)
        }
        progress(line)
        return found
    }

    /// A JSON string, or null as "".
    struct Cell: Decodable {
        let text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            text = try container.decodeNil() ? "" : container.decode(String.self)
        }
    }
}
