import Foundation
import PortvaktDomain
import PortvaktStorage

/// How long a device key may stand in for BankID or Vipps (README.md, "Biometric unlock"):
/// it unlocks until `deviceTrust` after the user's last BankID or Vipps login. After that the
/// unlock grant answers `reauthentication_required`, and the next BankID or Vipps login renews
/// the trust for every device of the user. A password login does not renew it.
struct DeviceTrust: Sendable {
    let lifetimes: SessionLifetimes

    /// Until when the user's devices unlock; nil when the user never logged in with BankID or Vipps.
    func trustedUntil(_ user: User) -> Date? {
        user.lastEidLoginAt.map { Date(millisecondsSince1970: $0).addingTimeInterval(lifetimes.deviceTrust) }
    }

    func isTrusted(_ user: User, at now: Date) -> Bool {
        trustedUntil(user).map { $0 > now } ?? false
    }

    /// A device key may be added only from a session that BankID or Vipps opened moments ago
    /// (``SensitiveAction/deviceEnrol``): not from a device key, or a stolen unlocked phone could
    /// enrol more keys; not from a password, or a stolen password would gain a key that carries
    /// more than the password did (review III, item 2).
    func mayRegisterDevice(from session: Session, at now: Date) -> Bool {
        Self.isFreshElectronicIDLogin(session, maxAge: lifetimes.deviceRegistration, at: now)
    }

    /// Whether the session was opened by a BankID or Vipps login within `maxAge` (not by a
    /// password, not by a device key): the step-up an administrator's irreversible actions need.
    static func isFreshElectronicIDLogin(_ session: Session, maxAge: TimeInterval, at now: Date) -> Bool {
        Authentication.isFreshElectronicIDLogin(session, maxAge: maxAge, at: now)
    }

    /// RFC 9470: log in again with BankID or Vipps (`max_age` 300), then repeat the request.
    static let freshLoginRequired = OAuthFailure(
        error: "insufficient_user_authentication",
        description: "This action needs a BankID or Vipps login within the last 5 minutes; log in again and repeat it.",
        message: .freshLoginRequired, status: .unauthorized, challengeParameters: #", max_age="300""#
    )

    static let reauthenticationRequired = OAuthFailure(
        error: "reauthentication_required", description: "The device is no longer trusted; log in with BankID or Vipps.",
        message: .reauthenticationRequired
    )
}
