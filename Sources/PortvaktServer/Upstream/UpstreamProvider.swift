import PortvaktDomain
import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore
import NIOHTTP1
import PortvaktCore
import PortvaktModels
import PortvaktStorage

/// The broker as a confidential OIDC client of one provider (Vipps or BankID): discovery and
/// JWKS (cached), the authorization URL, the code exchange, ID token verification and userinfo.
actor UpstreamProvider {
    let settings: UpstreamSettings
    private let http: any OutboundHTTP
    private let timeout: TimeAmount
    private let metadataMaxAge: TimeInterval = 3600
    private var metadata: (value: OpenIDProviderMetadata, fetchedAt: Date)?
    private var keys: (collection: JWTKeyCollection, kids: Set<String>, fetchedAt: Date)?
    /// What the last look at the provider found; nil before any.
    private(set) var state: ProviderState?
    /// The scopes Portvakt asks for that the provider's document does not list (logged at start).
    private(set) var unlistedScopes: [String] = []

    /// Keeps `found` unless a later look has been recorded already (the actor lets looks overlap).
    private func record(_ found: ProviderState) {
        if let state, state.checkedAt > found.checkedAt { return }
        state = found
    }

    init(settings: UpstreamSettings, http: any OutboundHTTP, timeout: Duration) {
        self.settings = settings
        self.http = http
        self.timeout = TimeAmount(timeout)
    }

    var provider: IdentityProvider { settings.provider }

    /// Where to send the user's browser: the provider's authorization endpoint with PKCE S256,
    /// `state` and `nonce`.
    func authorizationURL(
        state: String, nonce: String, codeVerifier: String, redirectURI: String, language: Language, loginHint: String? = nil,
        maxAge: Int? = nil
    ) async throws(UpstreamError) -> String {
        let metadata = try await currentMetadata(now: Date())
        var fields = [
            ("client_id", settings.clientID), ("response_type", "code"), ("redirect_uri", redirectURI),
            ("scope", settings.scopes.joined(separator: " ")), ("state", state), ("nonce", nonce),
            ("code_challenge", PKCE.challenge(for: codeVerifier)), ("code_challenge_method", "S256"),
            // BankID and Vipps offer Bokmål and English (their `ui_locales_supported` when they publish it).
            ("ui_locales", language.nearest(inTags: metadata.uiLocalesSupported.flatMap { $0.isEmpty ? nil : $0 } ?? ["nb", "en"]) ?? language.rawValue),
        ]
        if let loginHint { fields.append(("login_hint", loginHint)) }
        if let maxAge {
            fields.append(("max_age", String(maxAge)))
            if maxAge == 0 { fields.append(("prompt", "login")) }
        }
        if let acr = maxAge == 0 ? settings.stepUpACRValues ?? settings.acrValues : settings.acrValues { fields.append(("acr_values", acr)) }
        return URLComponents.appending(fields, to: metadata.authorizationEndpoint)
    }

    /// Exchanges the code (RFC 6749 §4.1.3) and verifies the ID token.
    func exchange(code: String, codeVerifier: String, redirectURI: String, nonce: String, now: Date) async throws(UpstreamError) -> (tokens: UpstreamTokens, idToken: UpstreamIDToken) {
        let metadata = try await currentMetadata(now: now)
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", codeVerifier)]
        var headers = HTTPHeaders()
        switch settings.authentication {
        case .secret(let secret):
            let credentials = "\(FormFields.encode(settings.clientID)):\(FormFields.encode(secret))"
            headers.add(name: "Authorization", value: "Basic " + Data(credentials.utf8).base64EncodedString())
        case .privateKey(let key):
            fields.append(("client_id", settings.clientID))
            fields.append(("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"))
            fields.append(("client_assertion", try await clientAssertion(key: key, audience: metadata.tokenEndpoint, now: now)))
        }
        let body = fields.map { "\($0.0)=\(FormFields.encode($0.1))" }.joined(separator: "&")
        headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let (status, data) = try await send(metadata.tokenEndpoint, method: .POST, headers: headers, body: body)
        guard status.code < 500 else { throw .unavailable("token endpoint answered \(status.code)") }
        guard status == .ok else { throw .rejected("token endpoint refused the code (\(status.code))") }
        guard let tokens = try? JSONDecoder().decode(UpstreamTokens.self, from: data) else {
            throw .unavailable("token endpoint answered with an unexpected body")
        }
        let idToken = try await verify(idToken: tokens.idToken, nonce: nonce, now: now)
        return (tokens, idToken)
    }

    /// Vipps userinfo (the `nin` and the phone number); its `sub` must be the ID token's.
    func userinfo(accessToken: String, subject: String, now: Date) async throws(UpstreamError) -> UpstreamUserinfo {
        let metadata = try await currentMetadata(now: now)
        guard let endpoint = metadata.userinfoEndpoint else { throw .unavailable("no userinfo endpoint") }
        var headers = HTTPHeaders()
        headers.add(name: "Authorization", value: "Bearer \(accessToken)")
        let (status, data) = try await send(endpoint, method: .GET, headers: headers)
        guard status.code < 500 else { throw .unavailable("userinfo answered \(status.code)") }
        guard status == .ok, let info = try? JSONDecoder().decode(UpstreamUserinfo.self, from: data) else {
            throw .rejected("userinfo refused the access token (\(status.code))")
        }
        guard info.sub == subject else { throw .rejected("userinfo is about another subject") }
        return info
    }

    // MARK: - ID token

    /// Signature by the provider's current key (looked up by `kid`, JWKS refetched once when the
    /// `kid` is new), RS256 only, then `iss`, `aud`, `azp`, `exp`, `iat` and `nonce`.
    func verify(idToken: String, nonce expectedNonce: String, now: Date) async throws(UpstreamError) -> UpstreamIDToken {
        guard let header = JOSEHeader(compactJWS: idToken) else { throw .rejected("ID token is not a compact JWS") }
        guard header.alg == "RS256" else { throw .rejected("ID token algorithm \(header.alg ?? "missing") is not RS256") }
        guard header.keyReferences.isEmpty else { throw .rejected("ID token header carries \(header.keyReferences.sorted().joined(separator: ","))") }
        guard let kid = header.kid else { throw .rejected("ID token has no kid") }
        let collection = try await keyCollection(containing: kid, now: now)

        let claims: UpstreamIDToken
        do {
            claims = try await collection.verify(idToken, as: UpstreamIDToken.self)
        } catch {
            throw .rejected("ID token signature does not verify")
        }
        let metadata = try await currentMetadata(now: now)
        let leeway: Double = 60
        let time = now.timeIntervalSince1970
        guard claims.iss == metadata.issuer else { throw .rejected("ID token issuer is wrong") }
        guard claims.aud.value.contains(settings.clientID) else { throw .rejected("ID token audience is wrong") }
        if claims.aud.value.count > 1 || claims.azp != nil {
            guard claims.azp == settings.clientID else { throw .rejected("ID token azp is wrong") }
        }
        guard claims.exp + leeway > time else { throw .rejected("ID token expired") }
        guard claims.iat - leeway <= time, time - claims.iat < 600 else { throw .rejected("ID token issued at an implausible time") }
        guard let nonce = claims.nonce, constantTimeEqual(nonce, expectedNonce) else { throw .rejected("ID token nonce does not match") }
        return claims
    }

    private func keyCollection(containing kid: String, now: Date) async throws(UpstreamError) -> JWTKeyCollection {
        if let keys, keys.kids.contains(kid) { return keys.collection }
        // An unknown kid may be a rotation: refetch once, but not more than every 10 s, so forged kids cannot make us hammer the provider.
        if let keys, now.timeIntervalSince(keys.fetchedAt) < 10 { throw .rejected("ID token kid is unknown") }
        let metadata = try await currentMetadata(now: now)
        let (status, data) = try await send(metadata.jwksURI, method: .GET)
        guard status == .ok else {
            record(ProviderState(state: .unreachable, detail: "its keys (jwks_uri) answered \(status.code)", checkedAt: Int(now.timeIntervalSince1970)))
            throw .unavailable("JWKS answered \(status.code)")
        }
        guard let jwks = try? JSONDecoder().decode(JWKS.self, from: data) else { throw .unavailable("JWKS is malformed") }
        let collection = JWTKeyCollection()
        do {
            try await collection.add(jwks: jwks)
        } catch {
            throw .unavailable("JWKS has no usable key")
        }
        let kids = Set(jwks.keys.compactMap { $0.keyIdentifier?.string })
        keys = (collection, kids, now)
        guard kids.contains(kid) else { throw .rejected("ID token kid is unknown") }
        return collection
    }

    // MARK: - Discovery and HTTP

    private func currentMetadata(now: Date) async throws(UpstreamError) -> OpenIDProviderMetadata {
        if let metadata, now.timeIntervalSince(metadata.fetchedAt) < metadataMaxAge { return metadata.value }
        do throws(UpstreamError) {
            let (status, data) = try await send(settings.discoveryURL, method: .GET)
            guard status == .ok else { throw UpstreamError.unavailable("discovery answered \(status.code)") }
            guard let value = try? JSONDecoder().decode(OpenIDProviderMetadata.self, from: data) else { throw UpstreamError.unavailable("discovery document is malformed") }
            metadata = (value, now)
            unlistedScopes = settings.unlistedScopes(value)
            if let misfit = settings.misfit(value) {
                record(ProviderState(state: .misconfigured, detail: misfit, checkedAt: Int(now.timeIntervalSince1970)))
            } else {
                record(ProviderState(state: .reachable, detail: nil, checkedAt: Int(now.timeIntervalSince1970)))
            }
            return value
        } catch {
            record(ProviderState(state: .unreachable, detail: error.description, checkedAt: Int(now.timeIntervalSince1970)))
            throw error
        }
    }

    /// Fetches discovery and the keys afresh and says whether they fit this client (the
    /// start-up check); the answer is also ``state``.
    @discardableResult
    func check(now: Date) async -> ProviderState {
        metadata = nil
        let at = Int(now.timeIntervalSince1970)
        do {
            let document = try await currentMetadata(now: now)
            if let state, state.state == .misconfigured { return state }
            let (status, data) = try await send(document.jwksURI, method: .GET)
            guard status == .ok, let jwks = try? JSONDecoder().decode(JWKS.self, from: data), !jwks.keys.isEmpty else {
                record(ProviderState(state: .unreachable, detail: "its keys (jwks_uri) answered \(status.code) without a usable key", checkedAt: at))
                return state!
            }
            record(ProviderState(state: .reachable, detail: nil, checkedAt: at))
        } catch {
            record(ProviderState(state: .unreachable, detail: error.description, checkedAt: at))
        }
        return state!
    }

    /// Drops the cached discovery document, so the next login finds out whether the provider is back.
    func forgetMetadata() {
        metadata = nil
    }

    private func clientAssertion(key: SigningKey, audience: String, now: Date) async throws(UpstreamError) -> String {
        let claims = ClientAssertionClaims(
            iss: settings.clientID, sub: settings.clientID, aud: audience, jti: randomToken(bytes: 16),
            iat: Int(now.timeIntervalSince1970), exp: Int(now.timeIntervalSince1970) + 60
        )
        let keys = JWTKeyCollection()
        await key.add(to: keys, signing: true)
        do {
            return try await keys.sign(claims, kid: JWKIdentifier(string: key.kid))
        } catch {
            throw .unavailable("could not sign the client assertion")
        }
    }

    private func send(_ url: String, method: HTTPMethod, headers: HTTPHeaders = [:], body: String? = nil) async throws(UpstreamError) -> (HTTPResponseStatus, Data) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers = headers
        request.headers.add(name: "Accept", value: "application/json")
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        do {
            let response = try await http.execute(request, timeout: timeout)
            let buffer = try await response.body.collect(upTo: 1024 * 1024)
            return (response.status, Data(buffer: buffer))
        } catch {
            let reason = "no answer from \(settings.provider.rawValue) (\(type(of: error)))"
            record(ProviderState(state: .unreachable, detail: reason, checkedAt: Int(Date().timeIntervalSince1970)))
            throw .unavailable(reason)
        }
    }
}

/// RFC 7523 §3 claims for `private_key_jwt`.
private struct ClientAssertionClaims: JWTPayload {
    let iss: String
    let sub: String
    let aud: String
    let jti: String
    let iat: Int
    let exp: Int

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
