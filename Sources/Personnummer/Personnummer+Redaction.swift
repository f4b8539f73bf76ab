extension Personnummer: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Personnummer(redacted)" }
    public var debugDescription: String { "Personnummer(kind: \(kind.rawValue), redacted)" }
    /// `dump` and debuggers see no stored digits.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension CodingUserInfoKey {
    /// Set to a ``Personnummer/Context`` to decode synthetic numbers (the sandbox); default `.production`.
    public static let personnummerContext = CodingUserInfoKey(rawValue: "no.portvakt.personnummer.context")!
}

extension Personnummer: Codable {
    /// Decodes the eleven digits; a decoding error says which rule failed, never the value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        let context = decoder.userInfo[.personnummerContext] as? Context ?? .production
        do {
            try self.init(text, context: context)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the eleven digits: only encode into storage or channels meant for them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(digits)
    }
}
