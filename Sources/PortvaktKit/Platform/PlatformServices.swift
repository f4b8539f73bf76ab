import Foundation
import PortvaktProtocol

/// The in-app browser for a login (ASWebAuthenticationSession on Apple platforms, ephemeral).
public protocol WebAuthenticator: Sendable {
    /// Opens `url` and returns the URL the server redirected to at `callbackScheme`.
    /// - Throws: ``WebAuthenticationError``.
    func authenticate(url: URL, callbackScheme: String) async throws -> URL
}

public enum WebAuthenticationError: Error, Sendable, Hashable {
    /// The user closed the browser.
    case cancelled
    case failed
    /// The login page itself said no (a wrong password, too many attempts): show this.
    case refused(UserMessage)
}

/// Opens other apps (the BankID app by its deep link).
public protocol URLOpener: Sendable {
    /// Whether the app opened (false: not installed, so show the QR code).
    func open(_ url: URL) async -> Bool
}

/// Whether the network is there, and when it comes back.
public protocol Reachability: Sendable {
    var isOnline: Bool { get async }
    /// Yields on every change.
    func changes() -> AsyncStream<Bool>
}
