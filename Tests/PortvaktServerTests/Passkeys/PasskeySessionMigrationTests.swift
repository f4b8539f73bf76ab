import Foundation
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Review IV, L1: a session a passkey opened before version 26 names no passkey, so removing the
/// passkey could not end it; version 30 ends those once. Here, beside the domain, so the ACR
/// values the migration writes out are checked against the domain's.
@Suite("Passkey sessions from before version 26")
struct PasskeySessionMigrationTests {
    @Test("Issue 44 L1: version 30 ends the live sessions of passkey sign-ins that name no passkey; others stay", arguments: TestDatabase.kinds)
    func endsUnnamedPasskeySessions(kind: DatabaseKind) async throws {
        try await TestDatabase.withEmptyDatabase(kind) { open in
            let driver = try await open()
            try await driver.whileRunning {
                try await Migrator(driver: driver, migrations: Migration.all.filter { $0.version < 30 }, logger: TestDatabase.logger).migrate()
                let store = PortvaktStore(driver: driver, auditKeys: TestDatabase.auditKeys)
                let user = try await store.createUser(displayName: "Ada")
                var sessions: [String: String] = [:]
                for acr in [Authentication.passkeyACR, Authentication.passkeyUntrustedACR, "urn:bankid:bid", Authentication.deviceACR] {
                    sessions[acr] = try await store.createSession(
                        userID: user.id, clientID: "no.portvakt.app", amr: ["hwk"], acr: acr, authTime: Date(), idleLifetime: 3600, absoluteLifetime: 86400
                    ).id
                }
                let applied = try await Migrator(driver: driver, logger: TestDatabase.logger).migrate()
                #expect(applied.first == 30)
                for (acr, id) in sessions {
                    let ended = try #require(try await store.session(id: id)).revokedAt != nil
                    #expect(ended == [Authentication.passkeyACR, Authentication.passkeyUntrustedACR].contains(acr), "\(acr)")
                }
            }
        }
    }
}
