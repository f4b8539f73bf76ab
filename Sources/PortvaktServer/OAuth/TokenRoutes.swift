import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP

/// `POST /oauth/token` (authorization_code with PKCE, refresh_token, and the device unlock grant
/// ``DeviceUnlock/grantType``) and `POST /oauth/revoke` (RFC 7009). Public clients: `client_id`
/// in the form, no secret. No password grant (RFC 9700 §2.4).
struct TokenRoutes {
    let broker: Broker

    func register(on router: Router<PortvaktRequestContext>) {
        router.post("/oauth/token") { request, context in
            do {
                return try Responses.json(try await token(request, address: context.clientAddress))
            } catch let failure as OAuthFailure {
                return try failure.response()
            }
        }
        router.post("/oauth/revoke") { request, _ in
            do {
                let (fields, client) = try await clientFields(request)
                guard let token = fields["token"] else { throw OAuthFailure.invalidRequest("token is required.") }
                try await SessionService(broker: broker).revoke(token: token, clientID: client.id, reason: "revoked")
                return Response(status: .ok, headers: [.cacheControl: "no-store"])
            } catch let failure as OAuthFailure {
                return try failure.response()
            }
        }
    }

    private func token(_ request: Request, address: String) async throws -> TokenResponse {
        let (fields, client) = try await clientFields(request)
        let sessions = SessionService(broker: broker)
        switch fields["grant_type"] {
        case "authorization_code":
            guard let code = fields["code"] else { throw OAuthFailure.invalidRequest("code is required.") }
            return try await sessions.redeem(code: code, clientID: client.id, redirectURI: fields["redirect_uri"], verifier: fields["code_verifier"])
        case "refresh_token":
            guard let token = fields["refresh_token"] else { throw OAuthFailure.invalidRequest("refresh_token is required.") }
            return try await sessions.refresh(token: token, clientID: client.id)
        case DeviceUnlock.grantType:
            guard let assertion = fields["assertion"] else { throw OAuthFailure.invalidRequest("assertion is required.") }
            return try await DeviceUnlock(broker: broker).tokens(assertion: assertion, clientID: client.id, address: address)
        case nil:
            throw OAuthFailure.invalidRequest("grant_type is required.")
        default:
            throw OAuthFailure(error: "unsupported_grant_type", description: "Use authorization_code, refresh_token or \(DeviceUnlock.grantType).")
        }
    }

    private func clientFields(_ request: Request) async throws -> (FormFields, AppClient) {
        let fields: FormFields
        do {
            fields = try await request.formFields()
        } catch let error as HTTPError {
            throw OAuthFailure(error: "invalid_request", description: error.body ?? "Send a form.", status: error.status == .unsupportedMediaType ? .unsupportedMediaType : .badRequest)
        }
        // The portal's codes are redeemed inside the server only: it is a confidential client without a secret to leak.
        guard let id = fields["client_id"], id != PortalClient.id, let client = broker.client(id) else {
            throw OAuthFailure(error: "invalid_client", description: "client_id is missing or unknown.", status: .unauthorized)
        }
        return (fields, client)
    }
}
