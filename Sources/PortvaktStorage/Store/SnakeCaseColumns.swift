import SQLKit
import Synchronization

/// The column name of a Codable property, as SQLKit's snake-case strategies name it:
/// `absoluteExpiresAt` is `absolute_expires_at` (and `userID` would be `user_iD`: only a word's
/// first letter is lowered). Each name is converted once: SQLKit converts every key of every row
/// again, which showed in profiles of the hot paths.
enum SnakeCaseColumns {
    private static let names = Mutex<[String: String]>([:])

    static let decoding = SQLRowDecoder.KeyDecodingStrategy.custom { path in ColumnKey(column(for: path.last?.stringValue ?? "")) }
    static let encoding = SQLQueryEncoder.KeyEncodingStrategy.custom { path in ColumnKey(column(for: path.last?.stringValue ?? "")) }

    static func column(for property: String) -> String {
        if let known = names.withLock({ $0[property] }) { return known }
        let column = snakeCased(property)
        names.withLock { $0[property] = column }
        return column
    }

    /// A word starts at a capital that follows a lower-case letter or digit, or at the last
    /// capital of a run that a lower-case letter follows; words are joined with `_`, each with
    /// its first letter lowered.
    static func snakeCased(_ name: String) -> String {
        let characters = Array(name)
        var column = ""
        for (index, character) in characters.enumerated() {
            var startsWord = index == 0
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    column.append("_")
                    startsWord = true
                }
            }
            column.append(contentsOf: startsWord ? character.lowercased() : String(character))
        }
        return column
    }
}

/// A column's name as a coding key.
struct ColumnKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ column: String) { stringValue = column }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
