import Foundation
import PortvaktKit
import Testing

/// S12.3: what was seen last is kept on the device for its user, and shown offline.
@Suite("Offline cache (S12.3)")
struct OfflineCacheTests {
    @Test func S12_3_theLastSeenDataIsKeptForItsUserOnly() async throws {
        let storage = MemorySecureStorage()
        let cache = OfflineCache(storage: storage)
        let seen = Date(timeIntervalSince1970: 1_800_000_000)
        try await cache.store(Data(#"{"activities":[{"kind":"visit"}]}"#.utf8), as: .activities, for: "kari", at: seen)
        let kept = try #require(await cache.read(.activities, for: "kari"))
        #expect(String(decoding: kept.body, as: UTF8.self).contains("visit") && kept.storedAt == seen)
        #expect(await cache.read(.activities, for: "ola") == nil, "another user on the same device sees nothing of Kari's")
        #expect(await cache.read(.profile, for: "kari") == nil)
        await cache.clear()
        #expect(await cache.read(.activities, for: "kari") == nil, "logout clears it")
    }

    @Test func S12_3_onDiskTheCacheIsSealed() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "portvakt-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = FileSecureStorage(directory: folder)
        try await OfflineCache(storage: storage).store(Data(#"{"note":"Anne in Storgata"}"#.utf8), as: .activities, for: "kari")
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) {
            #expect(!(String(data: try Data(contentsOf: file), encoding: .utf8) ?? "").contains("Storgata"))
        }
    }
}
