import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// Issue 58: one organisation's member system or administrator never reaches another's members.
/// Each attack as the review made it: NHF's SCIM token, sandbox BankID and Vipps logins, NHF's
/// administrator over the API; then what the victim and the attacker see.
@Suite("Organisations apart (issue 58)")
struct OrganisationsApartTests {
    /// Sigrid of the sandbox is Blindeforbundet's coordinator; Una is nobody's member; Jonas is HLF's.
    static let sigridNumber = "17497419212"
    static let jonasNumber = "21908826288"
    static let unaPhone = "+4790000011"
    static let perPhone = "+4790000004"

    @Test("Item 1: NHF's token plants a record with the attacker's phone, the attacker signs in by Vipps without a number, the token writes a Blindeforbundet member's number on it: her BankID login gets an account of her own with both memberships, the attacker's loses the record", arguments: TestDatabase.kinds)
    func takeoverAcrossOrganisations(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let nhf = try await broker.scimToken(organisation: "nhf")
            let planted = try #require(try await broker.scimCreate(LiveBroker.scimUser(
                externalID: "plant-1", userName: "plant-1", given: "Una", family: "Utenfor", phone: Self.unaPhone
            ), token: nhf.token)["id"] as? String)
            try await broker.setFaults(["nin_missing"], for: "vipps")
            let attacker = try await broker.tokens(provider: "vipps", user: "una")
            try await broker.setFaults([], for: "vipps")
            let attackerID = try await broker.userID(token: try #require(attacker["access_token"] as? String))
            #expect(try await broker.withStore { try await $0.memberships(userID: attackerID).compactMap(\.memberRecordId) } == [planted])

            let patch = try await broker.scim(.PATCH, "/Users/\(planted)", token: nhf.token, json: LiveBroker.scimPatch([
                ["op": "replace", "path": "\(LiveBroker.scimMembership):personnummer", "value": Self.sigridNumber],
            ]))
            #expect(patch.status == 200, "\(patch.body.prefix(300))")
            // The record now says it is someone the attacker's account was never verified as: it leaves that account at once.
            #expect(try await broker.withStore { try await $0.memberships(userID: attackerID) }.isEmpty)
            let refreshed = try await broker.refresh(try #require(attacker["refresh_token"] as? String))
            #expect(refreshed.status == 400 && refreshed.string("error") == "invalid_grant", "left with no membership, the attacker's sessions ended")
            let review = try await broker.withStore { store in
                try await store.memberSyncEntries(organisationID: nhf.organisationID, outcome: .conflict, status: "open")
            }
            #expect(review.map(\.source) == [MemberSyncEntry.directoryDetachedSource] && review.first?.userId == attackerID)
            #expect(review.first?.loginPersonnummer == nil, "the review names the account, not a number")

            let sigrid = try await broker.tokens(provider: "bankid", user: "sigrid")
            let sigridID = try await broker.userID(token: try #require(sigrid["access_token"] as? String))
            #expect(sigridID != attackerID, "her login never becomes the attacker's account")
            let organisations = try await broker.withStore { store in
                try await store.organisationRoles(userID: sigridID).map(\.organisationID)
            }
            let blindeforbundet = try #require(try await broker.withStore { try await $0.organisation(slug: "blindeforbundet")?.id })
            #expect(Set(organisations) == [blindeforbundet, nhf.organisationID], "her own membership and the one NHF says she has")
            let again = try await broker.providerLogin(AppLogin(), provider: "vipps", user: "una").app
            #expect(again.error == "access_denied" && again.messageID == "not_registered", "the attacker's account holds nothing")
            #expect(!broker.logs.text.contains(Self.sigridNumber) && !broker.logs.text.contains(nhf.token))
        }
    }

    @Test("Item 1, by password: NHF's token plants a record with a Blindeforbundet member's number and the attacker's address; the operator's set-password makes no account of it, and her BankID login gets one of her own", arguments: TestDatabase.kinds)
    func noPasswordAccountOfANumber(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let nhf = try await broker.scimToken(organisation: "nhf")
            try await broker.scimCreate(LiveBroker.scimUser(
                externalID: "plant-3", userName: "plant-3", given: "Sigrid", family: "Larsen", email: "attacker@example.org", personnummer: Self.sigridNumber
            ), token: nhf.token)
            await #expect(throws: OperatorError.self, "a record with a number becomes an account only by BankID or Vipps") {
                try await PortvaktApplication.setPassword(
                    configuration: broker.configuration, logger: TestDatabase.logger, email: "attacker@example.org", password: PasswordLoginTests.password
                )
            }
            #expect(try await broker.withStore { try await $0.user(email: "attacker@example.org") } == nil)
            let sigrid = try await broker.tokens(provider: "bankid", user: "sigrid")
            let sigridID = try await broker.userID(token: try #require(sigrid["access_token"] as? String))
            // Her account took NHF's record by her number, and her own organisation's address: NHF's address opens it not.
            await #expect(throws: OperatorError.self, "still no password by NHF's address") {
                try await PortvaktApplication.setPassword(
                    configuration: broker.configuration, logger: TestDatabase.logger, email: "attacker@example.org", password: PasswordLoginTests.password
                )
            }
            // Her own address neither: NHF, which she now belongs to as well, did not record it.
            await #expect(throws: OperatorError.self, "an account that belongs elsewhere too gets no password by one organisation's address") {
                try await PortvaktApplication.setPassword(
                    configuration: broker.configuration, logger: TestDatabase.logger, email: "sigrid@sandbox.portvakt.test", password: PasswordLoginTests.password
                )
            }
            #expect(try await broker.withStore { try await $0.user(id: sigridID)?.passwordHash } == nil)
        }
    }

    @Test("Item 2: NHF's token writes a Blindeforbundet member's number onto a record Ola's numbered account holds: her BankID and Vipps logins still sign her in, Ola's account lets the record go to NHF's review", arguments: TestDatabase.kinds)
    func noLockOutByAnotherOrganisation(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let ola = try await broker.tokens(provider: "bankid", user: "ola")
            let olaID = try await broker.userID(token: try #require(ola["access_token"] as? String))
            let nhf = try await broker.scimToken(organisation: "nhf")
            let olaRecord = try #require(try await broker.memberRecord("nhf", externalRef: "sandbox-ola"))
            let patch = try await broker.scim(.PATCH, "/Users/\(olaRecord.id)", token: nhf.token, json: LiveBroker.scimPatch([
                ["op": "replace", "path": "\(LiveBroker.scimMembership):personnummer", "value": Self.sigridNumber],
            ]))
            #expect(patch.status == 200, "\(patch.body.prefix(300))")
            #expect(try await broker.withStore { try await $0.memberships(userID: olaID) }.isEmpty, "the record is no longer Ola's")
            #expect(try await broker.withStore { try await $0.auditEvents(subjectType: "member", subjectID: olaRecord.id) }.map(\.action).contains("member.detached"))

            let sigrid = try await broker.tokens(provider: "bankid", user: "sigrid")
            let sigridID = try await broker.userID(token: try #require(sigrid["access_token"] as? String))
            let vipps = try await broker.providerLogin(AppLogin(), provider: "vipps", user: "sigrid").app
            #expect(vipps.code != nil, "Vipps: \(vipps.error ?? "") \(vipps.messageID ?? "")")
            let records = try await broker.withStore { try await $0.memberships(userID: sigridID).compactMap(\.memberRecordId) }
            let own = try #require(try await broker.memberRecord("blindeforbundet", externalRef: "sandbox-sigrid"))
            #expect(Set(records) == [own.id, olaRecord.id], "one organisation's bad data refuses her nowhere")
        }
    }

    @Test("Item 3: NHF's token enrols HLF's coordinator as NHF's administrator: the account gets it, and the person a security event and a mail; NHF's administrator cannot remove the person's phones, which unlock for HLF too", arguments: TestDatabase.kinds)
    func enrolledPersonIsToldAndKeepsTheirPhones(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let jonas = try await broker.bankIDLogin("jonas")
            let jonasID = try await broker.userID(token: jonas.access)
            let phone = try await broker.registerDevice(TestDevice(), token: jonas.access)
            let nhf = try await broker.scimToken(organisation: "nhf")
            try await broker.scimCreate(LiveBroker.scimUser(
                externalID: "enrol-1", userName: "enrol-1", given: "Jonas", family: "Haugen", role: "org_admin", personnummer: Self.jonasNumber
            ), token: nhf.token)
            let roles = try await broker.withStore { try await $0.memberships(userID: jonasID) }
            #expect(roles.contains { $0.organisationId == nhf.organisationID && $0.role == .orgAdmin })
            let events = try await broker.withStore { store in
                try await store.securityEvents(userID: jonasID, actions: ["membership.granted"])
            }
            #expect(events.map(\.outcome) == ["org_admin"], "his own security event, as My account lists them")
            let mail = try await broker.withStore { try await $0.recentMail() }.filter { $0.kind == "membership_granted" }
            #expect(mail.map(\.recipient) == ["jonas@sandbox.portvakt.test"])

            let ingrid = try await broker.bankIDLogin("ingrid")
            let refused = try await broker.api(.DELETE, "/v1/organisations/nhf/members/\(jonasID)/devices", token: ingrid.access)
            #expect(refused.status == 409 && refused.body.contains("My account"), "\(refused.body)")
            #expect(try await broker.challenge(phone.id, purpose: .unlock).status == 201, "his phone still unlocks him for HLF")
            // The portal, one policy: the member page names no phone of his and offers no removal; the form is refused all the same.
            let portal = try await PortalTests.signIn(broker, person: "ingrid", method: "vipps").cookie
            let enrolled = try #require(try await broker.withStore { store in
                try await store.memberRecords(organisationID: nhf.organisationID).first { $0.externalRef == "enrol-1" }
            })
            let page = try await AdminPortalTests.get(broker, "/admin/nhf/members/\(enrolled.id)", cookie: portal)
            #expect(page.status == 200 && !page.body.contains("/devices/remove") && !page.body.contains("Karis iPhone"), "\(page.body.prefix(300))")
            #expect(page.body.contains("Medlemmet fjerner dem selv under Min konto"), "the page says he removes them himself")
            let posted = try await AdminPortalTests.post(broker, "/admin/nhf/members/\(enrolled.id)/devices/remove", cookie: portal, form: [("csrf", try PortalTests.csrf(in: page.body))])
            #expect(posted.status == 409, "\(posted.status) \(posted.body.prefix(300))")
            #expect(try await broker.challenge(phone.id, purpose: .unlock).status == 201)

            // A role raised above peer mentor is told too.
            let kari = try await broker.tokens(provider: "vipps", user: "kari")
            let kariID = try await broker.userID(token: try #require(kari["access_token"] as? String))
            let kariRecord = try #require(try await broker.memberRecord("nhf", externalRef: "sandbox-kari"))
            let raised = try await broker.scim(.PATCH, "/Users/\(kariRecord.id)", token: nhf.token, json: LiveBroker.scimPatch([
                ["op": "replace", "path": "\(LiveBroker.scimMembership):role", "value": "coordinator"],
            ]))
            #expect(raised.status == 200, "\(raised.body.prefix(300))")
            #expect(try await broker.withStore { try await $0.securityEvents(userID: kariID, actions: ["membership.granted"]) }.map(\.outcome) == ["coordinator"])
        }
    }

    @Test("Item 4: a record NHF plants with only a Blindeforbundet member's phone takes nothing from his Vipps login: no number written, sent or put on review; his own record, whose phone and name match, gets the number", arguments: TestDatabase.kinds)
    func phoneAloneHarvestsNothing(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let nhf = try await broker.scimToken(organisation: "nhf")
            let planted = try #require(try await broker.scimCreate(LiveBroker.scimUser(
                externalID: "plant-2", userName: "plant-2", given: "Planted", family: "Person", phone: Self.perPhone
            ), token: nhf.token)["id"] as? String)
            let per = try await broker.tokens(provider: "vipps", user: "per")
            let perID = try await broker.userID(token: try #require(per["access_token"] as? String))
            let own = try #require(try await broker.memberRecord("blindeforbundet", externalRef: "sandbox-per"))
            #expect(try await broker.withStore { try await $0.memberships(userID: perID).compactMap(\.memberRecordId) } == [own.id])
            #expect(own.personnummer != nil, "phone and name matched: his own record got his number")

            let read = try await broker.scim(.GET, "/Users/\(planted)", token: nhf.token)
            #expect(read.membership["personnummerOnRecord"] as? Bool == false, "nothing written on the planted record")
            #expect(try await broker.outbox("nhf").isEmpty, "nothing for NHF's member system")
            let review = try await broker.withStore { store in try await store.memberSyncEntries(organisationID: nhf.organisationID) }
            #expect(review.isEmpty, "nothing on NHF's review, where a reveal would show his number")
            let refusal = try await broker.withStore { try await $0.auditEvents(subjectType: "member", subjectID: planted) }
            #expect(refusal.filter { $0.action == "member.link.refused" }.map(\.outcome) == ["phone_match_name_differs"])
        }
    }

    @Test("Item 5: an account holding two records of one organisation keeps each whatever their roles: a role change onto the other's role, then the other ended, leaves Kari signed in with the first", arguments: TestDatabase.kinds)
    func twoRecordsOneRole(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let nhf = try await broker.scimToken(organisation: "nhf")
            let second = try #require(try await broker.scimCreate(LiveBroker.scimUser(
                externalID: "kari-coordinator", userName: "kari-coordinator", given: "Kari", family: "Nordmann", phone: "+4790000001", role: "coordinator"
            ), token: nhf.token)["id"] as? String)
            let kari = try await broker.tokens(provider: "vipps", user: "kari")
            let kariID = try await broker.userID(token: try #require(kari["access_token"] as? String))
            let first = try #require(try await broker.memberRecord("nhf", externalRef: "sandbox-kari"))
            #expect(Set(try await broker.withStore { try await $0.memberships(userID: kariID).compactMap(\.memberRecordId) }) == [first.id, second])

            let raised = try await broker.scim(.PATCH, "/Users/\(first.id)", token: nhf.token, json: LiveBroker.scimPatch([
                ["op": "replace", "path": "\(LiveBroker.scimMembership):role", "value": "coordinator"],
            ]))
            #expect(raised.status == 200, "\(raised.body.prefix(300))")
            #expect(Set(try await broker.withStore { try await $0.memberships(userID: kariID).compactMap(\.memberRecordId) }) == [first.id, second],
                    "the raised record is still hers")
            let ended = try await broker.scim(.PATCH, "/Users/\(second)", token: nhf.token, json: LiveBroker.scimPatch([
                ["op": "replace", "path": "active", "value": false],
            ]))
            #expect(ended.status == 200, "\(ended.body.prefix(300))")
            let roles = try await broker.withStore { try await $0.organisationRoles(userID: kariID) }
            #expect(roles.map(\.roles) == [[.coordinator]], "her first record still makes her NHF's coordinator")
            let refreshed = try await broker.refresh(try #require(kari["refresh_token"] as? String))
            #expect(refreshed.status == 200, "her sign-in goes on: \(refreshed.body.prefix(200))")
        }
    }
}
