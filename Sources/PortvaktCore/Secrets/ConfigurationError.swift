/// A setting that is missing or malformed; the message names the setting and never its value.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
