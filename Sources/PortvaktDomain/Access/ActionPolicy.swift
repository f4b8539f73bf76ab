import Foundation
import PortvaktCore
import PortvaktModels

/// Who may take a sensitive action and which step-up it needs: data, declared once per action.
public struct ActionPolicy: Sendable, Equatable {
    /// The roles in the organisation that may take it; empty: any member, on their own data.
    public let roles: Set<Role>
    /// The step-ups that satisfy it; any one will do.
    public let stepUps: Set<StepUpKind>
    /// How recent a BankID or Vipps login must be.
    public let freshness: TimeInterval
    /// Whether a session a device key unlocked may take it by any of its step-ups (not a key's
    /// enrolment: a stolen unlocked phone, its password in AutoFill, would enrol more keys).
    public let deviceSessions: Bool

    public init(roles: Set<Role>, stepUps: Set<StepUpKind>, freshness: TimeInterval, deviceSessions: Bool = true) {
        self.roles = roles
        self.stepUps = stepUps
        self.freshness = freshness
        self.deviceSessions = deviceSessions
    }

    public static func of(_ action: SensitiveAction) -> ActionPolicy {
        switch action {
        // A device key proves the phone, not the person's identity: it never carries what only
        // BankID or Vipps may (review III, item 2).
        // S18.3: a device-bound passkey with user verification is phishing-resistant and proves
        // the person who registered it after a BankID or Vipps login, so it stands in for the
        // round trip. Removing every phone affects the member in every organisation, so one
        // organisation's administrator needs the same proof (review IV, item 3), and so does
        // suspending a membership, which can end every way in of a member (issue 45 item 5).
        case .personnummerReveal, .conflictResolve, .accountsMerge, .devicesRemoveAll, .membershipSuspend:
            ActionPolicy(roles: [.orgAdmin], stepUps: [.freshElectronicID, .freshPasskey], freshness: administratorFreshness)
        // A passkey is added only after BankID or Vipps, so it never carries more than they did;
        // so is raising a device key to their level.
        case .passkeyRegister, .deviceRaise:
            ActionPolicy(roles: [], stepUps: [.freshElectronicID], freshness: administratorFreshness)
        // A device key carries the level of what enrolled it (DeviceRegistry): BankID or Vipps,
        // or the password, just logged in with or entered again (issue 61 items 12 and 13).
        case .deviceEnrol:
            ActionPolicy(
                roles: [], stepUps: [.freshElectronicID, .freshPasswordLogin, .freshPassword], freshness: administratorFreshness, deviceSessions: false
            )
        // S11.3: the password, entered again, when biometrics fail or the phone has none.
        case .contactsRead, .expensesSubmit:
            ActionPolicy(roles: [], stepUps: [.deviceKey, .freshPassword], freshness: administratorFreshness)
        }
    }

    public static let administratorFreshness: TimeInterval = 300

    /// Whether `session` (and the access token's step-up, for a device key or a password) meets
    /// this policy's step-up for `action` at `now`.
    /// - Parameter highAssurance: the fresh BankID or Vipps login must also be of the high level
    ///   (an organisation that asks for it, `PORTVAKT_HIGH_ASSURANCE_ORGANISATIONS`).
    public func isSatisfied(for action: SensitiveAction, session: Session, stepUp: StepUpGrant?, highAssurance: Bool = false, at now: Date) -> Bool {
        guard deviceSessions || session.deviceId == nil else { return false }
        return stepUps.contains { kind in
            switch kind {
            case .freshElectronicID:
                Authentication.isFreshElectronicIDLogin(session, maxAge: freshness, at: now) && (!highAssurance || Authentication.isHighAssurance(session))
            case .freshPasskey:
                !highAssurance && Authentication.isFreshPasskeyLogin(session, maxAge: freshness, at: now)
            case .freshPasswordLogin:
                !highAssurance && Authentication.isFreshPasswordLogin(session, maxAge: freshness, at: now)
            case .deviceKey, .freshPassword:
                stepUp == StepUpGrant(action: action, kind: kind)
            }
        }
    }

    /// What the step-up asks for, in a sentence.
    var requirement: String {
        stepUps.contains(.freshElectronicID)
            ? "This action needs a BankID or Vipps login\(stepUps.contains(.freshPasskey) ? " (or a passkey)" : "") within the last \(Int(freshness / 60)) minutes; log in again and repeat it."
            : "A step-up is required for this action: confirm with biometrics or your password."
    }
}
