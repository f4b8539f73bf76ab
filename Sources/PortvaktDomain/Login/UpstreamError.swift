/// Why a call to BankID or Vipps did not give a usable answer. The two cases lead to different
/// messages: an unavailable provider makes the app offer the other one, a rejected login a retry.
public enum UpstreamError: Error, Sendable, CustomStringConvertible {
    /// Unreachable, timed out, 5xx, or an answer that is not what the protocol promises.
    case unavailable(String)
    /// No answer within the time the caller allowed.
    case timedOut(String)
    /// The provider answered, and the answer refuses the login or does not verify.
    case rejected(String)

    public var description: String {
        switch self {
        case .unavailable(let reason): "provider unavailable: \(reason)"
        case .timedOut(let reason): "provider timed out: \(reason)"
        case .rejected(let reason): "login rejected: \(reason)"
        }
    }
}
