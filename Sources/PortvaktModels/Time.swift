import Foundation

// Times as the schema stores them, and new ids.

extension Date {
    /// Unix time in whole milliseconds, as the schema stores times.
    public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }

    public init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

extension Optional where Wrapped == Date {
    package var milliseconds: Int64? { map(\.millisecondsSince1970) }
}

extension Optional where Wrapped == Int64 {
    package var date: Date? { map(Date.init(millisecondsSince1970:)) }
}

/// A new random id in the schema's text form.
package func newID() -> String { UUID().uuidString.lowercased() }
