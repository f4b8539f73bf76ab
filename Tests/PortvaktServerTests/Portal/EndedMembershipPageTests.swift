import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// An ended membership on the administration pages (issue 45): the record stays for a while
/// (PRIVACY.md), so the Members page shows it, marked, and nothing counts it as needing action.
@Suite("Administration: ended memberships")
struct EndedMembershipPageTests {
    @Test("Issue 45 item 2: an ended membership is listed as ended, is not counted or filtered as a member without a number, and gets no invitation", arguments: TestDatabase.kinds)
    func endedMembership(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let cookie = try await PortalTests.signIn(broker, person: "emma").cookie
            let organisation = try await broker.withStore { try await $0.organisation(slug: "hlf") }
            let hlf = try #require(organisation)
            let records = try await broker.withStore { try await $0.memberRecords(organisationID: hlf.id) }
            let nora = try #require(records.first { $0.fullName == "Nora Berg" })
            #expect(nora.personnummer == nil && nora.isActive)
            let before = try await broker.withStore { try await $0.attention(organisationID: hlf.id) }

            // The member system says she left (as SCIM `active: false` or an import's --remove-missing writes it).
            var values = nora.values
            values.active = false
            let change = MemberRecordChange(before: nora, values: values, personnummer: .keep)
            let written = try await broker.withStore { store in
                try await store.writeMemberRecords(adding: [], changing: [change], reason: "test", audit: { _ in [] }).written.count
            }
            #expect(written == 1)

            let after = try await broker.withStore { try await $0.attention(organisationID: hlf.id) }
            #expect(after.membersWithoutPersonnummer == before.membersWithoutPersonnummer - 1)
            let list = try await AdminPortalTests.get(broker, "/admin/hlf/members", cookie: cookie)
            #expect(list.status == 200)
            #expect(list.body.contains("Nora Berg") && list.body.contains("Medlemskapet er avsluttet"))
            let missing = try await AdminPortalTests.get(broker, "/admin/hlf/members?filter=no-personnummer", cookie: cookie)
            #expect(!missing.body.contains("Nora Berg") && missing.body.contains("Lise Berg"))

            let page = try await AdminPortalTests.get(broker, "/admin/hlf/members/\(nora.id)", cookie: cookie)
            #expect(page.status == 200)
            #expect(page.body.contains("Medlemssystemet sier at medlemskapet er avsluttet") && !page.body.contains("/invite"))
            let overview = try await AdminPortalTests.get(broker, "/admin/hlf", cookie: cookie)
            let invite = try await AdminPortalTests.post(
                broker, "/admin/hlf/members/\(nora.id)/invite", cookie: cookie, form: [("csrf", try PortalTests.csrf(in: overview.body))]
            )
            #expect(invite.status == 409)
            let mail = try await broker.withStore { try await $0.recentMail() }
            #expect(!mail.contains { $0.recipient == "nora@sandbox.portvakt.test" }, "no invitation was sent")
        }
    }
}
