import Foundation
import PortvaktProtocol

/// Signs a DPoP proof for each request with the ``ProofKey`` and keeps the server's latest
/// `DPoP-Nonce` (one server per client), so only a request after the nonce rotated needs a retry.
public actor DPoPSigner {
    private let key: any ProofKey
    private let now: @Sendable () -> Date
    private var nonce: String?

    public init(key: any ProofKey, now: @escaping @Sendable () -> Date = { Date() }) {
        self.key = key
        self.now = now
    }

    /// The proof for `method` on `url`; with `accessToken`, its hash too (`ath`).
    public func proof(method: String, url: URL, accessToken: String? = nil) async throws -> String {
        let publicKey = try await key.publicKey()
        let proof = DPoPProof(key: publicKey, method: method, url: url.absoluteString, issuedAt: now(), accessToken: accessToken, nonce: nonce)
        let input = try proof.signingInput()
        return "\(input).\(try await key.sign(Data(input.utf8)).base64URLEncoded())"
    }

    /// The thumbprint the server binds tokens to (`dpop_jkt`, `cnf.jkt`).
    public func thumbprint() async throws -> String {
        try await key.publicKey().thumbprint
    }

    /// Takes the nonce of a response's `DPoP-Nonce` header.
    public func remember(nonce: String?) {
        if let nonce, !nonce.isEmpty { self.nonce = nonce }
    }

    /// At logout: the key is deleted, and with it every token bound to it is useless.
    public func forget() async {
        nonce = nil
        await key.delete()
    }
}

/// Whether an access token is bound to a DPoP key (it carries `cnf.jkt`), so it is sent as
/// `Authorization: DPoP` with a proof rather than as `Bearer`. The client reads its own token's
/// claims only to choose the scheme; the server checks everything.
public enum AccessTokenBinding {
    public static func isBound(_ accessToken: String) -> Bool {
        let parts = accessToken.split(separator: ".")
        guard parts.count == 3, let payload = Data(base64URLEncoded: String(parts[1])) else { return false }
        return (try? JSONDecoder().decode(Claims.self, from: payload))?.cnf?.jkt != nil
    }

    private struct Claims: Decodable {
        struct Confirmation: Decodable {
            let jkt: String?
        }

        let cnf: Confirmation?
    }
}
