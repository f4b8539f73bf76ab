import Foundation

/// S12.3: the last-seen profile and activity list, kept in the secure storage (sealed on the
/// device) for the user they belong to, so that screens needing live data show them offline
/// beside the calm offline indicator. Another user's cache is never shown; logout clears it.
public struct OfflineCache: Sendable {
    public enum Item: String, Sendable, CaseIterable {
        /// `GET /v1/me`: who is signed in, organisations and roles.
        case profile = "portvakt_cached_profile_v1"
        /// `GET /v1/activities`: the activities the user may see.
        case activities = "portvakt_cached_activities_v1"

        var key: SecureStorageKey { SecureStorageKey(rawValue: rawValue) }
    }

    private struct Entry: Codable {
        let user: String
        let body: Data
        let storedAt: Date
    }

    let storage: any SecureStorage

    public init(storage: any SecureStorage) {
        self.storage = storage
    }

    /// Keeps the server's answer for `user`.
    public func store(_ body: Data, as item: Item, for user: String, at now: Date = Date()) async throws {
        try await storage.write(try JSONEncoder().encode(Entry(user: user, body: body, storedAt: now)), for: item.key)
    }

    /// The kept answer and when it was kept; nil when there is none, or it is another user's.
    public func read(_ item: Item, for user: String) async -> (body: Data, storedAt: Date)? {
        guard let data = (try? await storage.read(item.key)) ?? nil, let entry = try? JSONDecoder().decode(Entry.self, from: data), entry.user == user
        else { return nil }
        return (entry.body, entry.storedAt)
    }

    public func clear() async {
        for item in Item.allCases { try? await storage.delete(item.key) }
    }
}
