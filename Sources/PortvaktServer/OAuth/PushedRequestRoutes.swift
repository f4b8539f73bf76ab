import PortvaktDomain
import Foundation
import Hummingbird
import PortvaktCore
import PortvaktProtocol
import PortvaktHTTP

/// `POST /oauth/par` (RFC 9126): the app's authorization request, pushed before the browser opens.
struct PushedRequestRoutes {
    let clients: AppClients
    let dpop: DPoPCheck
    let flows: LoginFlows

    func register(on routes: DeclaredRoutes) {
        routes.post("/oauth/par", .anonymous, surface: .json) { request, _ in
            try await push(request)
        }
    }

    /// `POST /oauth/par`: the authorization request's parameters, checked as `/oauth/authorize`
    /// checks them, stored for 60 seconds → `201 {request_uri, expires_in}`. A DPoP proof here
    /// binds the code to its key like `dpop_jkt` (RFC 9449 §10.1).
    func push(_ request: Request) async throws -> Response {
        let (fields, _) = try await clients.authenticate(request)
        guard fields["request_uri"] == nil else { throw OAuthFailure.invalidRequest("request_uri cannot be pushed.") }
        let proofKey = try await dpop.proofKey(request, at: .authorizationServer)
        var pushed: AppAuthorizationRequest
        do {
            pushed = try AppAuthorizationRequest.parse(fields, clients: clients.all)
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
        let requestURI = try await flows.push(pushed)
        return try Responses.json(
            PushedRequestResponse(requestURI: requestURI, expiresIn: Int(LoginFlows.pushedRequestLifetime)), status: .created
        )
    }
}
