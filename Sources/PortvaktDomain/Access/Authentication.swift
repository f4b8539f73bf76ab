import Foundation
import PortvaktStorage

/// How a session was authenticated, as its `acr` and `amr` record it.
public enum Authentication {
    /// A session unlocked with a device key (biometrics on a trusted phone).
    public static let deviceACR = "urn:portvakt:acr:device-biometric"
    /// An access token elevated by a device-key step-up.
    public static let stepUpACR = "urn:portvakt:acr:biometric-step-up"
    /// An access token elevated by the account's password, entered again.
    public static let passwordStepUpACR = "urn:portvakt:acr:password-step-up"

    /// Whether the session's provider vouched for the high level of assurance (eIDAS high:
    /// BankID's `acr` `…;LOA=4`); BankID with biometrics (`urn:bankid:bis`, LOA 3) and Vipps
    /// are substantial.
    public static func isHighAssurance(_ session: Session) -> Bool {
        session.acr.split(separator: ";").contains("LOA=4")
    }

    /// Whether the session was opened by a BankID or Vipps login within `maxAge` (not by a
    /// password, not by a device key), counted from the provider's `auth_time`.
    public static func isFreshElectronicIDLogin(_ session: Session, maxAge: TimeInterval, at now: Date) -> Bool {
        let amr = Set(session.amr.split(separator: " ").map(String.init))
        let electronicID = session.deviceId == nil && amr.isDisjoint(with: ["pwd", "hwk"]) && session.acr != deviceACR
        return electronicID && now.timeIntervalSince(Date(millisecondsSince1970: session.authTime)) <= maxAge
    }
}
