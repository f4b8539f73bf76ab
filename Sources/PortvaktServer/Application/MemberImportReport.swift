import Foundation
import PortvaktCore
import PortvaktDomain

/// What `members import` found and did, in the operator's words. Names members by their
/// external id only and says that a personnummer changed, never which.
public struct MemberImportReport: Sendable {
    /// Each bad line as `line N: reason`, in line order; when there is any, nothing was written.
    public let errors: [String]
    public let added: Int
    public let changed: Int
    public let removed: Int
    /// One line per change: `add  external_id=…`, `change external_id=…: role peer_mentor → org_admin, email`,
    /// `remove external_id=…`.
    public let changes: [String]
    /// Whether the changes were written (`--apply`, no errors, something to change).
    public internal(set) var applied = false

    init(plan: ImportPlan, errors: [ImportPlan.LineError]) {
        // In line order, each reason once (the file's reader and the plan may both see a line).
        var seen: [Int: [String]] = [:]
        var ordered: [ImportPlan.LineError] = []
        let byLine = errors.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map { $0.element }
        for error in byLine where !(seen[error.line] ?? []).contains(error.reason) {
            seen[error.line, default: []].append(error.reason)
            ordered.append(error)
        }
        self.errors = ordered.map { "line \($0.line): \(Redactor.sanitize($0.reason))" }
        added = plan.additions.count
        changed = plan.changes.count
        removed = plan.removals.count
        let additions: [String] = plan.additions.map { "add  external_id=\(Self.shown($0.externalID)) (\($0.role.rawValue))" }
        let changes: [String] = plan.changes.map { change in
            let differences = Self.differences(change.before, change.after)
            return "change external_id=\(Self.shown(change.after.externalID))" + (differences.isEmpty ? "" : ": " + differences.joined(separator: ", "))
        }
        let removals: [String] = plan.removals.map { member in
            member.externalID.map { "remove external_id=\(Self.shown($0))" } ?? "remove record \(member.id) (no external id)"
        }
        self.changes = additions + changes + removals
    }

    public var isEmpty: Bool { added == 0 && changed == 0 && removed == 0 }

    /// The last line: what was written, or would be.
    public var summary: String {
        if !errors.isEmpty {
            return "Nothing written: \(Self.grouped(errors.count)) \(errors.count == 1 ? "error" : "errors") in the file. Correct the lines above and run the import again."
        }
        if isEmpty { return "No changes." }
        if applied { return "Applied: added \(Self.grouped(added)), changed \(Self.grouped(changed)), removed \(Self.grouped(removed))." }
        return "Dry run: would add \(Self.grouped(added)), change \(Self.grouped(changed)), remove \(Self.grouped(removed)) (nothing written). Run again with --apply to write."
    }

    /// What differs between a record and the file's entry for it, as words: values for the role,
    /// only the attribute's name for the rest.
    static func differences(_ before: DirectoryMember, _ after: MemberEntry) -> [String] {
        var words: [String] = []
        if !before.active && after.active { words.append("active again") }
        if before.active && !after.active { words.append("ends") }
        if before.role != after.role { words.append("role \(before.role.rawValue) → \(after.role.rawValue)") }
        if before.userName != after.userName { words.append("user name") }
        if before.givenName != after.givenName || before.familyName != after.familyName { words.append("name") }
        if before.email?.lowercased() != after.email?.lowercased() { words.append("email") }
        if IdentityLinker.e164(before.phone) != IdentityLinker.e164(after.phone) { words.append("phone") }
        if before.memberNumber != after.memberNumber { words.append("member number") }
        switch after.personnummer {
        case .remove where before.personnummerOnRecord: words.append("personnummer removed")
        case .set where !before.personnummerOnRecord: words.append("personnummer added")
        // The number itself is not compared here (it is sealed): when nothing else differs, it did.
        case .set where words.isEmpty: words.append("personnummer")
        default: break
        }
        return words
    }

    /// An external id for a terminal: anything shaped like a personnummer redacted, control characters escaped.
    static func shown(_ externalID: String) -> String { Redactor.sanitize(externalID) }

    /// `12,000`: thousands grouped with commas, whatever the locale.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var output = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { output.append(",") }
            output.append(digit)
        }
        return (number < 0 ? "-" : "") + output
    }
}

/// A step of `members import`, for a progress line on a terminal.
public enum MemberImportProgress: Sendable, Equatable, CustomStringConvertible {
    case reading(lines: Int)
    case checking(records: Int)
    case applying(changes: Int)

    public var description: String {
        switch self {
        case .reading(let lines): "Reading… \(MemberImportReport.grouped(lines)) lines"
        case .checking(let records): "Checking \(MemberImportReport.grouped(records)) members…"
        case .applying(let changes): "Applying \(MemberImportReport.grouped(changes)) changes…"
        }
    }
}
