import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage

/// What `user find` looks a person up by.
public enum UserSearch: Sendable, Equatable {
    /// Any case; the account's own address and its member records'.
    case email(String)
    /// As people write it (`+47 900 00 001`, `90000001`, `0047…`); compared in E.164.
    case phone(String)
    /// Eleven digits; validated, then looked up through the blind index only.
    case personnummer(String)
}

/// An account as `user find` shows it: its id, name, roles, whether it is disabled and how many
/// ways in it has; the personnummer masked as everywhere (`124385*****`), email and phones partly.
public struct UserLookup: Sendable, Equatable {
    public struct Membership: Sendable, Equatable {
        public let organisation: String
        public let role: Role
    }

    public let userID: String
    public let name: String
    public let personnummer: String?
    public let email: String?
    /// The phones on the member records the account holds.
    public let phones: [String]
    public let memberships: [Membership]
    public let disabled: Bool
    /// Open sessions (the app's and the portal's), devices that unlock, passkeys.
    public let sessions: Int
    public let devices: Int
    public let passkeys: Int

    /// The account in the operator's words, one fact a line.
    public var lines: [String] {
        let roles = memberships.map { "\($0.organisation) \($0.role.rawValue)" }
        return [
            "Account \(userID): \(Redactor.sanitize(name))",
            "  personnummer  \(personnummer ?? "none")",
            "  email         \(email ?? "none")",
            "  phone         \(phones.isEmpty ? "none on its records" : phones.joined(separator: ", "))",
            "  memberships   \(roles.isEmpty ? "none" : roles.joined(separator: ", "))",
            "  disabled      \(disabled ? "yes" : "no")",
            "  open sessions \(sessions), devices \(devices), passkeys \(passkeys)",
        ]
    }
}

/// What `user find` found: the accounts, and the member records that matched but that no
/// account holds (the person has not signed in yet, or the membership ended).
public struct UserSearchResult: Sendable, Equatable {
    public struct UnheldRecord: Sendable, Equatable {
        public let organisation: String
        public let role: Role
        public let ended: Bool
    }

    public let accounts: [UserLookup]
    public let unheldRecords: [UnheldRecord]

    public var lines: [String] {
        var lines = accounts.flatMap(\.lines)
        if accounts.isEmpty { lines.append("No account found.") }
        for record in unheldRecords {
            lines.append("Member record without an account: \(record.organisation) (\(record.role.rawValue))\(record.ended ? ", membership ended" : "")")
        }
        return lines
    }
}

/// What `user erase` removed, or without `--yes` would remove.
public struct UserErasureReport: Sendable, Equatable {
    public let userID: String
    public let counts: AccountErasureCounts
    /// The member records the account held: the member system's, kept (unlinked).
    public let recordsKept: Int
    public let erased: Bool

    public var lines: [String] {
        let c = counts
        var lines = [
            erased ? "Erased account \(userID):" : "Would erase account \(userID):",
            "  removed  provider accounts \(c.identities), memberships \(c.memberships), sessions \(c.sessions) (with their refresh tokens), "
                + "portal sessions \(c.portalSessions), devices \(c.devices), passkeys \(c.passkeys)",
            "           activities \(c.activities), expense claims \(c.expenseClaims), emails \(c.mails), invitations \(c.invitations), "
                + "audit events' client addresses \(c.auditAddresses)",
            "  kept for the organisation, without the account: contacts \(c.contactsUnlinked), member-sync entries \(c.syncEntriesUnlinked), "
                + "member records \(recordsKept)",
        ]
        guard erased else {
            lines.append("Nothing erased: run again with --yes to erase. It cannot be undone.")
            return lines
        }
        lines.append("Audited user.erased. The audit trail keeps its events under this id, which names nobody now (`portvakt-server audit verify` still verifies).")
        if recordsKept > 0 {
            lines.append("The member system's \(recordsKept == 1 ? "record stays" : "\(recordsKept) records stay"): a later BankID or Vipps login with the same number makes a new account. End or delete the membership in the member system if that is not wanted.")
        }
        return lines
    }
}

/// Partly masked contact details for the operator's output: enough to tell two people apart,
/// not enough to read the address or number off a terminal.
public enum Masked {
    /// `kari@sandbox.portvakt.test` → `k***@s***.p***.test`.
    public static func email(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return "***" }
        let labels = address[address.index(after: at)...].split(separator: ".", omittingEmptySubsequences: false)
        let domain = labels.enumerated().map { index, label in
            index == labels.count - 1 && labels.count > 1 ? String(label) : first(label)
        }
        return first(address[..<at]) + "@" + domain.joined(separator: ".")
    }

    /// `+4790000001` → `+47******01`.
    public static func phone(_ phone: String) -> String {
        let digits = phone.filter(\.isNumber)
        guard digits.count >= 6 else { return "***" }
        return "+\(digits.prefix(2))\(String(repeating: "*", count: digits.count - 4))\(digits.suffix(2))"
    }

    private static func first(_ part: Substring) -> String {
        part.first.map { "\($0)***" } ?? "***"
    }
}
