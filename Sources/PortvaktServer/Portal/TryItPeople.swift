import PortvaktCore
import PortvaktHTTP
import PortvaktSandbox

/// The sandbox's test people on the start page in development: who they are, and what their
/// sign-in will show, so a newcomer can pick the case they want to see.
enum TryItPeople {
    /// One test person on the start page (`start`'s `people`).
    struct Person: PageValues {
        let id: String
        let name: String
        /// Their memberships in words.
        let member: String
        /// What their sign-in will show.
        let shows: String
    }

    static func all(_ language: Language) -> [Person] {
        TestUsers.all.map { person in
            let organisations = Dictionary(uniqueKeysWithValues: TestUsers.organisations.map { ($0.slug, $0.name) })
            let member = person.memberships.map { PortalWords.role($0.role, organisation: organisations[$0.organisation] ?? $0.organisation, language) }
            return Person(
                id: person.id, name: person.name,
                member: member.isEmpty ? PortalPhrase.notAMemberAnywhere.text(language) : member.joined(separator: ", "),
                shows: shows(person, language)
            )
        }
    }

    private static func shows(_ person: TestUser, _ language: Language) -> String {
        guard let first = person.memberships.first else {
            return PortalPhrase.theSignInIsRefusedThe.text(language)
        }
        switch first.recorded {
        case .missing where !first.phoneOnRecord:
            return PortalPhrase.theMembershipRecordHasOnlyHer.text(language)
        case .missing:
            return PortalPhrase.theFirstVippsOrBankidSign.text(language)
        case .different:
            return PortalPhrase.conflictTheMembershipRecordHoldsAnother.text(language)
        case .same:
            return person.memberships.count > 1
                ? PortalPhrase.rolesInTwoOrganisations.text(language)
                : PortalPhrase.allMatchesTheSignInConfirms.text(language)
        }
    }
}
