import Foundation
import PortvaktModels

/// How a session was authenticated, as its `acr` and `amr` record it.
public enum Authentication {
    /// A session unlocked with a device key (biometrics on a trusted phone).
    public static let deviceACR = "urn:portvakt:acr:device-biometric"
    /// A session unlocked with a device key enrolled after a password login: it carries no more
    /// than the password did (issue 61 item 12).
    public static let devicePasswordACR = "urn:portvakt:acr:device-biometric-password"
    /// A login with email and password.
    public static let passwordACR = "urn:portvakt:password"
    /// An access token elevated by a device-key step-up.
    public static let stepUpACR = "urn:portvakt:acr:biometric-step-up"
    /// An access token elevated by the account's password, entered again.
    public static let passwordStepUpACR = "urn:portvakt:acr:password-step-up"

    /// A sign-in with a passkey (WebAuthn, user verified) on the web (S18.2), by a person whose
    /// last BankID or Vipps login is within the device trust (90 days): it may confirm
    /// administrators' actions (S18.3).
    public static let passkeyACR = "urn:portvakt:acr:passkey"
    /// A passkey sign-in of someone whose BankID or Vipps trust has lapsed: it signs in, and
    /// confirms nothing until they log in with BankID or Vipps again.
    public static let passkeyUntrustedACR = "urn:portvakt:acr:passkey-sign-in"
    /// Its methods (RFC 8176), unlocked by the person (`mfa`): a key bound to one device's
    /// hardware (`hwk`), or one that may be synced (backup eligible) to others (`swk`).
    public static func passkeyAMR(synced: Bool) -> [String] { [synced ? "swk" : "hwk", "mfa"] }

    /// A BankID order (the app on this device, or the QR code): its API gives no level of assurance.
    public static let bankIDOrderACR = "urn:portvakt:acr:bankid-order"

    /// Whether BankID's OIDC login vouched for its high level of assurance (eIDAS high: `acr`
    /// `urn:bankid:bid;LOA=4`). BankID with biometrics (`urn:bankid:bis`, LOA 3), an order (its
    /// API gives no level) and Vipps are not. Only BankID's own ID token records a `urn:bankid:`
    /// value (``upstreamACR(_:provider:)``), so another upstream cannot claim the level.
    public static func isHighAssurance(_ session: Session) -> Bool {
        let parts = session.acr.split(separator: ";")
        return parts.first == "urn:bankid:bid" && parts.contains("LOA=4")
    }

    /// Whether the session was opened by a BankID or Vipps login within `maxAge` (not by a
    /// password, not by a device key), counted from the provider's `auth_time`.
    public static func isFreshElectronicIDLogin(_ session: Session, maxAge: TimeInterval, at now: Date) -> Bool {
        let amr = Set(session.amr.split(separator: " ").map(String.init))
        let electronicID = session.deviceId == nil && amr.isDisjoint(with: ["pwd", "hwk", "swk"])
            && ![deviceACR, devicePasswordACR, passkeyACR, passkeyUntrustedACR].contains(session.acr)
        return electronicID && now.timeIntervalSince(Date(millisecondsSince1970: session.authTime)) <= maxAge
    }

    /// Whether the session was opened by a login with the account's password within `maxAge`.
    public static func isFreshPasswordLogin(_ session: Session, maxAge: TimeInterval, at now: Date) -> Bool {
        session.deviceId == nil && session.acr == passwordACR && session.amr.split(separator: " ").contains("pwd")
            && now.timeIntervalSince(Date(millisecondsSince1970: session.authTime)) <= maxAge
    }

    /// Whether the session was opened by a sign-in with a device-bound passkey within `maxAge`
    /// (S18.3); a passkey that may be synced (`amr` `swk`) does not count.
    public static func isFreshPasskeyLogin(_ session: Session, maxAge: TimeInterval, at now: Date) -> Bool {
        session.deviceId == nil && session.acr == passkeyACR
            && session.amr.split(separator: " ").contains("hwk")
            && now.timeIntervalSince(Date(millisecondsSince1970: session.authTime)) <= maxAge
    }
}
