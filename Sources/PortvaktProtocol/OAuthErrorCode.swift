/// Every `error` an answer of Portvakt's can carry, and the ones its clients read: the OAuth
/// and OpenID codes of the standards Portvakt speaks, then Portvakt's own for its API. One
/// closed list, so a misspelt code does not compile. Portvakt may add codes: a client switches
/// over them with a `default`, and reads an answer's `error` with `init(rawValue:)`.
public enum OAuthErrorCode: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    // RFC 6749 §4.1.2.1 and §5.2
    case invalidRequest = "invalid_request"
    case invalidClient = "invalid_client"
    case invalidGrant = "invalid_grant"
    case unauthorizedClient = "unauthorized_client"
    case unsupportedGrantType = "unsupported_grant_type"
    case unsupportedResponseType = "unsupported_response_type"
    case invalidScope = "invalid_scope"
    case accessDenied = "access_denied"
    case serverError = "server_error"
    case temporarilyUnavailable = "temporarily_unavailable"
    /// OpenID Connect Core §3.1.2.6.
    case loginRequired = "login_required"
    /// OIDC Core §3.1.2.6: `prompt=none`, and the person has not yet let this client have what it asks for.
    case consentRequired = "consent_required"
    /// OIDC Core §3.1.2.6: `prompt=none`, and the browser's sign-in cannot answer without a page.
    case interactionRequired = "interaction_required"
    // RFC 6750 §3.1
    case invalidToken = "invalid_token"
    case insufficientScope = "insufficient_scope"
    /// RFC 9470: a fresher or stronger authentication (a step-up) is needed.
    case insufficientUserAuthentication = "insufficient_user_authentication"
    // RFC 9449
    case invalidDPoPProof = "invalid_dpop_proof"
    case useDPoPNonce = "use_dpop_nonce"
    /// RFC 8628 §3.5's "slow down", for every throttle.
    case slowDown = "slow_down"
    // Portvakt's API
    case notFound = "not_found"
    /// RFC 9110 §15.5.6: the path exists, with other methods (`Allow`).
    case methodNotAllowed = "method_not_allowed"
    case conflict
    case mergeRefused = "merge_refused"
    case reauthenticationRequired = "reauthentication_required"
    case idempotencyKeyReused = "idempotency_key_reused"
    case deviceLimitReached = "device_limit_reached"
    /// Said by a client, never by Portvakt: the answer was not one of Portvakt's.
    case badResponse = "bad_response"

    /// The wire form, so a code interpolated into a header or a log line says `invalid_grant`.
    public var description: String { rawValue }
}
