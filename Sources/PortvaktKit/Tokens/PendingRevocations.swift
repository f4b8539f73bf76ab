import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Refresh tokens a logout could not revoke at Portvakt (no network, the server away): kept in
/// the secure storage and sent again at the next chance, so a logout on a train still ends the
/// session at the server, and the member is told it has not yet. The proof key that signs a
/// revocation stays while one waits (``AuthDriver`` forgets it once none is left).
///
/// One list, changed one operation at a time: a retry at launch and a logout's revocation may
/// run at once, and each reads, sends and writes the list across awaits.
public actor PendingRevocations {
    /// More than this many logouts without a network: the oldest is dropped. Its proof key is
    /// kept, so it is still never usable without this phone.
    public static let limit = 8

    let storage: any SecureStorage
    let client: PortvaktClient

    public init(storage: any SecureStorage, client: PortvaktClient) {
        self.storage = storage
        self.client = client
    }

    private var lastOperation: Task<Void, Never>?

    /// Revokes `token` (and any waiting before it) now; what the server could not be asked is kept.
    /// - Returns: whether the server has ended this token's session.
    @discardableResult
    public func revoke(_ token: String) async -> Bool {
        await oneAtATime {
            await self.sendWaiting()
            guard await Self.send(token, with: self.client) == false else { return true }
            var waiting = await self.stored()
            waiting.append(token)
            await self.keep(Array(waiting.suffix(Self.limit)))
            return false
        }
    }

    /// Sends every waiting revocation once. - Returns: how many still wait.
    @discardableResult
    public func retry() async -> Int {
        await oneAtATime { await self.sendWaiting() }
    }

    /// How many revocations wait for the network.
    public func count() async -> Int {
        await oneAtATime { await self.stored().count }
    }

    private func sendWaiting() async -> Int {
        let waiting = await stored()
        guard !waiting.isEmpty else { return 0 }
        var left: [String] = []
        for token in waiting where await Self.send(token, with: client) == false { left.append(token) }
        await keep(left)
        return left.count
    }

    /// Runs `work` after every operation begun before it has ended.
    private func oneAtATime<Result: Sendable>(_ work: @escaping @Sendable () async -> Result) async -> Result {
        let before = lastOperation
        let this = Task { _ = await before?.value; return await work() }
        lastOperation = Task { _ = await this.value }
        return await this.value
    }

    /// Whether the server answered: a refusal (an unknown client, a token it never issued) is an
    /// answer too and is not asked again; a lost connection, 429 or a 5xx is tried later.
    private static func send(_ token: String, with client: PortvaktClient) async -> Bool {
        do {
            try await client.revoke(token)
            return true
        } catch let refusal as PortvaktError {
            return refusal.status != 429 && refusal.status < 500
        } catch {
            return false
        }
    }

    private func stored() async -> [String] {
        guard let data = try? await storage.read(.pendingRevocations) else { return [] }
        return (try? JSONDecoder().decode([String].self, from: data)) ?? []
    }

    private func keep(_ tokens: [String]) async {
        if tokens.isEmpty {
            try? await storage.delete(.pendingRevocations)
        } else if let data = try? JSONEncoder().encode(tokens) {
            try? await storage.write(data, for: .pendingRevocations)
        }
    }
}
