import Crypto
import Foundation
import Hummingbird
import JWTKit
import Logging
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage

/// How a client proves itself at the token, revocation, introspection and PAR endpoints, by the
/// method it registered (RFC 7591 `token_endpoint_auth_method`): nothing (a public client), its
/// secret in `Authorization: Basic` or in the form (RFC 6749 §2.3.1), or a client assertion signed
/// by one of its keys (RFC 7523 §2.2, OIDC Core §9). Secrets are compared as SHA-256 digests in
/// constant time and never logged; an assertion is accepted once.
struct ClientAuthentication {
    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// An assertion may live at most this long, so the record of its `jti` does too.
    static let longestAssertion: TimeInterval = 600

    let address: PublicAddress
    let store: PortvaktStore
    let publishedKeys: PublishedClientKeys
    let logger: Logger
    let now: @Sendable () -> Date

    /// What the request presents: at most one way of authenticating (RFC 6749 §2.3).
    struct Presented {
        var clientID: String?
        var secret: String?
        /// The Basic secret as sent, before form-decoding: many clients do not form-encode it
        /// (RFC 6749 §2.3.1 says to), so a `+` in it is tried both ways.
        var rawBasicSecret: String?
        var usedBasic = false
        var usedPost = false
        var assertion: String?

        init(_ request: Request, fields: FormFields) throws {
            clientID = fields["client_id"]
            if let credentials = request.authorizationToken(scheme: "Basic") {
                // RFC 6749 §2.3.1: the id and the secret are form-encoded before base64.
                guard let decoded = Data(base64Encoded: credentials).flatMap({ String(data: $0, encoding: .utf8) }),
                      let colon = decoded.firstIndex(of: ":"),
                      let id = FormFields.decode(decoded[..<colon]), let secret = FormFields.decode(decoded[decoded.index(after: colon)...]),
                      !id.isEmpty
                else { throw ClientAuthentication.refused("The Basic credentials are not client_id:client_secret in base64.", basic: true) }
                guard clientID == nil || clientID == id else {
                    throw ClientAuthentication.refused("client_id in the form is not the client of the Authorization header.", basic: true)
                }
                clientID = id
                self.secret = secret
                rawBasicSecret = String(decoded[decoded.index(after: colon)...])
                usedBasic = true
            }
            if let secret = fields["client_secret"] {
                self.secret = secret
                usedPost = true
            }
            if let type = fields["client_assertion_type"] {
                guard type == ClientAuthentication.assertionType, let assertion = fields["client_assertion"] else {
                    throw OAuthFailure.invalidRequest("client_assertion_type must be \(ClientAuthentication.assertionType), with client_assertion.")
                }
                self.assertion = assertion
                if clientID == nil { clientID = CompactJWS.unverifiedObject(at: 1, of: assertion)?["iss"] as? String }
            } else if fields["client_assertion"] != nil {
                throw OAuthFailure.invalidRequest("client_assertion needs client_assertion_type.")
            }
            guard [usedBasic, usedPost, assertion != nil].filter({ $0 }).count <= 1 else {
                throw OAuthFailure.invalidRequest("Use one way of client authentication per request (RFC 6749 §2.3).")
            }
        }
    }

    func check(_ presented: Presented, of client: AppClient) async throws {
        let basic = presented.usedBasic
        switch client.authentication {
        case .none:
            guard presented.secret == nil, presented.assertion == nil else {
                throw refuse(client, "\(client.id) is a public client: send client_id alone.", basic: basic)
            }
        case .clientSecretBasic(let digest):
            guard presented.usedBasic, let secret = presented.secret else {
                throw refuse(client, "\(client.id) authenticates with its secret in Authorization: Basic.", basic: true)
            }
            guard Self.matches(secret, digest) || presented.rawBasicSecret.map({ Self.matches($0, digest) }) == true else {
                throw refuse(client, "The client secret is wrong.", basic: true)
            }
        case .clientSecretPost(let digest):
            guard presented.usedPost, let secret = presented.secret else {
                throw refuse(client, "\(client.id) authenticates with client_secret in the form.", basic: basic)
            }
            guard Self.matches(secret, digest) else { throw refuse(client, "The client secret is wrong.", basic: false) }
        case .privateKeyJWT(let keys):
            guard let assertion = presented.assertion else {
                throw refuse(client, "\(client.id) authenticates with a client assertion (private_key_jwt).", basic: basic)
            }
            try await verify(assertion, of: client, keys: keys)
        }
    }

    /// RFC 7523 §3: signed by one of the client's keys, `iss` and `sub` the client, `aud` this
    /// server alone (the issuer, or the token endpoint's URL), unexpired and short-lived, its
    /// `jti` unseen.
    private func verify(_ assertion: String, of client: AppClient, keys: AppClient.ClientKeys) async throws {
        guard let header = JOSEHeader(compactJWS: assertion), header.keyReferences.isEmpty,
              let alg = header.alg, ["RS256", "PS256", "ES256"].contains(alg)
        else { throw refuse(client, "The client assertion must be a JWS signed RS256, PS256 or ES256 by a key in the client's jwks.", basic: false) }
        let jwks: String
        switch keys {
        case .inline(let set):
            jwks = set
        case .published(let uri):
            do {
                jwks = try await publishedKeys.jwks(at: uri, kid: header.kid)
            } catch {
                logger.warning("A client's published keys (jwks_uri) could not be had", metadata: ["client": "\(client.id)", "reason": "\(error)"])
                throw OAuthFailure.temporarilyUnavailable
            }
        }
        let claims: ReceivedClientAssertion
        do {
            let keys = try await JWTKeyCollection().add(jwksJSON: jwks)
            claims = try await keys.verify(assertion, as: ReceivedClientAssertion.self)
        } catch {
            throw refuse(client, "The client assertion's signature is not by a key of this client.", basic: false)
        }
        let now = self.now()
        // One audience, this server: a list could name another server too, which the client may
        // have sent the same assertion to (OpenID Foundation advisory on private_key_jwt audiences).
        let audiences = [address.current, address.current + "/oauth/token"]
        guard claims.iss == client.id, claims.sub == client.id else {
            throw refuse(client, "The client assertion's iss and sub must both be the client_id.", basic: false)
        }
        guard claims.aud.value.count == 1, let audience = claims.aud.value.first, audiences.contains(audience) else {
            throw refuse(client, "The client assertion's aud must be one value, the issuer \(address.current) (or its token endpoint).", basic: false)
        }
        let expiry = Date(timeIntervalSince1970: TimeInterval(claims.exp))
        guard expiry > now, expiry.timeIntervalSince(now) <= Self.longestAssertion else {
            throw refuse(client, "The client assertion has expired, or lives longer than \(Int(Self.longestAssertion)) seconds.", basic: false)
        }
        guard let jti = claims.jti, (1...256).contains(jti.utf8.count) else {
            throw refuse(client, "The client assertion needs a jti.", basic: false)
        }
        let hash = Data(SHA256.hash(data: Data("client-assertion\u{0}\(client.id)\u{0}\(jti)".utf8)))
        let fresh: Bool
        do {
            fresh = try await store.recordDPoPProof(DPoPProofRecord(jtiHash: hash, expiresAt: expiry))
        } catch {
            throw OAuthFailure.temporarilyUnavailable
        }
        guard fresh else { throw refuse(client, "This client assertion was used before.", basic: false) }
    }

    private static func matches(_ secret: String, _ digest: SHA256.Digest) -> Bool {
        AppClient.Authentication.digest(secret) == digest
    }

    /// Refuses `client`'s authentication: the reason goes to the log, the client is told only
    /// that it failed (which clients exist and how they authenticate is not for strangers).
    private func refuse(_ client: AppClient, _ reason: String, basic: Bool) -> OAuthFailure {
        logger.notice("A client authentication was refused", metadata: ["client": "\(client.id)", "reason": "\(reason)"])
        return Self.refused("Client authentication failed.", basic: basic)
    }

    /// 401 `invalid_client` (RFC 6749 §5.2), with a Basic challenge when the client tried Basic.
    static func refused(_ description: String, basic: Bool) -> OAuthFailure {
        OAuthFailure(error: .invalidClient, description: description, status: .unauthorized, scheme: basic ? .basic : .bearer)
    }
}

/// A client assertion's claims (RFC 7523 §3).
struct ReceivedClientAssertion: JWTPayload {
    let iss: String
    let sub: String
    let aud: AudienceClaim
    let exp: Int
    let jti: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
