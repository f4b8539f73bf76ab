import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PortvaktCore
import PortvaktProtocol
import PortvaktStorage
import PortvaktDomain
import PortvaktModels

/// Checks the `DPoP` header of a request (RFC 9449 §4.3): a well-formed proof signed by its own
/// key, for this method and URL, made within the last minute, with the server's nonce, carrying
/// the `ath` of the access token it accompanies, and never seen before by any instance.
struct DPoPCheck: Sendable {
    let store: PortvaktStore
    let nonces: DPoPNonces
    let headerKeys: DPoPHeaderKeys
    let address: PublicAddress
    let logger: Logger
    let now: @Sendable () -> Date

    /// How far a proof's `iat` may be from the server's clock.
    static let window: TimeInterval = 60

    /// Where the proof is checked decides how a refusal is answered: 400 at the authorization
    /// server's endpoints, 401 with a `DPoP` challenge at a resource (RFC 9449 §7.1, §8).
    enum Endpoint {
        case authorizationServer, resource
    }

    /// The thumbprint of the key that signed the request's valid proof, the proof now recorded;
    /// nil without a proof.
    /// - Throws: `invalid_dpop_proof`, or `use_dpop_nonce` when the nonce is missing or old.
    func proofKey(_ request: Request, at endpoint: Endpoint, accessToken: String? = nil) async throws(OAuthFailure) -> String? {
        guard let verified = try verify(request, at: endpoint, accessToken: accessToken) else { return nil }
        try await record(verified, at: endpoint)
        return verified.key
    }

    /// Every check of the request's proof but the replay record, which the caller makes
    /// (``record(_:at:)``) or hands to the store to make in its own transaction (a refresh: one
    /// commit, not two); nil without a proof.
    func verify(_ request: Request, at endpoint: Endpoint, accessToken: String? = nil) throws(OAuthFailure) -> ProofOfPossession? {
        let values = request.headers[values: .dpop]
        guard !values.isEmpty else { return nil }
        guard values.count == 1 else { throw Self.invalid("Send exactly one DPoP header.", at: endpoint) }
        let proof: DPoPProof
        do {
            proof = try DPoPProof(compact: values[0], keyOfHeader: headerKeys.key(ofHeader:))
        } catch {
            throw Self.invalid(error.description, at: endpoint)
        }
        let now = self.now()
        guard proof.htm == request.method.rawValue else { throw Self.invalid("The proof's htm is not this request's method.", at: endpoint) }
        // RFC 9449 §4.3: compared as URIs (RFC 3986 §6.2.2–6.2.3: scheme and host in any case, the
        // default port or none), ignoring query and fragment; both sides normalised the same way.
        guard DPoPProof.withoutQueryAndFragment(proof.htu) == DPoPProof.withoutQueryAndFragment(address.current + request.uri.path) else {
            throw Self.invalid("The proof's htu is not this request's URL.", at: endpoint)
        }
        guard abs(Double(proof.iat) - now.timeIntervalSince1970) <= Self.window else {
            throw Self.invalid("The proof's iat is more than \(Int(Self.window)) seconds from the server's time.", at: endpoint)
        }
        if let accessToken {
            guard let ath = proof.ath else { throw Self.invalid("The proof needs ath, the hash of the access token.", at: endpoint) }
            guard constantTimeEqual(ath, DPoPProof.accessTokenHash(accessToken)) else {
                throw Self.invalid("The proof's ath is not the hash of this access token.", at: endpoint)
            }
        }
        guard let nonce = proof.nonce, nonces.isValid(nonce, at: now) else {
            throw Self.useNonce(at: endpoint)
        }
        return ProofOfPossession(key: proof.thumbprint, record: DPoPProofRecord(
            jtiHash: Data(SHA256.hash(data: Data("\(proof.thumbprint) \(proof.jti)".utf8))), expiresAt: now.addingTimeInterval(2 * Self.window + 5)
        ))
    }

    /// Records the proof's `jti`, so no instance accepts it again.
    /// - Throws: `invalid_dpop_proof` when it was recorded before.
    func record(_ verified: ProofOfPossession, at endpoint: Endpoint) async throws(OAuthFailure) {
        let recorded: Bool
        do {
            recorded = try await store.recordDPoPProof(verified.record)
        } catch {
            logger.error("A DPoP proof could not be recorded", metadata: ["error": "\(error)"])
            throw .temporarilyUnavailable
        }
        guard recorded else { throw Self.replayed(at: endpoint) }
    }

    static func replayed(at endpoint: Endpoint) -> OAuthFailure {
        invalid(GrantRefusal.proofReplayed.description, at: endpoint)
    }

    static func invalid(_ description: String, at endpoint: Endpoint) -> OAuthFailure {
        OAuthFailure(
            error: .invalidDPoPProof, description: description, status: endpoint == .resource ? .unauthorized : .badRequest,
            scheme: endpoint == .resource ? .dpop : .bearer
        )
    }

    static func useNonce(at endpoint: Endpoint) -> OAuthFailure {
        OAuthFailure(
            error: .useDPoPNonce, description: "Sign the proof again with the nonce in the DPoP-Nonce header.",
            status: endpoint == .resource ? .unauthorized : .badRequest, scheme: endpoint == .resource ? .dpop : .bearer
        )
    }
}

extension HTTPField.Name {
    static let dpop = HTTPField.Name("DPoP")!
    static let dpopNonce = HTTPField.Name("DPoP-Nonce")!
}
