import Crypto
import Foundation
import Logging
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import Testing

/// ``SessionService``'s decisions with its store in memory: what a code, a refresh token or a
/// revocation that is not right ends, records and answers.
@Suite("Session service (in memory)")
struct SessionServiceTests {
    let store = InMemorySessions()
    let service: SessionService
    let verifier: TokenVerifier
    static let address = PublicAddress("https://login.example.test")
    static let client = "no.portvakt.app"
    static let redirect = "no.portvakt.app:/callback"
    static let verifierText = String(repeating: "v", count: 43)
    static let proofKey = String(repeating: "k", count: 43)

    init() throws {
        let keys = try Fixtures().keys
        let now: @Sendable () -> Date = { Fixtures.now }
        let signingKeys = SigningKeyCache(store: store, cipher: keys.cipher)
        let lifetimes = SessionLifetimes(accessToken: 300, idle: 3600, absolute: 86_400)
        verifier = TokenVerifier(signingKeys: signingKeys, address: Self.address, clientIDs: [Self.client], now: now)
        service = SessionService(
            store: store, tokens: TokenIssuer(store: store, signingKeys: signingKeys, address: Self.address, lifetimes: lifetimes, now: now),
            verifier: verifier, refreshSecret: RefreshTokenSecret(key: keys.key(for: .refreshTokenSuccessor)), idleLifetime: 3600,
            logger: Logger(label: "test"), now: now
        )
    }

    private func code(for session: Session, client: String = client, boundTo jkt: String? = nil) -> AuthorizationCode {
        AuthorizationCode(
            codeHash: Data(), sessionID: session.id, clientID: client, redirectURI: Self.redirect,
            codeChallenge: PKCE.challenge(for: Self.verifierText), scope: "openid", nonce: "n-1", createdAt: Fixtures.now,
            expiresAt: Fixtures.now.addingTimeInterval(60), dpopJKT: jkt
        )
    }

    private func expectRefusal(_ kind: GrantRefusal.Kind, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected a refusal (\(kind))")
        } catch let refusal as GrantRefusal {
            #expect(refusal.kind == kind)
        } catch {
            Issue.record("expected a GrantRefusal, got \(error)")
        }
    }

    @Test("A good code gives tokens bound to the proof's key; the session is bound and gets a refresh token")
    func goodCode() async throws {
        let session = Fixtures.session("user-1", .bankID)
        await store.put(session)
        await store.putCode("code-1", .redeemed(code(for: session)))
        let answer = try await service.redeem(
            code: "code-1", clientID: Self.client, redirectURI: Self.redirect, verifier: Self.verifierText, proofKey: Self.proofKey
        )
        #expect(answer.tokenType == "DPoP")
        let claims = try #require(try await verifier.accessClaims(of: answer.accessToken))
        #expect(claims.sid == session.id && claims.cnf?.jkt == Self.proofKey)
        #expect(try await verifier.idClaims(of: #require(answer.idToken))?.nonce == "n-1")
        #expect(await store.sessions[session.id]?.dpopJkt == Self.proofKey)
        #expect(await store.refreshTokens.map(\.sessionID) == [session.id])
        #expect(await store.revoked.isEmpty)
    }

    @Test(
        "A code with another client, redirect URI, verifier, none, or a key it is not bound to ends the session it was for, audited",
        arguments: [
            ("other.client", redirect, verifierText, nil as String?, "The code was issued to another client."),
            (client, "no.portvakt.app:/elsewhere", verifierText, nil, "redirect_uri does not match the authorization request."),
            (client, redirect, String(repeating: "w", count: 43), nil, "code_verifier does not match the code_challenge."),
            (client, redirect, nil, nil, "code_verifier is required."),
            (client, redirect, verifierText, "another-key", "The code is bound to another DPoP key (dpop_jkt)."),
        ] as [(String, String, String?, String?, String)]
    )
    func wrongCode(client: String, redirect: String, verifier: String?, proofKey: String?, problem: String) async throws {
        let session = Fixtures.session("user-1", .bankID)
        await store.put(session)
        await store.putCode("code-1", .redeemed(code(for: session, boundTo: Self.proofKey)))
        do {
            _ = try await service.redeem(code: "code-1", clientID: client, redirectURI: redirect, verifier: verifier, proofKey: proofKey)
            Issue.record("the code was accepted")
        } catch let refusal as GrantRefusal {
            #expect(refusal.kind == .invalidGrant && refusal.description == problem && refusal.message == .loginFailed)
        }
        #expect(await store.revoked.map(\.id) == [session.id])
        #expect(await store.revoked.map(\.reason) == ["code_redemption_failed"])
        let event = try #require(await store.audit.first)
        #expect(event.action == AuditAction.loginCodeRedemption.rawValue && event.details["reason"] == problem)
        #expect(await store.refreshTokens.isEmpty)
    }

    @Test("A code redeemed a second time ends the session the first redemption made (RFC 9700 §4.5.3), audited")
    func replayedCode() async throws {
        let session = Fixtures.session("user-1", .bankID)
        await store.put(session)
        await store.putCode("code-1", .replayed(sessionID: session.id))
        await expectRefusal(.invalidGrant) {
            _ = try await service.redeem(code: "code-1", clientID: Self.client, redirectURI: Self.redirect, verifier: Self.verifierText, proofKey: nil)
        }
        #expect(await store.revoked.map(\.reason) == ["code_replayed"])
        #expect(await store.audit.map(\.action) == [AuditAction.loginCodeReplayed.rawValue])
    }

    @Test("An unknown code, or one whose session has ended, opens nothing")
    func unknownOrEnded() async throws {
        await expectRefusal(.invalidGrant) {
            _ = try await service.redeem(code: "nope", clientID: Self.client, redirectURI: Self.redirect, verifier: Self.verifierText, proofKey: nil)
        }
        let session = Fixtures.session("user-1", .bankID, age: 90_000)
        await store.put(session)
        await store.putCode("code-2", .redeemed(code(for: session)))
        await expectRefusal(.sessionEnded) {
            _ = try await service.redeem(code: "code-2", clientID: Self.client, redirectURI: Self.redirect, verifier: Self.verifierText, proofKey: nil)
        }
        #expect(await store.refreshTokens.isEmpty)
    }

    /// The store ends the session in the same transaction as it finds the reuse; that the session
    /// is then over, on both databases, is RefreshRotationTests' "a stolen predecessor …".
    @Test("A rotated refresh token used again, which the store answers as a reuse, tells the app to log in, and it is audited")
    func reusedRefreshToken() async throws {
        let session = Fixtures.session("user-1", .bankID)
        await store.answerRotations(with: .reused(session))
        await expectRefusal(.sessionEnded) { _ = try await service.refresh(token: "old", clientID: Self.client, proof: nil) }
        #expect(await store.audit.map(\.action) == [AuditAction.sessionRefreshTokenReused.rawValue])
    }

    @Test("A bound refresh token without a proof asks for one; with another key's proof it is refused; both audited, the session lives on")
    func boundRefreshToken() async throws {
        let session = Fixtures.session("user-1", .bankID)
        await store.answerRotations(with: .wrongKey(session))
        await expectRefusal(.proofInvalid) { _ = try await service.refresh(token: "t", clientID: Self.client, proof: nil) }
        let proof = ProofOfPossession(key: "other-key", record: DPoPProofRecord(jtiHash: Data([1]), expiresAt: Fixtures.now))
        await expectRefusal(.invalidGrant) { _ = try await service.refresh(token: "t", clientID: Self.client, proof: proof) }
        #expect(await store.audit.map(\.action) == Array(repeating: AuditAction.sessionRefreshWrongKey.rawValue, count: 2))
        #expect(await store.rotationProofs.map { $0?.jtiHash } == [nil, Data([1])])
        #expect(await store.revoked.isEmpty)
    }

    @Test("A replayed proof, an expired session or an unknown token refreshes nothing")
    func refusedRefreshes() async throws {
        let session = Fixtures.session("user-1", .bankID)
        for (answer, kind) in [(RefreshRotation.replayedProof, GrantRefusal.Kind.proofInvalid), (.expired(session), .sessionEnded), (.unknown, .sessionEnded)] {
            await store.answerRotations(with: answer)
            await expectRefusal(kind) { _ = try await service.refresh(token: "t", clientID: Self.client, proof: nil) }
        }
        #expect(await store.audit.isEmpty)
    }

    @Test("Issue 46 item 2: a bound session's current token is revoked with no proof or one by its key; an old one only with the key, another key's proof never; another client's token or an unknown one is ignored (RFC 7009)")
    func revoke() async throws {
        let session = try #require(try await bound(Fixtures.session("user-1", .bankID)))
        await store.putRefreshToken("refresh-0", of: session.id, rotated: true)
        await store.putRefreshToken("refresh-1", of: session.id)
        await expectRefusal(.proofInvalid) { try await service.revoke(token: "refresh-0", clientID: Self.client, proofKey: nil, reason: "revoked") }
        await expectRefusal(.proofInvalid) { try await service.revoke(token: "refresh-1", clientID: Self.client, proofKey: "another-key", reason: "revoked") }
        try await service.revoke(token: "refresh-1", clientID: "other.client", proofKey: Self.proofKey, reason: "revoked")
        try await service.revoke(token: "unknown", clientID: Self.client, proofKey: nil, reason: "revoked")
        #expect(await store.revoked.isEmpty)
        try await service.revoke(token: "refresh-1", clientID: Self.client, proofKey: nil, reason: "revoked")
        #expect(await store.revoked.map(\.id) == [session.id])
        #expect(await store.audit.map(\.action) == [AuditAction.sessionEnded.rawValue])
    }

    private func bound(_ session: Session) async throws -> Session? {
        await store.put(session)
        return try await store.bindSession(id: session.id, dpopJKT: Self.proofKey)
    }
}
