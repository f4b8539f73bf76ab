#if canImport(AuthenticationServices) && canImport(UIKit)
import AuthenticationServices
import Foundation
import UIKit

/// The in-app browser: `ASWebAuthenticationSession`, ephemeral (no shared cookies, no "wants
/// to use … to sign in" prompt). The callback (the scheme alone, or an https host and path) is
/// ``BrowserCallback``'s, derived from the redirect URI in the core.
@MainActor
public final class AppleWebAuthenticator: NSObject, WebAuthenticator, ASWebAuthenticationPresentationContextProviding {
    private let anchor: @MainActor () -> ASPresentationAnchor?
    /// The running login, kept so that cancelling its task cancels it; a later login's answer
    /// or cancel never touches an earlier one's.
    private var running: (once: ResumeOnce<URL>, session: ASWebAuthenticationSession)?

    /// - Parameter anchor: the window to present from (the key window of the active scene).
    public init(anchor: @escaping @MainActor () -> ASPresentationAnchor?) {
        self.anchor = anchor
    }

    public nonisolated func authenticate(url: URL, callback: BrowserCallback) async throws -> URL {
        let once = ResumeOnce<URL>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
                once.set(continuation)
                Task { @MainActor in self.start(url: url, callback: callback, once: once) }
            }
        } onCancel: {
            Task { @MainActor in self.end(once) }
            once.resume(throwing: WebAuthenticationError.cancelled)
        }
    }

    private func start(url: URL, callback: BrowserCallback, once: ResumeOnce<URL>) {
        // Cancelled before the browser was shown: it is not shown.
        guard !once.isFinished else { return }
        // Built outside the main actor's isolation: Apple does not say on which thread it runs.
        let completion: @Sendable (URL?, (any Error)?) -> Void = { url, error in
            if let url {
                once.resume(returning: url)
            } else {
                let nsError = error.map { $0 as NSError }
                let code = nsError?.domain == ASWebAuthenticationSessionError.errorDomain ? nsError?.code : nil
                once.resume(throwing: WebAuthenticationError(sessionErrorCode: code))
            }
            Task { @MainActor in self.end(once) }
        }
        let session: ASWebAuthenticationSession
        switch callback {
        case .customScheme(let scheme):
            session = ASWebAuthenticationSession(url: url, callback: .customScheme(scheme), completionHandler: completion)
        case .https(let host, let path):
            // The host must be in the app's Associated Domains as `webcredentials:` (docs/ios.md).
            session = ASWebAuthenticationSession(url: url, callback: .https(host: host, path: path), completionHandler: completion)
        case .loopback:
            // A phone has no loopback listener for the browser to reach.
            return once.resume(throwing: WebAuthenticationError.failed)
        }
        session.prefersEphemeralWebBrowserSession = true
        session.presentationContextProvider = self
        // One browser at a time: a new login replaces one still open.
        if let earlier = running {
            end(earlier.once)
            earlier.once.resume(throwing: WebAuthenticationError.cancelled)
        }
        running = (once, session)
        if !session.start() {
            running = nil
            once.resume(throwing: WebAuthenticationError.cannotPresent)
        }
    }

    /// Closes the browser of the login `once` belongs to, if it is still the one running.
    private func end(_ once: ResumeOnce<URL>) {
        guard let current = running, current.once === once else { return }
        running = nil
        current.session.cancel()
    }

    // Nonisolated: the protocol is `@MainActor` from the Xcode 26.4 SDK, nonisolated before it,
    // where a main-actor method cannot satisfy it. The session asks on the main thread.
    public nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() ?? ASPresentationAnchor() }
    }
}

/// Opens the BankID app by its deep link; false when it is not installed (show the QR code).
public struct AppleURLOpener: URLOpener {
    public init() {}

    public func open(_ url: URL) async -> Bool {
        await UIApplication.shared.open(url)
    }
}
#endif
