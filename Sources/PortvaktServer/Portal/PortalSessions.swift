import Crypto
import Foundation
import Logging
import PortvaktCore
import PortvaktStorage
import PortvaktDomain
import PortvaktModels

/// The portal's browser sessions: the sign-in kept sealed until its callback, the session
/// reference behind the cookie (hashed in the database, so any instance finds it), and the
/// Portvakt session each one rests on.
struct PortalSessions: Sendable {
    let store: PortvaktStore
    let cipher: FieldCipher
    let sessions: SessionService
    let address: PublicAddress
    let csrfKey: SymmetricKey
    let logger: Logger

    /// The issuer is known only once the server listens (port 0), so the cookie's form follows it.
    var cookie: PortalSessionCookie { PortalSessionCookie(issuer: address.current, csrfKey: csrfKey) }
    var callbackURI: String { address.current + PortalClient.callbackPath }

    func beginSignIn(state: String, payload: Data, lifetime: TimeInterval) async throws {
        try await store.insertPortalLogin(
            stateHash: PortalSessionCookie.hash(state), payload: try cipher.seal(payload, context: SealingContext.portalLogin),
            expiresAt: sessions.now().addingTimeInterval(lifetime)
        )
    }

    /// The sign-in's payload, once; nil when unknown, used, expired or not ours.
    func takeSignIn(state: String) async throws -> Data? {
        guard let sealed = try await store.takePortalLogin(stateHash: PortalSessionCookie.hash(state), now: sessions.now()) else { return nil }
        return try? cipher.open(sealed, context: SealingContext.portalLogin)
    }

    /// A new portal session on `session`; returns the cookie's reference.
    func open(on session: Session, idle: TimeInterval, absolute: TimeInterval) async throws -> String {
        let reference = randomToken()
        try await store.insertPortalSession(PortalSession(
            idHash: PortalSessionCookie.hash(reference), userID: session.userId, sessionID: session.id, now: sessions.now(),
            idle: idle, absolute: absolute
        ))
        return reference
    }

    /// The live portal session of a cookie's reference, its idle time renewed.
    func touch(reference: String, idle: TimeInterval) async throws -> PortalSession? {
        try await store.touchPortalSession(idHash: PortalSessionCookie.hash(reference), idle: idle, now: sessions.now())
    }

    /// Ends a browser's portal session and the Portvakt session it rests on; with
    /// `signingBrowserOut` (the person's "sign out") the browser's sign-in at Portvakt too, and
    /// every client it signed in.
    func close(_ signedIn: PortalRoutes.SignedIn, reason: String, signingBrowserOut: Bool = false) async throws {
        try await store.deletePortalSession(idHash: PortalSessionCookie.hash(signedIn.reference))
        if let session = try await store.session(id: signedIn.portal.sessionId), session.revokedAt == nil {
            if signingBrowserOut, let signIn = session.browserSessionId {
                try await sessions.endBrowserSignIn(id: signIn, userID: session.userId, reason: reason)
            } else {
                try await sessions.end(session, reason: reason, now: sessions.now())
            }
        }
    }
}
