import Foundation
import PortvaktModels

/// How long a device key may stand in for BankID or Vipps (docs/login-flows.md, "Biometric unlock"):
/// it unlocks until `deviceTrust` after the user's last BankID or Vipps login. After that the
/// unlock grant answers `reauthentication_required`, and the next BankID or Vipps login renews
/// the trust for every device of the user. A password login does not renew it.
public struct DeviceTrust: Sendable {
    let lifetimes: SessionLifetimes

    public init(lifetimes: SessionLifetimes) {
        self.lifetimes = lifetimes
    }

    /// Until when the user's devices unlock; nil when the user never logged in with BankID or Vipps.
    public func trustedUntil(_ user: User) -> Date? {
        user.lastEidLoginAt.map { Date(millisecondsSince1970: $0).addingTimeInterval(lifetimes.deviceTrust) }
    }

    public func isTrusted(_ user: User, at now: Date) -> Bool {
        trustedUntil(user).map { $0 > now } ?? false
    }

    /// A device key may be added only from a session that BankID or Vipps opened moments ago
    /// (``SensitiveAction/deviceEnrol``): not from a device key, or a stolen unlocked phone could
    /// enrol more keys; not from a password, or a stolen password would gain a key that carries
    /// more than the password did (review III, item 2).
    public func mayRegisterDevice(from session: Session, at now: Date) -> Bool {
        Self.isFreshElectronicIDLogin(session, maxAge: lifetimes.deviceRegistration, at: now)
    }

    /// Whether the session was opened by a BankID or Vipps login within `maxAge` (not by a
    /// password, not by a device key): the step-up an administrator's irreversible actions need.
    public static func isFreshElectronicIDLogin(_ session: Session, maxAge: TimeInterval, at now: Date) -> Bool {
        Authentication.isFreshElectronicIDLogin(session, maxAge: maxAge, at: now)
    }
}
