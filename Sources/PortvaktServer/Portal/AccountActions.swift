import Foundation
import Hummingbird
import PortvaktCore
import PortvaktStorage

/// What a person does on "My account": remove a phone (the lost-phone case: it can no longer
/// unlock, and the sessions it unlocked end), sign out one session, or every other one. Each
/// answers with a redirect to the page, which then says what happened.
struct AccountActions {
    let broker: Broker
    let signedIn: PortalRoutes.SignedIn
    /// Answers for a phone or session that is not the person's (or no longer exists).
    let notFound: @Sendable () -> Response

    enum Done: String {
        case deviceRemoved = "device_removed"
        case sessionEnded = "session_ended"
        case othersEnded = "others_ended"

        var text: PortalText {
            switch self {
            case .deviceRemoved: .deviceRemoved
            case .sessionEnded: .sessionEnded
            case .othersEnded: .otherSessionsEnded
            }
        }
    }

    private var userID: String { signedIn.portal.userId }

    func removeDevice(_ id: String) async throws -> Response {
        let now = broker.now()
        guard try await broker.store.revokeDevice(id: id, userID: userID, now: now) else { return notFound() }
        try await broker.store.append(AuditEvent(
            occurredAt: now, action: "device.revoked", outcome: "success", actorUserID: UUID(uuidString: userID),
            subjectType: "device", subjectID: id, source: "portal", details: [:]
        ))
        return done(.deviceRemoved)
    }

    func endSession(_ id: String) async throws -> Response {
        guard id != signedIn.portal.sessionId, let session = try await broker.store.session(id: id), session.userId == userID else { return notFound() }
        if session.revokedAt == nil {
            try await SessionService(broker: broker).end(session, reason: "signed_out_from_portal", now: broker.now())
        }
        return done(.sessionEnded)
    }

    func endOthers() async throws -> Response {
        let now = broker.now()
        for session in try await broker.store.activeSessions(userID: userID, now: now) where session.id != signedIn.portal.sessionId {
            try await SessionService(broker: broker).end(session, reason: "signed_out_from_portal", now: now)
        }
        return done(.othersEnded)
    }

    private func done(_ what: Done) -> Response {
        PortalPage.redirect(to: "/account?done=\(what.rawValue)")
    }
}
