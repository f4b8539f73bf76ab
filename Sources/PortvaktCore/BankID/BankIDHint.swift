/// What a BankID order's status and hint code (relying-party API v6 `collect`) tell the user.
/// Hint codes BankID adds later get a generic message, never a crash.
public enum BankIDHint {
    /// The message for a pending order.
    public static func pendingMessage(_ hintCode: String?) -> UserMessage {
        switch hintCode {
        case "outstandingTransaction", "noClient": .bankIDStartApp
        case "started": .bankIDSearching
        case "userSign": .bankIDSignInApp
        default: .bankIDWaiting
        }
    }

    /// The message for a failed order.
    public static func failureMessage(_ hintCode: String?) -> UserMessage {
        switch hintCode {
        case "userCancel", "cancelled": .bankIDCancelled
        case "expiredTransaction": .bankIDExpired
        case "certificateErr": .bankIDCertificateError
        case "startFailed": .bankIDStartFailed
        default: .loginFailed
        }
    }

    /// The OAuth error code (RFC 6749 §4.1.2.1) that travels with a failed order's message.
    public static func failureError(_ hintCode: String?) -> OAuthErrorCode {
        switch hintCode {
        case "userCancel", "cancelled", "expiredTransaction", "certificateErr", "startFailed": .accessDenied
        default: .serverError
        }
    }
}
