import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP

/// `POST /oauth/token` (authorization_code with PKCE, refresh_token, and the device unlock grant
/// ``DeviceUnlock/grantType``), `POST /oauth/revoke` (RFC 7009) and `POST /oauth/par` (RFC 9126).
/// Public clients: `client_id` in the form, no secret. No password grant (RFC 9700 §2.4).
/// A `DPoP` proof (RFC 9449) binds the tokens to the client's key; the app and the CLI must send one.
struct TokenRoutes {
    let broker: Broker

    func register(on router: Router<PortvaktRequestContext>) {
        router.post("/oauth/token") { request, context in
            try Responses.json(try await token(request, address: context.clientAddress))
        }
        router.post("/oauth/revoke") { request, _ in
            let (fields, client) = try await clientFields(request)
            let proofKey = try await DPoPCheck(broker: broker).proofKey(request, at: .authorizationServer)
            guard let token = fields["token"] else { throw OAuthFailure.invalidRequest("token is required.") }
            try await SessionService(broker: broker).revoke(token: token, clientID: client.id, proofKey: proofKey, reason: "revoked")
            return Response(status: .ok, headers: [.cacheControl: "no-store"])
        }
        router.post("/oauth/par") { request, _ in
            try await push(request)
        }
    }

    private func token(_ request: Request, address: String) async throws -> TokenResponse {
        let (fields, client) = try await clientFields(request)
        let check = DPoPCheck(broker: broker)
        let proof = try check.verify(request, at: .authorizationServer)
        if proof == nil, client.senderConstraint == .required {
            throw DPoPCheck.invalid("\(client.id) must send a DPoP proof (RFC 9449) with every token request.", at: .authorizationServer)
        }
        let sessions = SessionService(broker: broker)
        // The hot path: a refresh records its proof in the rotation's own transaction.
        if fields["grant_type"] == "refresh_token" {
            guard let token = fields["refresh_token"] else { throw OAuthFailure.invalidRequest("refresh_token is required.") }
            return try await sessions.refresh(token: token, clientID: client.id, proof: proof)
        }
        let response = try await grant(fields, client: client, proof: proof, address: address)
        // An old app version's new session without DPoP is recorded; its refreshes are not.
        if proof == nil, client.senderConstraint == .relaxed {
            try await sessions.auditLegacyUse(client.id, skipped: "dpop")
        }
        return response
    }

    /// The unlock records the request's proof in its own transaction; the code grant first.
    private func grant(_ fields: FormFields, client: AppClient, proof: DPoPCheck.Verified?, address: String) async throws -> TokenResponse {
        let sessions = SessionService(broker: broker)
        switch fields["grant_type"] {
        case "authorization_code":
            guard let code = fields["code"] else { throw OAuthFailure.invalidRequest("code is required.") }
            if let proof { try await DPoPCheck(broker: broker).record(proof, at: .authorizationServer) }
            return try await sessions.redeem(
                code: code, clientID: client.id, redirectURI: fields["redirect_uri"], verifier: fields["code_verifier"], proofKey: proof?.key
            )
        case DeviceUnlock.grantType:
            guard let assertion = fields["assertion"] else { throw OAuthFailure.invalidRequest("assertion is required.") }
            return try await DeviceUnlock(broker: broker).tokens(assertion: assertion, clientID: client.id, address: address, proof: proof)
        case nil:
            throw OAuthFailure.invalidRequest("grant_type is required.")
        default:
            throw OAuthFailure(error: "unsupported_grant_type", description: "Use authorization_code, refresh_token or \(DeviceUnlock.grantType).")
        }
    }

    /// `POST /oauth/par`: the authorization request's parameters, checked as `/oauth/authorize`
    /// checks them, stored for 60 seconds → `201 {request_uri, expires_in}`. A DPoP proof here
    /// binds the code to its key like `dpop_jkt` (RFC 9449 §10.1).
    private func push(_ request: Request) async throws -> Response {
        let (fields, _) = try await clientFields(request)
        guard fields["request_uri"] == nil else { throw OAuthFailure.invalidRequest("request_uri cannot be pushed.") }
        let proofKey = try await DPoPCheck(broker: broker).proofKey(request, at: .authorizationServer)
        var pushed: AppAuthorizationRequest
        do {
            pushed = try AppAuthorizationRequest.parse(fields, clients: broker.clients)
        } catch let error as AppAuthorizationRequest.PageError {
            throw OAuthFailure.invalidRequest(error.description)
        } catch let error as AppAuthorizationRequest.RedirectError {
            throw OAuthFailure(error: error.error, description: error.description)
        }
        if let proofKey {
            guard pushed.dpopJKT == nil || pushed.dpopJKT == proofKey else {
                throw DPoPCheck.invalid("dpop_jkt is not the thumbprint of the proof's key.", at: .authorizationServer)
            }
            pushed.dpopJKT = proofKey
        }
        let requestURI = try await broker.push(pushed)
        return try Responses.json(
            PushedRequest(requestURI: requestURI, expiresIn: Int(Broker.pushedRequestLifetime)), status: .created
        )
    }

    private struct PushedRequest: Encodable {
        let requestURI: String
        let expiresIn: Int

        enum CodingKeys: String, CodingKey {
            case requestURI = "request_uri"
            case expiresIn = "expires_in"
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
