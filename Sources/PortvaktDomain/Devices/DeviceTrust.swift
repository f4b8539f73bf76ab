import Foundation
import PortvaktModels
import PortvaktProtocol

/// How long a device key may stand in for BankID or Vipps (docs/login-flows.md, "Biometric unlock"):
/// it unlocks until `deviceTrust` after the user's last BankID or Vipps login. After that the
/// unlock grant answers `reauthentication_required`, and the next BankID or Vipps login renews
/// the trust for every device of the user. A password login does not renew it, except for a
/// password-level key (``DeviceAssurance/password``): it carries no more than the password, so
/// its trust counts from the last login of either kind.
public struct DeviceTrust: Sendable {
    let lifetimes: SessionLifetimes

    public init(lifetimes: SessionLifetimes) {
        self.lifetimes = lifetimes
    }

    /// Until when the user's keys of `assurance` unlock; nil when no login of a kind that renews
    /// them is recorded.
    public func trustedUntil(_ user: User, assurance: DeviceAssurance = .electronicID) -> Date? {
        let renewals = assurance == .password ? [user.lastEidLoginAt, user.lastPasswordLoginAt] : [user.lastEidLoginAt]
        return renewals.compactMap(\.self).max().map { Date(millisecondsSince1970: $0).addingTimeInterval(lifetimes.deviceTrust) }
    }

    public func isTrusted(_ user: User, assurance: DeviceAssurance = .electronicID, at now: Date) -> Bool {
        trustedUntil(user, assurance: assurance).map { $0 > now } ?? false
    }

    /// What a key enrolled by `session` stands for, once ``SensitiveAction/deviceEnrol``'s
    /// policy let it enrol: BankID's or Vipps's level only after their fresh login; otherwise the
    /// password's (a fresh password login, or the password entered again), so a stolen password
    /// never gains a key that carries more than the password did (review III, item 2). A device
    /// key never enrols another (the policy), or a stolen unlocked phone could enrol more keys.
    public static func enrolmentAssurance(of session: Session, at now: Date) -> DeviceAssurance {
        isFreshElectronicIDLogin(session, maxAge: ActionPolicy.of(.deviceEnrol).freshness, at: now) ? .electronicID : .password
    }

    /// Whether the session was opened by a BankID or Vipps login within `maxAge` (not by a
    /// password, not by a device key): the step-up an administrator's irreversible actions need.
    public static func isFreshElectronicIDLogin(_ session: Session, maxAge: TimeInterval, at now: Date) -> Bool {
        Authentication.isFreshElectronicIDLogin(session, maxAge: maxAge, at: now)
    }
}
