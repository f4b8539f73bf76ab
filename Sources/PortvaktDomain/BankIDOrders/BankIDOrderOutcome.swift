import Foundation
import PortvaktCore
import PortvaktProtocol

/// Where an order stands, as the app is told.
public enum BankIDOrderOutcome: Sendable, Equatable {
    case pending(hintCode: String?, message: UserMessage, expiresAt: Date)
    /// `error` is the OAuth error code that travels with the message.
    case failed(hintCode: String?, message: UserMessage, error: OAuthErrorCode)
    /// The user identified; `code` is redeemed at `/oauth/token` with the PKCE verifier.
    case complete(code: String)

    /// Failures Portvakt decides itself use its own hint codes beside BankID's.
    public static func failure(_ hintCode: String?) -> BankIDOrderOutcome {
        switch hintCode {
        case BankIDOrderFlow.notRegistered: .failed(hintCode: hintCode, message: .notRegistered, error: .accessDenied)
        case BankIDOrderFlow.accountDisabled: .failed(hintCode: hintCode, message: .accountDisabled, error: .accessDenied)
        default: .failed(hintCode: hintCode, message: BankIDHint.failureMessage(hintCode), error: BankIDHint.failureError(hintCode))
        }
    }
}
