import Foundation
import Hummingbird
import PortvaktCore
import PortvaktProtocol
import PortvaktHTTP
import PortvaktDomain

/// `POST /oauth/token` (authorization_code with PKCE, refresh_token, and the device unlock grant
/// ``DeviceUnlock/grantType``), `POST /oauth/revoke` (RFC 7009) and `POST /oauth/introspect`
/// (RFC 7662, confidential clients). Every client authenticates as it registered
/// (``ClientAuthentication``). No password grant (RFC 9700 §2.4). A `DPoP` proof (RFC 9449)
/// binds the tokens to the client's key; a client with `dpop_bound_access_tokens` must send one.
struct TokenRoutes {
    let clients: AppClients
    let dpop: DPoPCheck
    let sessions: SessionService
    let unlock: DeviceUnlock

    func register(on routes: DeclaredRoutes) {
        routes.post("/oauth/token", .anonymous, surface: .json) { request, context in
            try Responses.json(try await token(request, address: context.clientAddress))
        }
        routes.post("/oauth/revoke", .anonymous, surface: .json) { request, _ in
            let (fields, client) = try await clients.authenticate(request)
            let proofKey = try await dpop.proofKey(request, at: .authorizationServer)
            guard let token = fields["token"] else { throw OAuthFailure.invalidRequest("token is required.") }
            try await sessions.revoke(token: token, clientID: client.id, proofKey: proofKey, reason: "revoked")
            return Response(status: .ok, headers: [.cacheControl: "no-store"])
        }
        // RFC 7662: the confidential client authenticates itself, and learns only of its own tokens.
        routes.post("/oauth/introspect", .anonymous, surface: .json) { request, _ in
            let (fields, client) = try await clients.authenticate(request)
            guard client.isConfidential else {
                throw ClientAuthentication.refused("Token introspection is for confidential clients.", basic: false)
            }
            guard let token = fields["token"] else { throw OAuthFailure.invalidRequest("token is required.") }
            let answer = try await sessions.introspect(token: token, clientID: client.id, issuer: clients.address.current)
            return try Responses.json(answer)
        }
    }

    private func token(_ request: Request, address: String) async throws -> TokenResponse {
        let (fields, client) = try await clients.authenticate(request)
        let proof = try dpop.verify(request, at: .authorizationServer)
        if proof == nil, client.requiresDPoP, !client.legacy {
            throw DPoPCheck.invalid("\(client.id) must send a DPoP proof (RFC 9449) with every token request.", at: .authorizationServer)
        }
        // The hot path: a refresh records its proof in the rotation's own transaction.
        if fields["grant_type"] == "refresh_token" {
            guard let token = fields["refresh_token"] else { throw OAuthFailure.invalidRequest("refresh_token is required.") }
            return try await sessions.refresh(token: token, clientID: client.id, proof: proof)
        }
        let response = try await grant(fields, client: client, proof: proof, address: address)
        // An old app version's new session without DPoP is recorded; its refreshes are not.
        if proof == nil, client.requiresDPoP, client.legacy {
            try await sessions.auditLegacyUse(client.id, skipped: "dpop")
        }
        return response
    }

    /// The unlock records the request's proof in its own transaction; the code grant first.
    private func grant(_ fields: FormFields, client: AppClient, proof: ProofOfPossession?, address: String) async throws -> TokenResponse {
        switch fields["grant_type"] {
        case "authorization_code":
            guard let code = fields["code"] else { throw OAuthFailure.invalidRequest("code is required.") }
            if let proof { try await dpop.record(proof, at: .authorizationServer) }
            return try await sessions.redeem(
                code: code, clientID: client.id, redirectURI: fields["redirect_uri"], verifier: fields["code_verifier"], proofKey: proof?.key
            )
        case DeviceUnlock.grantType:
            guard client.portvaktAPI else {
                throw OAuthFailure(error: .unauthorizedClient, description: "The device unlock grant is for Portvakt's own app.")
            }
            guard let assertion = fields["assertion"] else { throw OAuthFailure.invalidRequest("assertion is required.") }
            return try await unlock.tokens(assertion: assertion, clientID: client.id, address: address, proof: proof)
        case nil:
            throw OAuthFailure.invalidRequest("grant_type is required.")
        default:
            throw OAuthFailure(error: .unsupportedGrantType, description: "Use authorization_code, refresh_token or \(DeviceUnlock.grantType).")
        }
    }
}
