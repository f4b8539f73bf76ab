import PortvaktCore
import PortvaktHTTP
import Foundation

/// What a user approved at a simulated provider: who, for which client and redirect, with which
/// scopes, nonce and PKCE challenge. An authorization code stands for one of these.
struct AuthorizationGrant: Sendable {
    let clientID: String
    let redirectURI: String
    let user: TestUser
    let scopes: Set<String>
    let nonce: String?
    /// S256 challenge (RFC 7636 §4.2), if the client sent one.
    let codeChallenge: String?
    /// BankID only.
    let level: BankIDLevel?
    let authTime: Date
    let sessionID: String
}

/// What an access token from a simulated provider lets the holder read at userinfo.
struct AccessGrant: Sendable {
    let grant: AuthorizationGrant
    let expiresAt: Date
}
