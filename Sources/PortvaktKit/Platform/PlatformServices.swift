import Foundation
import PortvaktProtocol

/// The in-app browser for a login (ASWebAuthenticationSession on Apple platforms, ephemeral).
public protocol WebAuthenticator: Sendable {
    /// Opens `url` and returns the URL the server redirected to at `callback`.
    /// - Throws: ``WebAuthenticationError``.
    func authenticate(url: URL, callback: BrowserCallback) async throws -> URL
}

public enum WebAuthenticationError: Error, Sendable, Hashable {
    /// The user closed the browser.
    case cancelled
    case failed
    /// The browser could not be shown (no window to present it from): a fault of the app, not a
    /// cancellation.
    case cannotPresent
    /// The login page itself said no (a wrong password, too many attempts): show this.
    case refused(UserMessage)
}

extension WebAuthenticationError {
    /// `ASWebAuthenticationSessionError`'s domain and codes: 1 the person cancelled, 2 and 3 no
    /// usable window to present from (the app's fault, told apart from a cancel); anything else failed.
    /// - Parameter code: the code of an `ASWebAuthenticationSessionError`, nil for any other error.
    public init(sessionErrorCode code: Int?) {
        switch code {
        case 1: self = .cancelled
        case 2, 3: self = .cannotPresent
        default: self = .failed
        }
    }
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
