import Foundation

/// The client's address behind the proxies the operator trusts (`PORTVAKT_TRUSTED_PROXIES`).
///
/// Only a connection from a trusted proxy may say whom it forwards for, and only in the one header
/// the operator names (`PORTVAKT_PROXY_HEADER`: `X-Forwarded-For`, or `Forwarded` of RFC 7239);
/// the other header is the client's own and is never read. The hops are read from the right (the
/// nearest first); trusted proxies are skipped and the first address that is not one of them is
/// the client (RFC 7239 §7.4: anything left of it could have been written by the client). A
/// header with no usable hop (missing, no `for=`, not an address) leaves the peer as the client.
/// From any other peer the headers are ignored: the peer is the client.
struct ClientAddressResolver: Sendable {
    let trustedProxies: [IPNetwork]
    /// The header the trusted proxies write.
    var header: ProxyHeader = .xForwardedFor
    /// The header in which the trusted proxies pass on a trace they started or vouch for
    /// (`PORTVAKT_PROXY_TRACE_HEADER`); nil: a trusted proxy's requests start new traces.
    var traceHeader: String? = nil

    func clientAddress(peer: String?, forwarded: [String], forwardedFor: [String]) -> String {
        guard let peer = peer.flatMap(IPAddress.init) else { return "unknown" }
        guard isTrusted(peer) else { return peer.description }
        let hops: [String] = switch header {
        case .xForwardedFor: forwardedFor.flatMap { $0.split(separator: ",").map(Self.trimmed) }
        case .forwarded: forwarded.flatMap(Self.forValues)
        }
        var nearest = peer
        for hop in hops.reversed() {
            // An obfuscated or unknown hop (`for=_hidden`, `for=unknown`) cannot be believed: the
            // client is as far as the trusted proxies can vouch.
            guard let address = IPAddress(Self.withoutPort(hop)) else { break }
            guard isTrusted(address) else { return address.description }
            nearest = address
        }
        return nearest.description
    }

    /// The header whose trace a request from `peer` continues, so that strangers cannot choose
    /// which of their requests are sampled: from a trusted proxy only the header the operator
    /// named for it (a proxy passes a client's own `traceparent` on unread), from this machine
    /// that is no proxy (the embedded sandbox, a sidecar) `traceparent`, from anyone else none.
    func traceHeader(peer: String?) -> String? {
        guard let address = peer.flatMap(IPAddress.init) else { return nil }
        if isTrusted(address) { return traceHeader }
        return address.isLoopback ? "traceparent" : nil
    }

    private func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    /// The `for=` values of a `Forwarded` header, in order (`for=192.0.2.60;proto=https, for="[2001:db8::1]:4711"`).
    /// An element without `for=` gives "" (no usable hop), so the walk stops there instead of
    /// skipping to an element the client may have written.
    static func forValues(_ header: String) -> [String] {
        header.split(separator: ",").map { element in
            for pair in element.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, trimmed(parts[0]).lowercased() == "for" else { continue }
                var value = trimmed(parts[1])
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                return value
            }
            return ""
        }
    }

    /// `[2001:db8::1]:4711` → `[2001:db8::1]`, `192.0.2.43:47011` → `192.0.2.43`; a bare IPv6 address stays.
    static func withoutPort(_ hop: String) -> String {
        if hop.hasPrefix("["), let end = hop.firstIndex(of: "]") { return String(hop[...end]) }
        if hop.filter({ $0 == ":" }).count == 1, let colon = hop.firstIndex(of: ":") { return String(hop[..<colon]) }
        return hop
    }

    private static func trimmed(_ text: Substring) -> String {
        text.trimmingCharacters(in: .whitespaces)
    }
}
