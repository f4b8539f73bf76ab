import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// The statuses of queued mail and BankID orders are enums with their allowed transitions; the
/// store moves a row only along them, whatever a late or hostile caller asks.
@Suite("Status transitions")
struct StatusTransitionTests {
    @Test("The tables: final statuses are final, a dead member update may be sent again")
    func tables() {
        #expect(OutboxStatus.allCases.filter { OutboxStatus.delivered.mayBecome($0) }.isEmpty)
        #expect(OutboxStatus.dead.mayBecome(.pending) && !OutboxStatus.dead.mayBecome(.delivered))
        #expect(MailStatus.allCases.filter { MailStatus.sent.mayBecome($0) || MailStatus.dead.mayBecome($0) }.isEmpty)
        #expect(!MailStatus.pending.mayBecome(.sent), "a message is claimed before it is sent")
        #expect(BankIDOrderRecord.Status.pending.mayBecome(.complete) && !BankIDOrderRecord.Status.failed.mayBecome(.complete))
    }

    @Test("Every step the store takes with a mail is one the table allows; a sent mail is never failed or claimed again", arguments: TestDatabase.kinds)
    func mailFollowsTheTable(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let now = Date()
            let message = try await MailOutboxTests.enqueue(1, in: store, cipher: StorageTestKeys.cipher(), now: now)[0]
            var status = try #require(try await store.mailMessage(id: message.id)).status
            func stepped() async throws {
                let next = try #require(try await store.mailMessage(id: message.id)).status
                #expect(status == next || status.mayBecome(next), "\(status) → \(next)")
                status = next
            }
            _ = try await store.claimDueMail(claimID: "a", lease: 30, limit: 1, now: now)
            try await stepped()
            #expect(status == .sending)
            _ = try await store.markMailSent(id: message.id, claimID: "a", now: now)
            try await stepped()
            #expect(status == .sent)
            let failedLate = try await store.markMailFailed(id: message.id, claimID: "a", error: "late", nextAttempt: nil, now: now)
            #expect(failedLate == false)
            try await stepped()
            let claimedAgain = try await store.claimDueMail(claimID: "b", lease: 30, limit: 1, now: now.addingTimeInterval(3600))
            #expect(claimedAgain.isEmpty)
            try await stepped()
            #expect(status == .sent)
        }
    }

    @Test("A BankID order ends once: a second ending changes nothing", arguments: TestDatabase.kinds)
    func orderEndsOnce(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let now = Date()
            let cipher = try StorageTestKeys.cipher()
            let order = try await store.insertBankIDOrder(
                sessionHash: Data(UUID().uuidString.utf8), clientID: "no.portvakt.app", startedAt: now, expiresAt: now.addingTimeInterval(180)
            ) { id in try cipher.seal(Data("{}".utf8), context: "bankid-order:\(id)") }
            #expect(try await store.finishBankIDOrder(id: order.id, status: .failed, hintCode: "userCancel", now: now)?.status == .failed)
            #expect(try await store.finishBankIDOrder(id: order.id, status: .complete, hintCode: nil, now: now) == nil)
            #expect(try await store.bankIDOrder(sessionHash: order.sessionHash)?.status == .failed)
        }
    }
}
