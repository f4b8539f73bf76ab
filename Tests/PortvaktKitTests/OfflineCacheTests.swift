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
        let body = Data(#"{"note":"Anne in Storgata"}"#.utf8)
        try await OfflineCache(storage: storage).store(body, as: .activities, for: "kari")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        #expect(!files.isEmpty)
        for file in files {
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            #expect(!text.contains("Storgata") && !text.contains(body.base64EncodedString()) && !text.contains("kari"), "neither the text, its base64, nor whose it is")
        }
    }
}
