import Foundation
import Hummingbird
import PortvaktCore
import PortvaktStorage

/// What a person does on "My account": remove a phone (the lost-phone case: it can no longer
/// unlock, and the sessions it unlocked end), sign out one session, or every other one. Each
/// answers with a redirect to the page, which then says what happened.
struct AccountActions {
    let account: AccountService
    let signedIn: PortalRoutes.SignedIn
    /// Answers for a phone or session that is not the person's (or no longer exists).
    let notFound: @Sendable () -> Response

    enum Done: String {
        case deviceRemoved = "device_removed"
        case sessionEnded = "session_ended"
        case othersEnded = "others_ended"
        case passkeyAdded = "passkey_added"
        case passkeyRemoved = "passkey_removed"
        case consentWithdrawn = "consent_withdrawn"

        var text: PortalText {
            switch self {
            case .passkeyAdded: .passkeyAdded
            case .passkeyRemoved: .passkeyRemoved
            case .deviceRemoved: .deviceRemoved
            case .sessionEnded: .sessionEnded
            case .othersEnded: .otherSessionsEnded
            case .consentWithdrawn: .consentWithdrawn
            }
        }
    }

    private var userID: String { signedIn.portal.userId }

    func removeDevice(_ id: String) async throws -> Response {
        try await account.removeDevice(id, userID: userID) ? done(.deviceRemoved) : notFound()
    }

    func endSession(_ id: String) async throws -> Response {
        guard id != signedIn.portal.sessionId else { return notFound() }
        return try await account.endSession(id, userID: userID) ? done(.sessionEnded) : notFound()
    }

    func withdrawConsent(_ clientID: String) async throws -> Response {
        try await account.withdrawConsent(clientID: clientID, userID: userID) ? done(.consentWithdrawn) : notFound()
    }

    func endOthers() async throws -> Response {
        try await account.endSessions(userID: userID, except: signedIn.portal.sessionId)
        return done(.othersEnded)
    }

    func done(_ what: Done) -> Response {
        PortalPage.redirect(to: "/account?done=\(what.rawValue)")
    }
}
