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

    /// Revokes `token` now, then any waiting before it; what the server could not be asked is kept.
    /// - Returns: whether the server has ended this token's session.
    @discardableResult
    public func revoke(_ token: String) async -> Bool {
        await oneAtATime {
            switch await Self.send(token, with: self.client) {
            case .answered:
                await self.sendWaiting()
                return true
            case .unreachable:
                // The waiting ones are not tried: the network that just failed would hold the
                // member once more for each.
                guard var waiting = await self.stored() else { return false }
                waiting.append(token)
                await self.keep(Array(waiting.suffix(Self.limit)))
                return false
            }
        }
    }

    /// Sends every waiting revocation, oldest first, until one cannot reach the server.
    /// - Returns: how many still wait.
    @discardableResult
    public func retry() async -> Int {
        await oneAtATime { await self.sendWaiting() }
    }

    /// How many revocations wait for the network (a list that cannot be read now counts as one,
    /// so that no one is told every session has ended, and the proof key stays).
    public func count() async -> Int {
        await oneAtATime { await self.stored()?.count ?? 1 }
    }

    private func sendWaiting() async -> Int {
        guard let waiting = await stored() else { return 1 }
        var sent = 0
        for token in waiting {
            guard await Self.send(token, with: client) == .answered else { break }
            sent += 1
        }
        if sent > 0 { await keep(Array(waiting.dropFirst(sent))) }
        return waiting.count - sent
    }

    /// Runs `work` after every operation begun before it has ended.
    private func oneAtATime<Result: Sendable>(_ work: @escaping @Sendable () async -> Result) async -> Result {
        let before = lastOperation
        let this = Task { _ = await before?.value; return await work() }
        lastOperation = Task { _ = await this.value }
        return await this.value
    }

    enum Outcome: Sendable, Equatable {
        /// Portvakt ended the session, or refused the token for good (a token it never issued).
        case answered
        /// No connection, a timeout, 408, 429, a 5xx, or an answer that is not Portvakt's: later.
        case unreachable
    }

    /// A revocation is answered by a 2xx, or by a 4xx carrying an OAuth `error` (Portvakt's own
    /// refusal, not asked again); anything else, a captive portal's redirect too, is tried later.
    private static func send(_ token: String, with client: PortvaktClient) async -> Outcome {
        do {
            try await client.revoke(token)
            return .answered
        } catch let refusal as PortvaktError {
            return refusal.isRefusal ? .answered : .unreachable
        } catch {
            return .unreachable
        }
    }

    /// The waiting tokens; nil when the storage cannot be read now (then nothing is written over
    /// them). A list that cannot be decoded is none.
    private func stored() async -> [String]? {
        let data: Data?
        do {
            data = try await storage.read(.pendingRevocations)
        } catch {
            return nil
        }
        guard let data else { return [] }
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
