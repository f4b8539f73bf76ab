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
                member: member.isEmpty ? language.pick("Ikke medlem noe sted", "Not a member anywhere") : member.joined(separator: ", "),
                shows: shows(person, language)
            )
        }
    }

    private static func shows(_ person: TestUser, _ language: Language) -> String {
        guard let first = person.memberships.first else {
            return language.pick("Innloggingen avvises: personen er ikke medlem.", "The sign-in is refused: the person is not a member.")
        }
        switch first.recorded {
        case .missing where !first.phoneOnRecord:
            return language.pick("Medlemsregisteret har bare e-postadressen: hun finner medlemskapet med en kode sendt dit (se sandkassens postkasse).",
                                 "The membership record has only her email: she finds her membership with a code sent there (see the sandbox's mailbox).")
        case .missing:
            return language.pick("Første innlogging med Vipps eller BankID fyller inn fødselsnummeret i medlemsregisteret.",
                                 "The first Vipps or BankID sign-in fills in the national identity number in the membership record.")
        case .different:
            return language.pick("Konflikt: medlemsregisteret har et annet fødselsnummer; administratoren må avgjøre.",
                                 "Conflict: the membership record holds another national identity number; the administrator decides.")
        case .same:
            return person.memberships.count > 1
                ? language.pick("Roller i to organisasjoner.", "Roles in two organisations.")
                : language.pick("Alt stemmer: innloggingen bekrefter medlemsregisteret.", "All matches: the sign-in confirms the membership record.")
        }
    }
}
