import PortvaktProtocol

/// Why a grant at the token endpoint was refused (RFC 6749 §5.2): a code, a refresh token or a
/// device assertion. Shaped like ``DomainError``; the server maps it once to its OAuth answer.
public struct GrantRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// `invalid_grant`: the code, token or assertion is not good (with the app's message).
        case invalidGrant
        /// The session has ended: log in again.
        case sessionEnded
        /// The device's trust has lapsed: log in with BankID or Vipps (`reauthentication_required`).
        case reauthenticationRequired
        /// The DPoP proof is missing where the grant is bound to a key, or it is not acceptable.
        case proofInvalid
        /// Too many failed attempts; wait (`slow_down`, 429).
        case throttled
        /// The database did not answer: try again, never "logged out" (`temporarily_unavailable`, 503).
        case unavailable
    }

    public let kind: Kind
    /// An English sentence that is safe to show (no number, no secret).
    public let description: String
    /// What the app shows, if anything.
    public let message: UserMessage?

    private init(_ kind: Kind, _ description: String, message: UserMessage? = nil) {
        self.kind = kind
        self.description = description
        self.message = message
    }

    public static func invalidGrant(_ description: String, message: UserMessage? = nil) -> GrantRefusal {
        GrantRefusal(.invalidGrant, description, message: message)
    }

    public static let sessionEnded = GrantRefusal(.sessionEnded, "The session has ended; log in again.", message: .sessionExpired)

    /// An operator disabled the account; its sessions ended with it (issue 45 item 5).
    public static let accountDisabled = GrantRefusal(.invalidGrant, "The account is disabled.", message: .accountDisabled)

    public static let reauthenticationRequired = GrantRefusal(
        .reauthenticationRequired, "The device is no longer trusted; log in with BankID or Vipps.", message: .reauthenticationRequired
    )

    public static func proofInvalid(_ description: String) -> GrantRefusal { GrantRefusal(.proofInvalid, description) }

    public static let proofReplayed = proofInvalid("This proof was used before; sign a new one for every request.")

    public static let unavailable = GrantRefusal(.unavailable, "Portvakt cannot answer right now; try again shortly.", message: .temporarilyUnavailable)

    public static let throttled = GrantRefusal(.throttled, "Too many failed attempts; wait a little.", message: .tooManyAttempts)
}
