import Foundation
import PortvaktCore

/// The associated data each sealed payload is bound to: the row it belongs to, so a ciphertext
/// copied to another row does not open.
public enum SealingContext {
    public static func membershipClaim(_ id: String) -> String { "membership-claim:\(id)" }
    public static func bankIDOrder(_ id: String) -> String { "bankid-order:\(id)" }
    public static let portalLogin = "portal-login"

    /// The kinds of `login_flows` rows besides a provider login (whose kind is its method).
    public enum LoginFlowKind {
        public static let pushedRequest = "par"
        public static let continuation = "continuation"
        /// A request waiting for the person's consent (`/oauth/consent`).
        public static let consent = "consent"
    }

    public static func loginFlow(kind: String, id: String) -> String {
        switch kind {
        case LoginFlowKind.pushedRequest: "pushed-request:\(id)"
        case LoginFlowKind.continuation: "authorization-continuation:\(id)"
        case LoginFlowKind.consent: "consent-request:\(id)"
        default: "login-flow:\(id)"
        }
    }
}

extension User {
    /// The record name a user's personnummer is sealed under (``PersonnummerVault``).
    public static func personnummerRecord(userID: String) -> String { "user:\(userID)" }
}
