import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import Testing

final class InMemoryProfiles: ProfileStore, @unchecked Sendable {
    private let lock = NSLock()
    private var notices: [String: [MemberSyncEntry]] = [:]

    func addNotice(for userID: String) {
        lock.withLock {
            notices[userID, default: []].append(MemberSyncEntry(
                occurredAt: Fixtures.now, organisationID: "org-nhf", memberRecordID: nil, userID: userID, source: "vipps-login", outcome: .absent
            ))
        }
    }

    func user(id: String) async throws -> User? { id == "gone" ? nil : User(id: id, displayName: "Kari Nordmann", createdAt: Fixtures.now) }
    func organisations() async throws -> [Organisation] { [Organisation(id: "org-nhf", slug: "nhf", name: "Norges Handikapforbund", createdAt: Fixtures.now)] }
    func takeAbsentNotices(userID: String, now: Date) async throws -> [MemberSyncEntry] {
        lock.withLock { defer { notices[userID] = nil }; return notices[userID] ?? [] }
    }
}

@Suite("The member's own profile")
struct ProfileTests {
    @Test("S1.3: the role's home screen follows the highest role in any organisation")
    func homeScreen() {
        #expect(HomeScreen(for: [.peerMentor, .orgAdmin]) == .organisationAdmin)
        #expect(HomeScreen(for: [.coordinator, .peerMentor]) == .coordinatorOverview)
        #expect(HomeScreen(for: [.peerMentor]) == .peerMentorActivities)
        #expect(HomeScreen(for: []) == .noOrganisation)
    }

    @Test("S9.5: a login without a personnummer is told once; organisations by name; a removed account is not found")
    func noticeOnce() async throws {
        let store = InMemoryProfiles()
        let profile = Profile(store: store, now: { Fixtures.now })
        store.addNotice(for: "kari")
        let kari = Fixtures.actor("kari", .bankID, roles: [OrganisationRoles(organisationID: "org-nhf", slug: "nhf", roles: [.peerMentor])])
        let first = try await profile.view(of: kari)
        #expect(first.personnummerNotRetrieved && first.organisations.map(\.name) == ["Norges Handikapforbund"] && first.homeScreen == .peerMentorActivities)
        #expect(try await profile.view(of: kari).personnummerNotRetrieved == false)
        await #expect(throws: DomainError.notFound("user")) { try await profile.view(of: Fixtures.actor("gone", .bankID)) }
    }
}
