import Foundation

/// Whether a host is this machine, the one place Portvakt decides it (plain http, a development
/// database). The host is parsed, never compared as text: `127.evil.example` is a name, not an
/// address in 127.0.0.0/8.
enum LoopbackHost {
    /// - Parameter host: a URL's host: `localhost`, an IPv4 or IPv6 address (brackets allowed), or
    ///   a Unix socket directory (`/var/run/postgresql`, percent-encoded or not).
    /// - Returns: true for `localhost`, 127.0.0.0/8, `::1` (also IPv4-mapped) and a socket path.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.removingPercentEncoding ?? host
        if host.hasPrefix("/") { return true }
        if host.lowercased() == "localhost" { return true }
        return IPAddress(host)?.isLoopback ?? false
    }
}

extension IPAddress {
    /// 127.0.0.0/8 or ::1 (an IPv4-mapped address is already its IPv4 bytes).
    var isLoopback: Bool {
        bytes.count == 4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
    }
}

extension URL {
    /// Whether the URL's host is this machine (``LoopbackHost``); false without a host.
    var hasLoopbackHost: Bool {
        guard let host = self.host else { return false }
        return LoopbackHost.isLoopback(host)
    }
}
