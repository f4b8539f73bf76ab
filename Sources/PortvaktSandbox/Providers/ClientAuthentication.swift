import PortvaktCore
import PortvaktHTTP
import Crypto
import Foundation
import JWTKit

/// Checks who is calling a token endpoint, by the method the client registered (RFC 6749 §2.3,
/// RFC 7523 §2.2 for `private_key_jwt`). Every failure is `invalid_client`.
struct ClientAuthentication: Sendable {
    let registry: ClientRegistry
    let state: ProviderState
    let provider: SandboxProvider

    struct Failure: Error {
        let description: String
    }

    /// - Parameter audience: the token endpoint URL and the issuer, either of which an assertion may name.
    func authenticate(basic: (user: String, password: String)?, form: FormFields, audience: [String], now: Date) async throws(Failure) -> SandboxClient {
        if let assertion = form["client_assertion"] {
            guard form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" else {
                throw Failure(description: "client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer.")
            }
            return try await authenticate(assertion: assertion, clientID: form["client_id"], audience: audience, now: now)
        }
        let credentials: (id: String, secret: String, method: SandboxClient.AuthMethod)
        if let basic {
            guard form["client_secret"] == nil else { throw Failure(description: "Use one client authentication method, not two.") }
            credentials = (basic.user, basic.password, .clientSecretBasic)
        } else if let id = form["client_id"], let secret = form["client_secret"] {
            credentials = (id, secret, .clientSecretPost)
        } else {
            throw Failure(description: "Client authentication is required.")
        }
        guard let client = await registry.client(credentials.id, at: provider), client.authMethod == credentials.method,
              let expected = client.clientSecret, constantTimeEqual(expected, credentials.secret)
        else { throw Failure(description: "Client authentication failed.") }
        return client
    }

    private func authenticate(assertion: String, clientID: String?, audience: [String], now: Date) async throws(Failure) -> SandboxClient {
        let claims: ClientAssertion
        do {
            claims = try DefaultJWTParser().parse([UInt8](assertion.utf8), as: ClientAssertion.self).payload
        } catch {
            throw Failure(description: "The client assertion is not a JWT.")
        }
        guard let client = await registry.client(claims.iss.value, at: provider), client.authMethod == .privateKeyJWT,
              let jwks = client.jwks, clientID == nil || clientID == client.clientID
        else { throw Failure(description: "Client authentication failed.") }
        do {
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: jwks)
            let verified = try await keys.verify(assertion, as: ClientAssertion.self)
            guard verified.sub.value == client.clientID,
                  verified.aud.value.contains(where: audience.contains),
                  verified.exp.value > now, verified.exp.value < now.addingTimeInterval(600)
            else { throw Failure(description: "The client assertion's sub, aud or exp is wrong.") }
            guard await state.useAssertionID(verified.jti.value, until: verified.exp.value, now: now) else {
                throw Failure(description: "The client assertion was used before.")
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "The client assertion's signature does not verify.")
        }
        return client
    }
}

/// RFC 7523 §3 client assertion claims. Time claims are checked by the caller with the sandbox clock.
struct ClientAssertion: JWTPayload {
    let iss: IssuerClaim
    let sub: SubjectClaim
    let aud: AudienceClaim
    let exp: ExpirationClaim
    let jti: IDClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
