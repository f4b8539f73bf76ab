import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// The mail outbox (issue 33, item 2): several workers send each message once, and a link in a
/// message is sealed at rest and purged once it is sent.
@Suite("Mail outbox")
struct MailOutboxTests {
    static func enqueue(_ count: Int, in store: PortvaktStore, cipher: FieldCipher, now: Date) async throws -> [MailOutboxMessage] {
        let messages = try (0..<count).map { index in
            let id = UUID().uuidString.lowercased()
            let body = try cipher.seal(Data("Open https://portvakt.example/portal/password/secret-\(index)".utf8), context: MailOutboxMessage.bodyContext(messageID: id))
            return MailOutboxMessage(
                id: id, recipient: "member\(index)@example.org", language: "nb", kind: "password_invite", subject: "Velg passord",
                body: body, now: now.addingTimeInterval(Double(index))
            )
        }
        try await store.enqueueMail(messages)
        return messages
    }

    @Test("Concurrent claims never return the same message, and together take every one", arguments: TestDatabase.kinds)
    func concurrentClaims(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let now = Date()
            let enqueued = try await Self.enqueue(30, in: store, cipher: StorageTestKeys.cipher(), now: now)
            let claimed = try await withThrowingTaskGroup(of: [String].self, returning: [String].self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        var mine: [String] = []
                        while true {
                            let batch = try await store.claimDueMail(claimID: "worker-\(worker)", lease: 60, limit: 3, now: now.addingTimeInterval(3600))
                            if batch.isEmpty { return mine }
                            #expect(batch.allSatisfy { $0.status == .sending && $0.claimId == "worker-\(worker)" })
                            mine += batch.map(\.id)
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            #expect(claimed.count == enqueued.count, "each message claimed once: \(claimed.count) claims")
            #expect(Set(claimed) == Set(enqueued.map(\.id)))
        }
    }

    @Test("A sent message's body is purged; one put in the sandbox's mailbox keeps it", arguments: TestDatabase.kinds)
    func purgedOnceSent(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let now = Date()
            let cipher = try StorageTestKeys.cipher()
            let enqueued = try await Self.enqueue(2, in: store, cipher: cipher, now: now)
            let stored = try #require(try await store.mailMessage(id: enqueued[0].id))
            let sealed = try #require(stored.body)
            #expect(!String(decoding: sealed.combined, as: UTF8.self).contains("secret-0"), "the link is sealed at rest")
            #expect(try cipher.open(sealed, context: MailOutboxMessage.bodyContext(messageID: stored.id)) == Data("Open https://portvakt.example/portal/password/secret-0".utf8))

            let claimed = try await store.claimDueMail(claimID: "c", lease: 60, limit: 5, now: now.addingTimeInterval(1))
            #expect(claimed.count == 2)
            #expect(try await store.markMailSent(id: enqueued[0].id, claimID: "c", now: now.addingTimeInterval(2)))
            #expect(try await store.markMailSent(id: enqueued[1].id, claimID: "c", keepBody: true, now: now.addingTimeInterval(2)))
            let sent = try #require(try await store.mailMessage(id: enqueued[0].id))
            #expect(sent.status == .sent && sent.body == nil && sent.sentAt != nil && sent.claimId == nil)
            #expect(try await store.mailMessage(id: enqueued[1].id)?.body != nil)
            #expect(try await store.recentMail().map(\.id) == [enqueued[1].id, enqueued[0].id], "newest first")
        }
    }

    @Test("An outcome counts only under the current claim; a claim whose lease ran out is due again", arguments: TestDatabase.kinds)
    func staleClaims(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let now = Date()
            let message = try await Self.enqueue(1, in: store, cipher: StorageTestKeys.cipher(), now: now)[0]
            #expect(try await store.claimDueMail(claimID: "first", lease: 30, limit: 5, now: now).map(\.id) == [message.id])
            #expect(try await store.claimDueMail(claimID: "other", lease: 30, limit: 5, now: now.addingTimeInterval(29)).isEmpty)
            // The first worker died: after its lease the message is another's.
            #expect(try await store.claimDueMail(claimID: "second", lease: 30, limit: 5, now: now.addingTimeInterval(31)).map(\.id) == [message.id])
            #expect(try await store.markMailSent(id: message.id, claimID: "first", now: now.addingTimeInterval(32)) == false)
            #expect(try await store.markMailFailed(id: message.id, claimID: "first", error: "late", nextAttempt: nil, now: now.addingTimeInterval(32)) == false)
            #expect(try await store.markMailSent(id: message.id, claimID: "second", now: now.addingTimeInterval(33)))
            #expect(try await store.claimDueMail(claimID: "third", lease: 30, limit: 5, now: now.addingTimeInterval(3600)).isEmpty, "a sent message is never due again")
        }
    }

    @Test("A failure waits for its next attempt; the last one leaves the message dead and purged", arguments: TestDatabase.kinds)
    func failures(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let now = Date()
            let message = try await Self.enqueue(1, in: store, cipher: StorageTestKeys.cipher(), now: now)[0]
            _ = try await store.claimDueMail(claimID: "a", lease: 30, limit: 5, now: now)
            #expect(try await store.markMailFailed(id: message.id, claimID: "a", error: "421 try later", nextAttempt: now.addingTimeInterval(10), now: now))
            let waiting = try #require(try await store.mailMessage(id: message.id))
            #expect(waiting.status == .pending && waiting.attempts == 1 && waiting.lastError == "421 try later" && waiting.body != nil)
            #expect(try await store.claimDueMail(claimID: "b", lease: 30, limit: 5, now: now.addingTimeInterval(9)).isEmpty)
            #expect(try await store.claimDueMail(claimID: "b", lease: 30, limit: 5, now: now.addingTimeInterval(10)).count == 1)
            #expect(try await store.markMailFailed(id: message.id, claimID: "b", error: "550 no such user", nextAttempt: nil, now: now.addingTimeInterval(11)))
            let dead = try #require(try await store.mailMessage(id: message.id))
            #expect(dead.status == .dead && dead.attempts == 2 && dead.body == nil)
            #expect(try await store.claimDueMail(claimID: "c", lease: 30, limit: 5, now: now.addingTimeInterval(3600)).isEmpty)
        }
    }

    @Test("Issue 46 item 6: the counts /metrics shows: waiting (never tried, or being sent), retrying after a failure, given up; sent ones not at all", arguments: TestDatabase.kinds)
    func counts(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let now = Date()
            #expect(try await store.mailOutboxCounts() == MailOutboxCounts())
            let enqueued = try await Self.enqueue(5, in: store, cipher: StorageTestKeys.cipher(), now: now)
            let claimed = try await store.claimDueMail(claimID: "c", lease: 60, limit: 3, now: now.addingTimeInterval(10))
            #expect(claimed.count == 3)
            #expect(try await store.markMailSent(id: claimed[0].id, claimID: "c", now: now.addingTimeInterval(11)))
            #expect(try await store.markMailFailed(id: claimed[1].id, claimID: "c", error: "refused", nextAttempt: now.addingTimeInterval(600), now: now.addingTimeInterval(11)))
            #expect(try await store.markMailFailed(id: claimed[2].id, claimID: "c", error: "refused", nextAttempt: nil, now: now.addingTimeInterval(11)))
            #expect(try await store.mailOutboxCounts() == MailOutboxCounts(waiting: 2, retrying: 1, gaveUp: 1))
            #expect(enqueued.count == 5)
        }
    }
}
