import Foundation
import PortvaktCore

/// What a member system (SCIM), an import file or an operator says about one member. Checked
/// and normalised when written (``MemberDirectory``): the texts trimmed, the email lowercased, the
/// phone number in E.164, the personnummer validated.
public struct MemberEntry: Sendable, Equatable {
    /// The member system's own id: required; at most 128 UTF-8 bytes, no control characters.
    public var externalID: String
    /// The member number or the email: required; at most 254 UTF-8 bytes.
    public var userName: String
    public var givenName: String?
    public var familyName: String?
    /// A valid address (``MailAddress``); stored lowercased.
    public var email: String?
    /// Normalised to E.164 (`+4791234567`; eight digits alone are a Norwegian number).
    public var phone: String?
    public var role: Role
    public var active: Bool
    public var memberNumber: String?
    public var personnummer: PersonnummerChange

    public init(
        externalID: String, userName: String, givenName: String? = nil, familyName: String? = nil, email: String? = nil,
        phone: String? = nil, role: Role = .peerMentor, active: Bool = true, memberNumber: String? = nil,
        personnummer: PersonnummerChange = .keep
    ) {
        self.externalID = externalID
        self.userName = userName
        self.givenName = givenName
        self.familyName = familyName
        self.email = email
        self.phone = phone
        self.role = role
        self.active = active
        self.memberNumber = memberNumber
        self.personnummer = personnummer
    }
}

/// What a write does to the record's personnummer. The number is write-only: no description,
/// interpolation or dump shows its digits.
public enum PersonnummerChange: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The record keeps the number it has, or has none.
    case keep
    case remove
    /// Validated, sealed and indexed at once; refused when invalid.
    case set(String)

    public var description: String {
        switch self {
        case .keep: "keep"
        case .remove: "remove"
        case .set: "set(\(Redactor.placeholder))"
        }
    }

    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}
