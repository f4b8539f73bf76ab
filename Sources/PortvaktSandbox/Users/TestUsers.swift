import PortvaktCore

/// The fixed, documented people and organisations of the sandbox (docs/sandbox.md, "Test users").
public enum TestUsers {
    public static let organisations: [TestOrganisation] = [
        TestOrganisation(slug: "nhf", name: "Norges Handikapforbund"),
        TestOrganisation(slug: "blindeforbundet", name: "Norges Blindeforbund"),
        TestOrganisation(slug: "hlf", name: "Hørselshemmedes Landsforbund"),
    ]

    public static let all: [TestUser] = [
        user(1, "kari", "Kari", "Nordmann", "12438510085", [member("nhf", .peerMentor, .missing)]),
        user(2, "ola", "Ola", "Nordmann", "04917912322", [member("nhf", .coordinator, .same)]),
        user(3, "ingrid", "Ingrid", "Hansen", "23466814679", [member("nhf", .orgAdmin, .same)]),
        user(4, "per", "Per", "Johansen", "02829116912", [member("blindeforbundet", .peerMentor, .missing)]),
        user(5, "sigrid", "Sigrid", "Larsen", "17497419212", [member("blindeforbundet", .coordinator, .same)]),
        user(6, "lars", "Lars", "Olsen", "30816221575", [member("blindeforbundet", .orgAdmin, .same)]),
        user(7, "nora", "Nora", "Berg", "08459523813", [member("hlf", .peerMentor, .missing)]),
        user(8, "jonas", "Jonas", "Haugen", "21908826288", [member("hlf", .coordinator, .same)]),
        user(9, "emma", "Emma", "Strand", "11527028401", [member("hlf", .orgAdmin, .same)]),
        user(10, "magnus", "Magnus", "Dahl", "05878330724", [member("nhf", .peerMentor, .same), member("hlf", .coordinator, .same)]),
        user(11, "una", "Una", "Utenfor", "26449933086", []),
        user(12, "sofie", "Sofie", "Lien", "14889235307", [member("nhf", .peerMentor, .different("14489237688"))]),
        // S15: her record has only her email; she claims it by a code sent there.
        user(13, "lise", "Lise", "Berg", "13528021934", [member("hlf", .peerMentor, .missing, phoneOnRecord: false)]),
    ]

    /// A member registered twice by NHF (an old import with only her email): set a password for
    /// that email and log Kari in with Vipps, and she has two accounts for the merge tool.
    public static let duplicateRecord = (organisation: "nhf", externalRef: "sandbox-kari-2019", name: "Kari Nordmann", email: "kari.nordmann@sandbox.portvakt.test")

    /// The user with this id, for example `kari`.
    public static func user(id: String) -> TestUser? {
        all.first { $0.id == id }
    }

    static func user(for subject: String, at provider: SandboxProvider) -> TestUser? {
        all.first { provider == .vipps ? $0.vippsSubject == subject : $0.bankIDSubject == subject }
    }

    private static func user(
        _ number: Int, _ id: String, _ given: String, _ family: String, _ personnummer: String, _ memberships: [TestMembership]
    ) -> TestUser {
        let suffix = String(number + 100).suffix(2)
        return TestUser(
            id: id, givenName: given, familyName: family, personnummer: personnummer,
            phone: "+47900000\(suffix)", email: "\(id)@sandbox.portvakt.test",
            vippsSubject: "5a1d0000-0000-4000-8000-0000000000\(suffix)",
            bankIDSubject: "b1d00000-0000-4000-8000-0000000000\(suffix)",
            memberships: memberships
        )
    }

    private static func member(
        _ organisation: String, _ role: Role, _ recorded: TestMembership.RecordedPersonnummer, phoneOnRecord: Bool = true
    ) -> TestMembership {
        TestMembership(organisation: organisation, role: role, recorded: recorded, phoneOnRecord: phoneOnRecord)
    }
}
