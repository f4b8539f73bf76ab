import Foundation
import PortvaktProtocol

/// Access and refresh tokens as the server issued them.
public struct TokenSet: Sendable, Hashable, Codable {
    public let accessToken: String
    public let refreshToken: String
    public let expiresAt: Date
    /// When the session ends however often it is refreshed (S16.3); nil when the server did not say.
    public var sessionEndsAt: Date?
    /// After a BankID or Vipps login: when the device keys stop unlocking (S16.3).
    public var deviceTrustEndsAt: Date?

    public init(accessToken: String, refreshToken: String, expiresAt: Date, sessionEndsAt: Date? = nil, deviceTrustEndsAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.sessionEndsAt = sessionEndsAt
        self.deviceTrustEndsAt = deviceTrustEndsAt
    }
}

/// Why a refresh did not give tokens.
public enum TokenRefreshError: Error, Sendable, Hashable {
    /// The server said `invalid_grant`: the session is over (the only reason to log out).
    case sessionExpired
    /// No network, a timeout, a 5xx: the session stays; try later.
    case unavailable
    /// Logged out (or another user logged in) while the refresh was under way.
    case superseded
}

/// Redeems a refresh token at `/oauth/token`.
public protocol TokenRefresher: Sendable {
    /// - Throws: ``TokenRefreshError/sessionExpired`` on `invalid_grant`; anything else counts as unavailable.
    func refresh(_ refreshToken: String) async throws -> TokenSet
}

/// Hands out a valid access token, refreshing when it is about to expire.
///
/// - One refresh at a time: concurrent callers wait for the same one.
/// - The rotated refresh token is written to secure storage before anyone gets the new access
///   token, so a crash right after cannot leave only the spent token behind.
/// - Only `invalid_grant` ends the session; network trouble keeps it.
/// - A refresh that finishes after a logout or a new login writes nothing.
public actor TokenManager {
    private let storage: any SecureStorage
    private let refresher: any TokenRefresher
    private let now: @Sendable () -> Date
    /// Refresh this long before the access token expires.
    private let margin: TimeInterval
    private var tokens: TokenSet?
    private var refreshing: Task<TokenSet, any Error>?
    /// Moves on at every login and logout; a refresh started under an older one is dropped.
    private var generation = 0

    public init(storage: any SecureStorage, refresher: any TokenRefresher, margin: TimeInterval = 30, now: @escaping @Sendable () -> Date = { Date() }) {
        self.storage = storage
        self.refresher = refresher
        self.margin = margin
        self.now = now
    }

    /// After a login or unlock: keep these tokens (the refresh token in secure storage).
    public func signedIn(_ tokens: TokenSet) async throws {
        generation += 1
        refreshing?.cancel()
        refreshing = nil
        try await storage.write(Data(tokens.refreshToken.utf8), for: .refreshToken)
        // S16.3: kept beside the session, so a launch knows before any prompt that it has lapsed.
        try await storage.writeDate(tokens.sessionEndsAt, for: .sessionEndsAt)
        if let trust = tokens.deviceTrustEndsAt { try await storage.writeDate(trust, for: .deviceTrustEndsAt) }
        if let user = Self.subject(of: tokens.accessToken) {
            try await storage.write(Data(user.utf8), for: .sessionUser)
        } else {
            try await storage.delete(.sessionUser)
        }
        self.tokens = tokens
    }

    /// The user of the session (the access token's `sub`), kept beside the refresh token so it is
    /// known offline after a restart too; nil without a session.
    public func userID() async -> String? {
        if let tokens, let user = Self.subject(of: tokens.accessToken) { return user }
        return try? await storage.readString(.sessionUser)
    }

    /// `sub` of a JWT this client was given (its own token: read, not verified).
    static func subject(of jwt: String) -> String? {
        claims(of: jwt, as: Subject.self)?.sub
    }

    private struct Subject: Decodable {
        let sub: String
    }

    /// The claims of a JWT this client was given, read, not verified: what the server said of
    /// its own token, for the screens to show (never for a decision the server does not repeat).
    static func claims<Claims: Decodable>(of jwt: String, as type: Claims.Type) -> Claims? {
        let parts = jwt.split(separator: ".")
        guard parts.count == 3, let data = Data(base64URLEncoded: String(parts[1])) else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }

    /// Whether a refresh token is stored (a session to resume).
    public func hasStoredSession() async throws -> Bool {
        try await storage.read(.refreshToken) != nil
    }

    /// Whether a session is at hand, in memory (biometrics turned off keeps it there only) or
    /// stored; a storage that cannot be read counts as yes.
    public func holdsSession() async -> Bool {
        if tokens != nil { return true }
        return (try? await hasStoredSession()) != false
    }

    /// A valid access token, refreshed first when needed.
    /// - Throws: ``TokenRefreshError``.
    public func accessToken() async throws -> String {
        if let tokens, tokens.expiresAt.timeIntervalSince(now()) > margin {
            return tokens.accessToken
        }
        return try await refresh().accessToken
    }

    /// Refreshes now (one refresh for all concurrent callers).
    @discardableResult
    public func refresh() async throws -> TokenSet {
        if let refreshing { return try await refreshing.value }
        let started = generation
        let task = Task { try await self.performRefresh(generation: started) }
        refreshing = task
        defer { if generation == started { refreshing = nil } }
        return try await task.value
    }

    /// Forgets the session here; returns the refresh token it held, for the caller to revoke at
    /// the server (``PortvaktClient/revoke(_:timeout:)``), which also works later if the network is down now.
    @discardableResult
    public func logout() async throws -> String? {
        generation += 1
        refreshing?.cancel()
        refreshing = nil
        var held = tokens?.refreshToken
        if held == nil { held = try await storage.readString(.refreshToken) }
        tokens = nil
        try await storage.delete(.refreshToken)
        try await storage.delete(.sessionUser)
        try await storage.delete(.sessionEndsAt)
        return held
    }

    /// Deletes the stored refresh token but keeps this run's tokens: the next launch starts at
    /// the method selection (biometrics turned off). Returns the refresh token for a later revoke.
    @discardableResult
    public func forgetStoredSession() async throws -> String? {
        let held = tokens?.refreshToken
        try await storage.delete(.refreshToken)
        return held
    }

    private func performRefresh(generation started: Int) async throws -> TokenSet {
        let stored: String?
        if let tokens {
            stored = tokens.refreshToken
        } else {
            stored = try await storage.readString(.refreshToken)
        }
        guard let stored else { throw TokenRefreshError.sessionExpired }
        let fresh: TokenSet
        do {
            fresh = try await refresher.refresh(stored)
        } catch TokenRefreshError.sessionExpired {
            guard generation == started else { throw TokenRefreshError.superseded }
            tokens = nil
            try await storage.delete(.refreshToken)
            throw TokenRefreshError.sessionExpired
        } catch {
            throw generation == started ? TokenRefreshError.unavailable : TokenRefreshError.superseded
        }
        guard generation == started else { throw TokenRefreshError.superseded }
        try await storage.write(Data(fresh.refreshToken.utf8), for: .refreshToken)
        try await storage.writeDate(fresh.sessionEndsAt, for: .sessionEndsAt)
        if let trust = fresh.deviceTrustEndsAt { try await storage.writeDate(trust, for: .deviceTrustEndsAt) }
        // A session from before the user was kept gets it at its first refresh.
        if let user = Self.subject(of: fresh.accessToken) { try await storage.write(Data(user.utf8), for: .sessionUser) }
        tokens = fresh
        return fresh
    }
}
