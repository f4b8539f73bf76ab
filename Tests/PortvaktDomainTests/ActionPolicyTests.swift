import Foundation
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import Testing

@Suite("Policies as data: who may take a sensitive action, and how freshly authenticated")
struct ActionPolicyTests {
    let now = Fixtures.now

    @Test("Review II item 3, S18.3: revealing, resolving, merging and removing every phone need an administrator of that organisation and BankID, Vipps or a device-bound passkey within 5 minutes")
    func administratorActions() throws {
        for action in [SensitiveAction.personnummerReveal, .conflictResolve, .accountsMerge, .devicesRemoveAll] {
            #expect(ActionPolicy.of(action) == ActionPolicy(roles: [.orgAdmin], stepUps: [.freshElectronicID, .freshPasskey], freshness: 300))
            #expect(throws: Never.self) { try Fixtures.actor("ingrid", .passkey, age: 299).authorize(action, in: Fixtures.nhf, at: now) }
            #expect(throws: DomainError.stepUpRequired(action)) { try Fixtures.actor("ingrid", .passkey, age: 301).authorize(action, in: Fixtures.nhf, at: now) }
            #expect(throws: DomainError.notAllowed) { try Fixtures.actor("kari", .passkey, roles: [OrganisationRoles(organisationID: "org-nhf", slug: "nhf", roles: [.peerMentor])]).authorize(action, in: Fixtures.nhf, at: now) }
            #expect(throws: Never.self) { try Fixtures.actor("ingrid", .bankID, age: 299).authorize(action, in: Fixtures.nhf, at: now) }
            #expect(throws: DomainError.stepUpRequired(action)) { try Fixtures.actor("ingrid", .bankID, age: 301).authorize(action, in: Fixtures.nhf, at: now) }
            #expect(throws: DomainError.stepUpRequired(action)) { try Fixtures.actor("ingrid", .password).authorize(action, in: Fixtures.nhf, at: now) }
        }
    }

    @Test("S18.3, issue 44 item 4: a passkey that may be synced (shared through a password manager) confirms none of the administrators' actions; a device-bound one does", arguments: [
        SensitiveAction.personnummerReveal, .conflictResolve, .accountsMerge, .devicesRemoveAll,
    ])
    func syncedPasskeyConfirmsNothing(action: SensitiveAction) throws {
        let synced = Fixtures.actor("ingrid", .syncedPasskey)
        #expect(!synced.satisfies(action, at: now))
        #expect(throws: DomainError.stepUpRequired(action)) { try synced.authorize(action, in: Fixtures.nhf, at: now) }
        #expect(Fixtures.actor("ingrid", .passkey).satisfies(action, at: now))
        #expect(throws: Never.self) { try Fixtures.actor("ingrid", .passkey, age: 299).authorize(action, in: Fixtures.nhf, at: now) }
        let session = Fixtures.session("ingrid", .syncedPasskey)
        #expect(!Authentication.isFreshPasskeyLogin(session, maxAge: 300, at: now) && !Authentication.isFreshElectronicIDLogin(session, maxAge: 300, at: now))
    }

    @Test("Review III item 2: a device key never carries what only BankID or Vipps may, even with a step-up claim for the number")
    func deviceKeyIsNotAnElectronicID() {
        let actor = Fixtures.actor("ingrid", .deviceKey, stepUp: "personnummer.read")
        #expect(!actor.satisfies(.personnummerReveal, at: now))
        #expect(!actor.satisfies(.deviceEnrol, at: now))
    }

    @Test("S18.1, S18.3: a passkey is not BankID or Vipps: it adds no passkey or phone, and never meets an organisation's wish for BankID's high level")
    func passkeyIsNotAnElectronicID() {
        let passkey = Fixtures.actor("ingrid", .passkey)
        #expect(ActionPolicy.of(.passkeyRegister) == ActionPolicy(roles: [], stepUps: [.freshElectronicID], freshness: 300))
        #expect(!passkey.satisfies(.passkeyRegister, at: now) && !passkey.satisfies(.deviceEnrol, at: now))
        #expect(Fixtures.actor("ingrid", .bankID, age: 299).satisfies(.passkeyRegister, at: now))
        #expect(!Fixtures.actor("ingrid", .bankID, age: 301).satisfies(.passkeyRegister, at: now))
        #expect(!Fixtures.actor("ingrid", .password).satisfies(.passkeyRegister, at: now))
        #expect(!passkey.satisfies(.contactsRead, at: now), "a member's step-up is the device key or the password")
        let high = Actor(session: Fixtures.session("ingrid", .passkey), organisations: [Fixtures.nhf], highAssuranceOrganisations: ["nhf"])
        #expect(!high.satisfies(.personnummerReveal, at: now))
        let session = Session.starting(
            userID: "ingrid", clientID: "no.portvakt.app", deviceID: "device-1", amr: Authentication.passkeyAMR(synced: false), acr: Authentication.passkeyACR,
            authTime: now, idleLifetime: 3600, absoluteLifetime: 86_400, now: now
        )
        #expect(!Actor(session: session, organisations: [Fixtures.nhf]).satisfies(.personnummerReveal, at: now), "a device's session is never a passkey sign-in")
        let lapsed = Session.starting(
            userID: "ingrid", clientID: "portvakt-portal", amr: Authentication.passkeyAMR(synced: true), acr: Authentication.passkeyUntrustedACR,
            authTime: now, idleLifetime: 3600, absoluteLifetime: 86_400, now: now
        )
        #expect(!Actor(session: lapsed, organisations: [Fixtures.nhf]).satisfies(.personnummerReveal, at: now), "a passkey whose person's BankID trust lapsed confirms nothing")
    }

    @Test("A device-key step-up satisfies exactly the action it names")
    func deviceKeyStepUp() {
        let actor = Fixtures.actor("kari", .deviceKey, stepUp: "contacts.read")
        #expect(actor.satisfies(.contactsRead, at: now))
        #expect(!actor.satisfies(.expensesSubmit, at: now))
        #expect(!Fixtures.actor("kari", .bankID).satisfies(.contactsRead, at: now), "a fresh login is not a step-up of the device key")
    }

    @Test("S11.3: contact details and expense claims accept the password entered again; what only BankID or Vipps may open, a password does not")
    func passwordStepUp() {
        for action in [SensitiveAction.contactsRead, .expensesSubmit] {
            #expect(ActionPolicy.of(action).stepUps == [.deviceKey, .freshPassword])
            let confirmed = Fixtures.actor("ingrid", .password, stepUp: action.rawValue, stepUpACR: Authentication.passwordStepUpACR)
            #expect(confirmed.satisfies(action, at: now))
        }
        let contacts = Fixtures.actor("ingrid", .password, stepUp: "contacts.read", stepUpACR: Authentication.passwordStepUpACR)
        #expect(!contacts.satisfies(.expensesSubmit, at: now), "a step-up names one action")
        let number = Fixtures.actor("ingrid", .password, stepUp: "personnummer.read", stepUpACR: Authentication.passwordStepUpACR)
        #expect(throws: DomainError.stepUpRequired(.personnummerReveal)) { try number.authorize(.personnummerReveal, in: Fixtures.nhf, at: now) }
        #expect(!Fixtures.actor("ingrid", .password, stepUp: "contacts.read", stepUpACR: "urn:portvakt:acr:password").satisfies(.contactsRead, at: now),
                "a step_up claim counts only with a step-up's acr")
    }

    @Test("S1.2, issue 35 item 12: where an organisation asks for BankID's high level, its administrators' actions need it; elsewhere, and for members' own actions, a fresh login of any level will do")
    func highAssuranceOrganisations() {
        func actor(acr: String, high: Set<String>) -> Actor {
            let session = Session.starting(
                userID: "ingrid", clientID: "no.portvakt.app", amr: ["BIS"], acr: acr, authTime: now, idleLifetime: 3600, absoluteLifetime: 86_400, now: now
            )
            return Actor(session: session, organisations: [Fixtures.nhf], highAssuranceOrganisations: high)
        }
        #expect(!actor(acr: "urn:bankid:bis;LOA=3", high: ["nhf"]).satisfies(.personnummerReveal, at: now), "BankID with biometrics is substantial")
        #expect(actor(acr: "urn:bankid:bid;LOA=4", high: ["nhf"]).satisfies(.personnummerReveal, at: now))
        #expect(actor(acr: "urn:bankid:bis;LOA=3", high: ["hlf"]).satisfies(.accountsMerge, at: now), "another organisation's wish does not apply")
        #expect(actor(acr: "urn:bankid:bis;LOA=3", high: ["nhf"]).satisfies(.deviceEnrol, at: now), "a member's own device needs a fresh login only")
        #expect(!actor(acr: "urn:vipps:loa:substantial", high: ["nhf"]).satisfies(.conflictResolve, at: now), "nor is Vipps high")
        #expect(!actor(acr: Authentication.bankIDOrderACR, high: ["nhf"]).satisfies(.personnummerReveal, at: now), "nor a BankID order: its API gives no level")
        #expect(!actor(acr: "urn:other:idp;LOA=4", high: ["nhf"]).satisfies(.personnummerReveal, at: now), "only BankID's own high level counts")
    }

    @Test("The role is checked before the step-up, in the actor's own organisation record: a stranger learns nothing, a passed-in role counts for nothing")
    func roleFirst() {
        let coordinator = Fixtures.actor("per", .password, roles: [OrganisationRoles(organisationID: "org-nhf", slug: "nhf", roles: [.coordinator])])
        #expect(throws: DomainError.notAllowed) { try coordinator.authorize(.personnummerReveal, in: Fixtures.nhf, at: now) }
        let hlfAdmin = Fixtures.actor("hanne", .bankID, roles: [Fixtures.hlf])
        #expect(throws: DomainError.notAllowed) { try hlfAdmin.authorize(.accountsMerge, in: Fixtures.nhf, at: now) }
        #expect(throws: DomainError.notAllowed) { try hlfAdmin.organisation("nhf") }
    }

    @Test("A provider's earlier sign-in counts from its auth_time, not from when Portvakt saw it")
    func freshnessFromAuthTime() {
        let session = Fixtures.session("ingrid", .bankID, age: 600)
        #expect(!Authentication.isFreshElectronicIDLogin(session, maxAge: 300, at: now))
        #expect(Authentication.isFreshElectronicIDLogin(session, maxAge: 300, at: now.addingTimeInterval(-301)))
    }

    @Test("Every domain error says what to do without a number or a secret, and has one kind")
    func errorsDescribeThemselves() {
        let errors: [DomainError] = [
            .notFound("sync entry"), .notAllowed, .stepUpRequired(.accountsMerge), .invalidInput("keep must be member or login."),
            .conflictNotOpen, .numberHeldElsewhere, .heldByAnotherPerson, .mergeSameAccount, .mergeOwnAccount, .mergeNotMembers,
            .mergeOtherOrganisation, .mergeDuplicateData, .mergeAccountGone,
        ]
        #expect(Set(errors.map(\.reason)).count == errors.count)
        for error in errors {
            #expect(!error.description.isEmpty && error.description.allSatisfy { !$0.isNumber || "0123456789".contains($0) })
            #expect(error.description.firstMatch(of: /\d{11}/) == nil)
        }
        #expect(DomainError.stepUpRequired(.accountsMerge).action == .accountsMerge)
        #expect(DomainError.stepUpRequired(.accountsMerge).description.contains("5 minutes"))
    }
}
