import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// Sessions, codes and signing keys in memory for ``SessionService``. A code or a rotation
/// answers what the test put there (the database's own rules are tested against both databases);
/// what the service writes is recorded.
actor InMemorySessions: SessionStore, TokenIssuerStore, SigningKeyRepository {
    var sessions: [String: Session] = [:]
    var codes: [Data: CodeRedemption] = [:]
    var rotation: RefreshRotation = .unknown
    var sessionsByRefreshHash: [Data: String] = [:]
    /// Refresh tokens already rotated (no longer their session's own).
    var rotatedRefreshHashes: Set<Data> = []
    private(set) var refreshTokens: [(sessionID: String, hash: Data)] = []
    private(set) var revoked: [(id: String, reason: String)] = []
    private(set) var audit: [AuditEvent] = []
    private(set) var rotationProofs: [DPoPProofRecord?] = []
    private var keys: [StoredSigningKey] = []

    func put(_ session: Session) { sessions[session.id] = session }
    func putCode(_ token: String, _ answer: CodeRedemption) { codes[RefreshTokenSecret.hash(token)] = answer }
    func answerRotations(with answer: RefreshRotation) { rotation = answer }
    func putRefreshToken(_ token: String, of sessionID: String, rotated: Bool = false) {
        sessionsByRefreshHash[RefreshTokenSecret.hash(token)] = sessionID
        if rotated { rotatedRefreshHashes.insert(RefreshTokenSecret.hash(token)) }
    }

    func redeemAuthorizationCode(hash: Data, now: Date) async throws -> CodeRedemption {
        codes[hash] ?? .unknown
    }

    func insertRefreshToken(sessionID: String, tokenHash: Data, parentID: String?, expiresAt: Date, now: Date) async throws -> RefreshToken {
        refreshTokens.append((sessionID, tokenHash))
        let id = UUID().uuidString
        let json: [String: Any] = [
            "id": id, "sessionId": sessionID, "tokenHash": tokenHash.base64EncodedString(), "createdAt": now.millisecondsSince1970,
            "expiresAt": expiresAt.millisecondsSince1970,
        ]
        return try JSONDecoder().decode(RefreshToken.self, from: JSONSerialization.data(withJSONObject: json))
    }

    func rotateRefreshToken(
        hash: Data, successorHash: Data, clientID: String, dpopJKT: String?, proof: DPoPProofRecord?, idleLifetime: TimeInterval, now: Date
    ) async throws -> RefreshRotation {
        rotationProofs.append(proof)
        return rotation
    }

    func session(id: String) async throws -> Session? { sessions[id] }

    func session(refreshTokenHash hash: Data, now: Date) async throws -> (session: Session, isCurrent: Bool)? {
        sessionsByRefreshHash[hash].flatMap { sessions[$0] }.map { ($0, !rotatedRefreshHashes.contains(hash)) }
    }

    func bindSession(id: String, dpopJKT jkt: String) async throws -> Session? {
        guard let session = sessions[id] else { return nil }
        if session.dpopJkt == nil { sessions[id] = try Self.session(session, boundTo: jkt) }
        return sessions[id]
    }

    func revokeSession(id: String, reason: String, now: Date) async throws {
        revoked.append((id, reason))
        if let session = sessions[id] { sessions[id] = try Self.session(session, revokedAt: now) }
    }

    func append(_ event: AuditEvent) async throws { audit.append(event) }

    /// No browser sign-ins here: the domain's tests of sessions make none.
    func browserSession(idHash: Data, now: Date) async throws -> BrowserSession? { nil }
    func endBrowserSession(id: String, reason: String, now: Date) async throws -> Int { 0 }

    func user(id: String) async throws -> User? { nil }
    func organisationRoles(userID: String) async throws -> [OrganisationRoles] { [] }

    func signingKeys() async throws -> [StoredSigningKey] { keys }
    func activate(_ new: [StoredSigningKey], now: Date) async throws { keys.insert(contentsOf: new, at: 0) }

    /// `session` with its fields changed as the database would change them.
    private static func session(_ session: Session, boundTo jkt: String? = nil, revokedAt: Date? = nil) throws -> Session {
        var fields = try JSONSerialization.jsonObject(with: JSONEncoder().encode(session)) as? [String: Any] ?? [:]
        if let jkt { fields["dpopJkt"] = jkt }
        if let revokedAt { fields["revokedAt"] = revokedAt.millisecondsSince1970 }
        return try JSONDecoder().decode(Session.self, from: JSONSerialization.data(withJSONObject: fields))
    }
}
