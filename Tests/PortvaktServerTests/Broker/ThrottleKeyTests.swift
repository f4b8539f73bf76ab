import Crypto
import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Issue 44 item 6: a throttle's stored key is an HMAC under a key derived from the index key, so
/// whoever reads `login_throttles` cannot match its rows by hashing guessed addresses, emails or
/// identities.
@Suite("Throttle keys")
struct ThrottleKeyTests {
    static let hmacKey = SymmetricKey(data: Data(repeating: 5, count: 32))

    static func storedKeys(_ store: PortvaktStore) async throws -> Set<String> {
        try await store.driver.withSession { db in
            Set(try await db.select().column("key").from("login_throttles").all().map { try $0.decode(column: "key", as: String.self) })
        }
    }

    @Test(
        "Issue 44 item 6: hashing a guessed address, email or identity finds no throttle row; the limits still trip, and another key names other rows",
        arguments: TestDatabase.kinds
    )
    func keyedHashes(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let throttle = LoginThrottle(store: store, hmacKey: Self.hmacKey)
            let start = Date(timeIntervalSince1970: 1_000_000)
            let (email, address, identity) = ("victim@example.org", "203.0.113.9", "bankid:b1d00000-0000-4000-8000-000000000013")
            let account = LoginThrottle.Key.account(email)
            for _ in 0..<5 { try await throttle.recordFailure([account, .address(address)], now: start) }
            #expect(try await throttle.blockedUntil([account], now: start) == start.addingTimeInterval(5), "five failures, then a wait")
            for _ in 0..<5 { #expect(try await throttle.reserve([.claimEmail(email), .claimSends(identity)], now: start) == nil) }
            #expect(try await throttle.reserve([.claimEmail(email), .claimSends(identity)], now: start) != nil, "five codes to an address, then a wait")

            let stored = try await Self.storedKeys(store)
            #expect(stored.count == 4)
            let guessed: [(kind: String, value: String)] = [("account", email), ("address", address), ("claim_email", email), ("claim_sends", identity)]
            let hashes = guessed.flatMap { guess in
                [SHA256.hash(data: Data("\(guess.kind):\(guess.value)".utf8)).hexEncoded(), SHA256.hash(data: Data(guess.value.utf8)).hexEncoded()]
            }
            #expect(stored.isDisjoint(with: hashes), "a row a guess can find")
            #expect(!stored.contains { $0.contains("victim") || $0.contains("203.0.113") || $0.contains("bankid") })

            let otherKey = LoginThrottle(store: store, hmacKey: SymmetricKey(data: Data(repeating: 6, count: 32)))
            #expect(try await otherKey.blockedUntil([account, .claimEmail(email)], now: start) == nil, "the key, not the value alone, names the row")
        }
    }
}
