import PortvaktCore
import Crypto
import Foundation

/// A simulated provider's short-lived state: authorization codes, access tokens, and the client
/// assertions already seen. Codes are single-use: redeeming removes them, and a second redemption
/// revokes the access tokens the first one produced (RFC 6749 §4.1.2).
actor ProviderState {
    private struct IssuedCode {
        let grant: AuthorizationGrant
        let expiresAt: Date
    }

    private var codes: [String: IssuedCode] = [:]
    /// Redeemed codes and the access token each produced, so a replay can revoke it.
    private var redeemed: [String: (accessToken: String, until: Date)] = [:]
    private var accessTokens: [String: AccessGrant] = [:]
    private var assertionIDs: [String: Date] = [:]

    enum Redemption {
        case valid(AuthorizationGrant)
        case unknown
        case expired
        case replayed
    }

    func issueCode(for grant: AuthorizationGrant, expiresAt: Date) -> String {
        let code = randomToken()
        codes[code] = IssuedCode(grant: grant, expiresAt: expiresAt)
        return code
    }

    /// Takes the code out; nothing can redeem it again.
    func redeem(_ code: String, now: Date) -> Redemption {
        purge(now: now)
        if let issued = codes.removeValue(forKey: code) {
            redeemed[code] = ("", issued.expiresAt.addingTimeInterval(3600))
            return issued.expiresAt > now ? .valid(issued.grant) : .expired
        }
        if let previous = redeemed[code] {
            accessTokens[previous.accessToken] = nil
            return .replayed
        }
        return .unknown
    }

    func issueAccessToken(for grant: AuthorizationGrant, code: String, expiresAt: Date) -> String {
        let token = randomToken()
        accessTokens[token] = AccessGrant(grant: grant, expiresAt: expiresAt)
        if let entry = redeemed[code] { redeemed[code] = (token, entry.until) }
        return token
    }

    func accessGrant(for token: String, now: Date) -> AccessGrant? {
        guard let grant = accessTokens[token], grant.expiresAt > now else { return nil }
        return grant
    }

    /// Records a client assertion's `jti`; false when it was seen before (RFC 7523 §3, item 7).
    func useAssertionID(_ id: String, until: Date, now: Date) -> Bool {
        purge(now: now)
        guard assertionIDs[id] == nil else { return false }
        assertionIDs[id] = until
        return true
    }

    private func purge(now: Date) {
        codes = codes.filter { $0.value.expiresAt.addingTimeInterval(3600) > now }
        redeemed = redeemed.filter { $0.value.until > now }
        accessTokens = accessTokens.filter { $0.value.expiresAt > now }
        assertionIDs = assertionIDs.filter { $0.value > now }
    }
}
