import Foundation
import PortvaktDomain
import PortvaktModels
import Testing

/// Issue 58: what links a login to an account is only what BankID or Vipps verified; a member
/// record (said by one organisation) decides memberships, never the account.
@Suite("Linking rule")
struct LinkingRuleTests {
    static func user(index: String?) -> User {
        User(
            id: UUID().uuidString, displayName: "Holder", email: nil, passwordHash: nil, personnummerSealed: index.map { _ in Data([1]) },
            personnummerKeyId: index.map { _ in "k1" }, personnummerIndex: index, createdAt: 0, disabledAt: nil
        )
    }

    static func record(name: String = "Kari Nordmann", index: String? = nil) -> MemberRecord {
        MemberRecord(
            id: UUID().uuidString, organisationId: "nhf", externalRef: nil, fullName: name, email: nil, phone: "+4790000001", role: .peerMentor,
            personnummerSealed: index.map { _ in Data([1]) }, personnummerKeyId: index.map { _ in "k1" }, personnummerIndex: index,
            createdAt: 0, updatedAt: 0
        )
    }

    @Test("Issue 58 item 1-2: a record found by the login's number joins only an account with that verified number; one held by an account with another number or none is detached")
    func byNumber() {
        #expect(LinkingRule.byNumber(holder: nil, loginIndex: "n") == .take)
        #expect(LinkingRule.byNumber(holder: Self.user(index: "n"), loginIndex: "n") == .take)
        #expect(LinkingRule.byNumber(holder: Self.user(index: nil), loginIndex: "n") == .detach, "a holder without a verified number is never joined by a number")
        #expect(LinkingRule.byNumber(holder: Self.user(index: "m"), loginIndex: "n") == .detach)
        #expect(LinkingRule.holderAgrees(holderIndex: "n", recordIndex: "n") && !LinkingRule.holderAgrees(holderIndex: nil, recordIndex: "n"))
    }

    @Test("Issue 58 item 4: a phone match needs the record's name, a record with no number and no other holder; anything else is refused with its reason")
    func byPhone() {
        let free = Self.record()
        #expect(LinkingRule.byPhone(free, holder: nil, loginIndex: "n", loginName: "Kari Elisabeth Nordmann") == .take)
        #expect(LinkingRule.byPhone(free, holder: nil, loginIndex: nil, loginName: "kari nordmann") == .take)
        #expect(LinkingRule.byPhone(free, holder: nil, loginIndex: "n", loginName: "Ola Nordmann") == .refuse(reason: LinkingRule.nameDiffers))
        #expect(LinkingRule.byPhone(free, holder: nil, loginIndex: "n", loginName: nil) == .refuse(reason: LinkingRule.nameDiffers))
        #expect(LinkingRule.byPhone(Self.record(index: "m"), holder: nil, loginIndex: "n", loginName: "Kari Nordmann") == .refuse(reason: LinkingRule.notFree))
        #expect(LinkingRule.byPhone(Self.record(index: "m"), holder: nil, loginIndex: nil, loginName: "Kari Nordmann") == .refuse(reason: LinkingRule.withoutNumber))
        #expect(LinkingRule.byPhone(free, holder: Self.user(index: "m"), loginIndex: "n", loginName: "Kari Nordmann") == .refuse(reason: LinkingRule.notFree))
        #expect(LinkingRule.byPhone(free, holder: Self.user(index: nil), loginIndex: nil, loginName: "Kari Nordmann") == .refuse(reason: LinkingRule.withoutNumber),
                "a phone never joins an existing account")
        #expect(LinkingRule.byPhone(free, holder: Self.user(index: "n"), loginIndex: "n", loginName: "Kari Nordmann") == .take, "the login's own account, a moment ago")
    }

    @Test("Names are compared by first given name and last surname, without case or accents")
    func names() {
        #expect(LinkingRule.sameName("Kari Nordmann", "KARI Elisabeth NORDMANN"))
        #expect(LinkingRule.sameName("José Nordmann", "jose nordmann"))
        #expect(!LinkingRule.sameName("Lise Berg", "Anne-Lise Berg"))
        #expect(!LinkingRule.sameName("Kari", "Kari"))
    }

    @Test("Issue 58: an organisation's administrators change a person's sign-in methods only when the person belongs to that organisation alone")
    func administratorScope() {
        #expect(MemberAdministration.mayChangeSignInMethods(memberOf: ["nhf"], by: "nhf"))
        #expect(!MemberAdministration.mayChangeSignInMethods(memberOf: ["nhf", "hlf"], by: "nhf"))
        #expect(!MemberAdministration.mayChangeSignInMethods(memberOf: ["hlf"], by: "nhf"))
        #expect(!MemberAdministration.mayChangeSignInMethods(memberOf: [], by: "nhf"))
    }
}
