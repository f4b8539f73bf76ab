/// Why an operator command refused, in one line, with the exit code of sysexits(3) the command
/// ends with: 64 for a wrong argument, 65 for data the command cannot use (an unknown
/// organisation, a slug taken, a bad import file). Never carries a personnummer or a token.
public struct OperatorError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Int32, Sendable {
        case usage = 64
        case badData = 65
        case unavailable = 69
    }

    private let code: Code
    public let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// An argument the command cannot take as given (EX_USAGE).
    public static func usage(_ reason: String) -> Self { Self(.usage, reason) }
    /// Data that is wrong or does not fit what is stored (EX_DATAERR).
    public static func badData(_ reason: String) -> Self { Self(.badData, reason) }

    /// A service the command needs (the SMTP server, say) refused or did not answer (EX_UNAVAILABLE).
    public static func unavailable(_ reason: String) -> Self { Self(.unavailable, reason) }

    /// The process's exit code.
    public var exitCode: Int32 { code.rawValue }
}
