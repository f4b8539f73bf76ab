import Personnummer
import PortvaktCore

/// A person the sandbox can log in as. Every number is synthetic (NAV +40 or Tenor +80 month), so it
/// can never be a real person's, and production refuses it.
public struct TestUser: Sendable, Hashable {
    /// The short name scripts pick the user by, for example `kari` (`sandbox_user=kari`).
    public let id: String
    public let givenName: String
    public let familyName: String
    /// Eleven digits, valid check digits, synthetic.
    public let personnummer: String
    /// E.164, for example `+4790000001`.
    public let phone: String
    public let email: String
    /// The pairwise subject Vipps gives this person.
    public let vippsSubject: String
    /// The subject BankID gives this person.
    public let bankIDSubject: String
    /// The member records the development database holds for this person.
    public let memberships: [TestMembership]

    public var name: String { "\(givenName) \(familyName)" }

    /// ISO 8601 birth date read from the personnummer.
    public var birthdate: String? {
        (try? Personnummer(personnummer, context: .test))?.birthDate.description
    }

    /// Vipps writes phone numbers with the country code and no plus sign.
    var vippsPhoneNumber: String { phone.hasPrefix("+") ? String(phone.dropFirst()) : phone }
}

/// One organisation's member record for a test user.
public struct TestMembership: Sendable, Hashable {
    /// What the organisation's member record says about the personnummer.
    public enum RecordedPersonnummer: Sendable, Hashable {
        /// The record holds the person's own number.
        case same
        /// The record lacks it: a Vipps or BankID login can fill it in.
        case missing
        /// The record holds another (valid, synthetic) number: a login is a conflict.
        case different(String)
    }

    public let organisation: String
    public let role: Role
    public let recorded: RecordedPersonnummer
    /// Whether the record has the person's phone number (a Vipps login can find it by that).
    public var phoneOnRecord = true
}

/// An organisation the development database is seeded with.
public struct TestOrganisation: Sendable, Hashable {
    public let slug: String
    public let name: String
}
