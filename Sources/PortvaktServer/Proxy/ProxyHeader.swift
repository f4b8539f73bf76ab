/// The one header the trusted proxies write (`PORTVAKT_PROXY_HEADER`); the other is never read,
/// so a client cannot add it and be believed.
enum ProxyHeader: String, Sendable, CaseIterable {
    /// `X-Forwarded-For: client, proxy1, …`, the default.
    case xForwardedFor = "x-forwarded-for"
    /// `Forwarded: for=…` (RFC 7239).
    case forwarded
}
