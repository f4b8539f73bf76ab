import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktProtocol

/// Passkeys in "My account" (S18.1): the options for `navigator.credentials.create` (a form post
/// with the CSRF token, answered in JSON for the page script), the registration, and removal
/// (which ends the sessions the passkey opened).
/// Adding one needs a BankID or Vipps login within five minutes (``SensitiveAction/passkeyRegister``).
extension PortalRoutes {
    func registerPasskeyRoutes(on routes: DeclaredRoutes) {
        routes.post("/account/passkeys/options", .portalMember.taking(.passkeyRegister), surface: .page) { request, _ in
            try await withForm(request) { signedIn, fields in try await registrationOptions(request, signedIn, name: fields["name"] ?? "") }
        }
        routes.post("/account/passkeys", .portalMember.taking(.passkeyRegister), surface: .page) { request, _ in
            try await withForm(request) { signedIn, fields in try await registerPasskey(request, signedIn, fields) }
        }
        routes.post("/account/passkeys/:id/remove", .portalMember, surface: .page) { request, context in
            try await withForm(request) { signedIn, _ in try await removePasskey(request, signedIn, id: context.parameters.get("id") ?? "") }
        }
    }

    /// Removes the passkey and with it every session it opened; when this browser signed in with
    /// it, this browser is signed out too, and the start page says why.
    private func removePasskey(_ request: Request, _ signedIn: SignedIn, id: String) async throws -> Response {
        let answers = actions(request, signedIn)
        guard let removal = try await account.passkeys.remove(id: id, userID: signedIn.portal.userId, source: "portal") else { return answers.notFound() }
        guard removal.endedSessionIDs.contains(signedIn.portal.sessionId) else { return answers.done(.passkeyRemoved) }
        return PortalPage.redirect(to: "/?signed_out=passkey_removed", cookies: [cookie.clearing])
    }

    /// A registration's challenge is bound to the browser's portal session.
    private static func registrationBinding(_ signedIn: SignedIn) -> String { "register:\(signedIn.reference)" }

    private func registrationOptions(_ request: Request, _ signedIn: SignedIn, name: String) async throws -> Response {
        let language = PortalLanguage.of(request)
        guard let actor = try await account.actor(sessionID: signedIn.portal.sessionId) else { return notSignedIn(request) }
        do {
            let options = try await account.passkeys.registrationOptions(for: actor, name: name, binding: Self.registrationBinding(signedIn))
            return try Responses.json(PublicKeyOptions(publicKey: options))
        } catch let refusal as PasskeyRefusal {
            let stepUp = refusal == .stepUpRequired
            let message: PortalText = switch refusal {
            case .stepUpRequired: .passkeyStepUpNeeded
            case .invalidName: .passkeyNameInvalid
            case .tooMany: .passkeyTooMany
            default: .passkeyNotCreated
            }
            // The OAuth error body (RFC 9470 for a missing step-up), its description in the page's language.
            return try Responses.oauthError(
                (stepUp ? OAuthErrorCode.insufficientUserAuthentication : .invalidRequest).rawValue, message.text(language), status: stepUp ? .unauthorized : .badRequest
            )
        }
    }

    private func registerPasskey(_ request: Request, _ signedIn: SignedIn, _ fields: FormFields) async throws -> Response {
        guard let actor = try await account.actor(sessionID: signedIn.portal.sessionId) else { return notSignedIn(request) }
        let response = PasskeyRegistrationResponse(
            clientDataJSON: fields["client_data"] ?? "", attestationObject: fields["attestation_object"] ?? "", name: fields["name"] ?? ""
        )
        do {
            _ = try await account.passkeys.register(response, for: actor, binding: Self.registrationBinding(signedIn), source: "portal")
            return actions(request, signedIn).done(.passkeyAdded)
        } catch let refusal as PasskeyRefusal {
            let message: PortalText = switch refusal {
            case .alreadyRegistered: .passkeyAlreadyAdded
            case .invalidName: .passkeyNameInvalid
            case .tooMany: .passkeyTooMany
            case .stepUpRequired: .passkeyStepUpNeeded
            default: .passkeyNotCreated
            }
            return Self.problem(
                message, heading: .errorTitle, frame: frame(request, signedIn), status: refusal == .stepUpRequired ? .unauthorized : .badRequest,
                retry: false, pages: pages, back: "/account#passkeys"
            )
        }
    }
}
