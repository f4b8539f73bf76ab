import Foundation
import PortvaktModels

/// Which member records a BankID or Vipps login takes (DESIGN.md, "Trust between organisations").
/// A login becomes an account only through what the provider verified: its subject, or its
/// personnummer. What a record holds (number, phone, email, name) was said by one organisation's
/// member system or administrators, so it decides which memberships an account gets, never which
/// account a login becomes.
public enum LinkingRule {
    public enum Decision: Sendable, Hashable {
        /// The record joins the login's account.
        case take
        /// The record carries the login's number but is held by an account that is not this
        /// person's (another number, or none verified): the record leaves that account and goes
        /// to its organisation's review; the login then takes it.
        case detach
        /// Not the login's record: audited with this reason, nothing written.
        case refuse(reason: String)
    }

    /// A record found by the login's verified personnummer (`loginIndex`, its blind index).
    /// A holder without a verified number is never joined by a number match.
    public static func byNumber(holder: User?, loginIndex: String) -> Decision {
        guard let holder else { return .take }
        return holder.personnummer?.index == loginIndex ? .take : .detach
    }

    /// A record found by the phone number the provider verified. A phone proves only that the
    /// phone is the person's now (numbers are reassigned and shared in families): it takes a
    /// record with no number that no other account holds, and only when the record's name is
    /// the login's, as the email claim asks. A refusal writes no personnummer anywhere and shows
    /// it to nobody.
    public static func byPhone(_ record: MemberRecord, holder: User?, loginIndex: String?, loginName: String?) -> Decision {
        guard let loginName, sameName(record.fullName, loginName) else { return .refuse(reason: nameDiffers) }
        let notFree = loginIndex == nil ? withoutNumber : Self.notFree
        guard record.personnummer == nil else { return .refuse(reason: notFree) }
        // A record held by an account with the login's own number is that person's (a concurrent first login made it a moment ago).
        if let holder, loginIndex == nil || holder.personnummer?.index != loginIndex { return .refuse(reason: notFree) }
        return .take
    }

    /// The refusals of a phone match. Only ``notFree`` goes to the organisation's review with
    /// the login's number: phone and name matched, so the record is likely the person's and an
    /// administrator decides. A phone alone shows the number to nobody, or anyone who put a
    /// stranger's phone on a record would read the stranger's number.
    public static let notFree = "phone_match_not_free"
    public static let withoutNumber = "phone_match_without_number"
    public static let nameDiffers = "phone_match_name_differs"

    /// Whether a record that now carries the number with blind index `recordIndex` may stay with
    /// the account holding it: only when that account's verified number is the same. Otherwise
    /// the member directory's write detaches it (``MemberRecordWriteEffects/detached``).
    public static func holderAgrees(holderIndex: String?, recordIndex: String) -> Bool {
        holderIndex == recordIndex
    }

    /// Names compared without case and accents by their first given name and last surname, a
    /// hyphenated name being one (`Kari Nordmann` is `Kari Elisabeth Nordmann`; `Lise Berg` is
    /// not `Anne-Lise Berg`, nor `Ida Kari Nordmann`).
    public static func sameName(_ a: String, _ b: String) -> Bool {
        let (x, y) = (words(a), words(b))
        guard x.count >= 2, y.count >= 2 else { return false }
        return x.first == y.first && x.last == y.last
    }

    static func words(_ name: String) -> [String] {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "nb_NO"))
            .split(whereSeparator: { !$0.isLetter && $0 != "-" }).map(String.init)
    }
}
