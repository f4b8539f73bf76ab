import Personnummer
import PortvaktCore
import Testing
@testable import PortvaktSandbox

@Suite("Test users")
struct TestUserTests {
    @Test("Every test personnummer is valid and synthetic; production refuses the Tenor kind", arguments: TestUsers.all)
    func synthetic(user: TestUser) throws {
        let number = try Personnummer(user.personnummer, context: .test)
        #expect(number.isSynthetic)
        #expect(user.birthdate == number.birthDate.description)
        if number.syntheticIssuer == .tenor {
            #expect(throws: PersonnummerError.self) { try Personnummer(user.personnummer, context: .production) }
        } else {
            // NAV's +40 month is also how H-numbers are written: production cannot tell them apart.
            #expect(try Personnummer(user.personnummer, context: .production).kind == .hNumber)
        }
    }

    @Test("Both synthetic kinds occur: NAV (+40) and Tenor (+80)")
    func bothKinds() throws {
        let issuers = Set(try TestUsers.all.map { try Personnummer($0.personnummer, context: .test).syntheticIssuer })
        #expect(issuers == [.nav, .tenor])
    }

    @Test("Every organisation has every role; one person has two; one has none; one record holds another number")
    func coverage() throws {
        for organisation in TestUsers.organisations {
            let roles = Set(TestUsers.all.flatMap { $0.memberships.filter { $0.organisation == organisation.slug }.map(\.role) })
            #expect(roles == Set(Role.allCases), "\(organisation.slug)")
        }
        #expect(TestUsers.all.contains { Set($0.memberships.map(\.organisation)).count == 2 })
        #expect(TestUsers.all.contains { $0.memberships.isEmpty })
        let conflicting = TestUsers.all.flatMap(\.memberships).compactMap { membership -> String? in
            if case .different(let other) = membership.recorded { return other }
            return nil
        }
        #expect(conflicting.count == 1)
        #expect(try Personnummer(#require(conflicting.first), context: .test).isSynthetic)
    }

    @Test("Ids, subjects, phones and numbers are unique")
    func unique() {
        for path in [\TestUser.id, \.personnummer, \.phone, \.email, \.vippsSubject, \.bankIDSubject] {
            #expect(Set(TestUsers.all.map { $0[keyPath: path] }).count == TestUsers.all.count)
        }
    }
}
