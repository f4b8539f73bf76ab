import Foundation
import Hummingbird
import Logging
import PortvaktCore
import PortvaktModels
import PortvaktServer
@testable import PortvaktStorage
import PortvaktTestSupport
import ServiceLifecycle
import Synchronization
import Testing

@Suite("Member outbox with several workers")
struct OutboxDeliveryTests {
    @Test("Two instances and a slow member system: each message is delivered once, in order per member, and the slow one holds up no other", arguments: TestDatabase.kinds)
    func twoWorkersSlowReceiver(kind: DatabaseKind) async throws {
        try await MemberSystemReceiver.run(slow: ["hlf": .milliseconds(1500)]) { receiver in
            try await TestDatabase.withServerDatabase(kind) { databaseURL in
                let settings = receiver.settings(dataDirectory: "portvakt-outbox-\(UUID().uuidString)")
                try await LiveBroker.serve(databaseURL: databaseURL, settings: settings) { first in
                    try await LiveBroker.serve(databaseURL: databaseURL, settings: settings) { _ in
                        // Three updates for each of three members in each organisation, committed
                        // together, the slow organisation's first.
                        let enqueued = try await first.withStoreAndKeys { store, keys in
                            try await LiveBroker.enqueueUpdates(organisations: ["hlf", "nhf", "blindeforbundet"], members: 3, updatesEach: 3, store: store, keys: keys)
                        }
                        #expect(enqueued == 27)
                        #expect(try await first.eventually(30) {
                            try await ["nhf", "blindeforbundet", "hlf"].asyncAllSatisfy { try await first.outbox($0).allSatisfy { $0.status == .delivered } }
                        })
                        let arrivals = receiver.arrivals
                        #expect(arrivals.count == 27, "each message once: \(arrivals.count) deliveries")
                        #expect(Set(arrivals.map(\.key)).count == 27)
                        for (member, updates) in Dictionary(grouping: arrivals, by: \.member) {
                            #expect(updates.map(\.sequence) == [1, 2, 3], "member \(member) in order")
                        }
                        // HLF answers each update in 1.5 s, so its three rounds, one after another,
                        // take 4.5 s or more; the others are done before HLF's second round ends.
                        let hlfDone = try #require(arrivals.filter { $0.organisation == "hlf" }.map(\.answered).max())
                        let othersDone = try #require(arrivals.filter { $0.organisation != "hlf" }.map(\.answered).max())
                        let hlfStarted = try #require(arrivals.filter { $0.organisation == "hlf" }.map(\.received).min())
                        #expect(othersDone < hlfStarted.addingTimeInterval(3), "the fast member systems waited for the slow one")
                        #expect(hlfDone.timeIntervalSince(hlfStarted) >= 4.5)
                    }
                }
            }
        }
    }

    @Test("An outcome is recorded only under the current claim: a late failure never undoes a delivery", arguments: TestDatabase.kinds)
    func staleClaims(kind: DatabaseKind) async throws {
        try await MemberSystemReceiver.run(slow: [:]) { receiver in
            try await TestDatabase.withServerDatabase(kind) { databaseURL in
                let settings = receiver.settings(dataDirectory: "portvakt-claims-\(UUID().uuidString)")
                try await LiveBroker.serve(databaseURL: databaseURL, settings: settings) { broker in
                    try await broker.withStoreAndKeys { store, keys in
                        // An hour ahead: the server's own worker, on the real clock, leaves the message alone.
                        let now = Date().addingTimeInterval(3600)
                        try await LiveBroker.enqueueUpdates(organisations: ["nhf"], members: 1, updatesEach: 1, store: store, keys: keys, now: now)
                        let first = try #require(try await store.claimDueOutboxMessages(claimID: "first", lease: 30, limit: 5, now: now).first)
                        #expect(try await store.claimDueOutboxMessages(claimID: "other", lease: 30, limit: 5, now: now.addingTimeInterval(29)).isEmpty)
                        // The first worker's lease runs out; a second worker claims the message and delivers it.
                        let second = try #require(try await store.claimDueOutboxMessages(claimID: "second", lease: 30, limit: 5, now: now.addingTimeInterval(31)).first)
                        #expect(second.id == first.id)
                        #expect(try await store.markOutboxDelivered(id: second.id, claimID: "second", now: now.addingTimeInterval(32)))
                        // The first worker's late outcomes change nothing.
                        #expect(try await !store.markOutboxFailed(id: first.id, claimID: "first", error: "timeout", nextAttempt: nil, now: now.addingTimeInterval(40)))
                        #expect(try await !store.markOutboxDelivered(id: first.id, claimID: "first", now: now.addingTimeInterval(40)))
                        #expect(try await !store.markOutboxFailed(id: second.id, claimID: "second", error: "late", nextAttempt: nil, now: now.addingTimeInterval(41)))
                        let message = try #require(try await store.outboxMessages(organisationID: first.organisationId).first)
                        #expect(message.status == .delivered)
                        #expect(message.attempts == 1)
                        #expect(message.lastError == nil)
                    }
                }
            }
        }
    }
}

extension LiveBroker {
    func withStoreAndKeys<R: Sendable>(_ body: @escaping @Sendable (PortvaktStore, DataProtectionKeys) async throws -> R) async throws -> R {
        try await PortvaktApplication.withStore(configuration: configuration, logger: TestDatabase.logger, body)
    }

    /// Enqueues `updatesEach` numbered updates for each of the first `members` member records of
    /// each organisation, in one transaction, sealed as the worker expects.
    @discardableResult
    static func enqueueUpdates(
        organisations: [String], members: Int, updatesEach: Int, store: PortvaktStore, keys: DataProtectionKeys, now: Date = Date()
    ) async throws -> Int {
        var messages: [OutboxMessage] = []
        for slug in organisations {
            let organisation = try #require(try await store.organisation(slug: slug))
            let records = try await store.memberRecords(organisationID: organisation.id).prefix(members)
            #expect(records.count == members)
            for record in records {
                for sequence in 1...updatesEach {
                    let id = UUID().uuidString.lowercased()
                    let body = try JSONSerialization.data(withJSONObject: ["organisation": slug, "member": record.id, "sequence": sequence])
                    let payload = try keys.cipher.seal(body, context: OutboxMessage.payloadContext(messageID: id))
                    // Created a millisecond apart, as separate logins would be.
                    messages.append(OutboxMessage(
                        id: id, organisationID: organisation.id, memberRecordID: record.id, event: "personnummer.set",
                        payload: payload, now: now.addingTimeInterval(Double(messages.count) / 1000)
                    ))
                }
            }
        }
        try await store.write { [messages] db in
            for message in messages { try await db.insert(into: "member_outbox").row(message).run() }
        }
        return messages.count
    }
}

extension Array where Element: Sendable {
    func asyncAllSatisfy(_ predicate: (Element) async throws -> Bool) async rethrows -> Bool {
        for element in self where try await !predicate(element) { return false }
        return true
    }
}

/// Member systems on a loopback port (`/nhf`, `/hlf`, …) that record each delivery: its
/// idempotency key, the member and update number from the body, and when it came and was answered.
final class MemberSystemReceiver: Sendable {
    static let secret = "member-system-secret-0123456789"

    struct Arrival: Sendable {
        let organisation: String
        let key: String
        let member: String
        let sequence: Int
        let received: Date
        let answered: Date
    }

    let port: Int
    private let recorded = Mutex<[Arrival]>([])

    var arrivals: [Arrival] { recorded.withLock { $0 } }

    private init(port: Int) { self.port = port }

    func settings(dataDirectory: String) -> [String: String] {
        let organisations = ["nhf", "blindeforbundet", "hlf"]
        return [
            "PORTVAKT_DATA_DIR": FileManager.default.temporaryDirectory.appendingPathComponent(dataDirectory).path,
            "PORTVAKT_MEMBER_SYSTEMS": organisations.map { "\($0)=http://127.0.0.1:\(port)/\($0)" }.joined(separator: ","),
            "PORTVAKT_MEMBER_SYSTEM_SECRETS": organisations.map { "\($0)=\(Self.secret)" }.joined(separator: ","),
        ]
    }

    /// Runs the receivers, where `slow` organisations take the given time to answer each update.
    static func run(slow: [String: Duration], _ body: @Sendable (MemberSystemReceiver) async throws -> Void) async throws {
        var logger = Logger(label: "member-system")
        logger.logLevel = .critical
        let (ports, bound) = AsyncStream<Int>.makeStream()
        let receiver = Mutex<MemberSystemReceiver?>(nil)
        let router = Router()
        router.post("/{organisation}") { request, context -> HTTPResponse.Status in
            let received = Date()
            let organisation = try context.parameters.require("organisation")
            let body = try await request.body.collect(upTo: 64 * 1024)
            let json = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any] ?? [:]
            if let delay = slow[organisation] { try await Task.sleep(for: delay) }
            let arrival = Arrival(
                organisation: organisation, key: request.headers.first { $0.name.canonicalName == "idempotency-key" }?.value ?? "",
                member: json["member"] as? String ?? "", sequence: json["sequence"] as? Int ?? 0, received: received, answered: Date()
            )
            receiver.withLock { $0 }?.recorded.withLock { $0.append(arrival) }
            return .noContent
        }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { bound.yield($0.localAddress?.port ?? 0) }, logger: logger
        )
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // A receiver that cannot bind ends the wait below instead of leaving it forever.
                defer { bound.finish() }
                try await services.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                try await group.waitForAll()
                throw CancellationError()
            }
            let running = MemberSystemReceiver(port: port)
            receiver.withLock { $0 = running }
            do {
                try await body(running)
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
    }
}
