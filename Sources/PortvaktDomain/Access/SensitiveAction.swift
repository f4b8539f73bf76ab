import PortvaktProtocol

/// The actions that need more than a valid session. Each names its policy once
/// (``ActionPolicy/of(_:)``); the portal and the JSON API reach them through the same domain
/// operations, which enforce it, so the two surfaces cannot disagree.
public enum SensitiveAction: String, Sendable, CaseIterable {
    /// An administrator sees a member's full personnummer (a sync entry).
    case personnummerReveal = "personnummer.reveal"
    /// An administrator settles a personnummer conflict (the member system may be written to).
    case conflictResolve = "member_sync.resolve"
    /// An administrator merges two accounts of one person.
    case accountsMerge = "accounts.merge"
    /// A member reads the contact details of the people they support.
    case contactsRead = "contacts.read"
    /// A member submits an expense claim.
    case expensesSubmit = "expenses.submit"
    /// A member adds a device key for biometric unlock.
    case deviceEnrol = "device.enrol"
    /// A member's password-level device key is raised to BankID or Vipps (issue 61 item 12).
    case deviceRaise = "device.raise"
    /// A member adds a passkey for signing in on the web (S18.1).
    case passkeyRegister = "passkey.register"
    /// An administrator removes every phone of a member (a lost phone): the phones stop unlocking
    /// for every organisation the member belongs to, not only the administrator's.
    case devicesRemoveAll = "devices.remove_all"
    /// An administrator suspends a member's membership in their organisation (issue 45 item 5):
    /// the member's role there ends at once, and with their last membership every way in.
    case membershipSuspend = "membership.suspend"

    /// The action a device-key step-up names (`POST /v1/step-up`).
    public init(_ stepUp: StepUpAction) {
        switch stepUp {
        case .contactsRead: self = .contactsRead
        case .expensesSubmit: self = .expensesSubmit
        case .personnummerRead: self = .personnummerReveal
        case .deviceEnrol: self = .deviceEnrol
        }
    }
}

/// How a person proves again who they are before a sensitive action.
public enum StepUpKind: String, Sendable, CaseIterable {
    /// A biometric assertion of the user's device key (`POST /v1/step-up`).
    case deviceKey = "device_key"
    /// The account's password entered again (`POST /v1/step-up/password`), when biometrics fail
    /// or the phone has none (S11.3).
    case freshPassword = "fresh_password"
    /// A BankID or Vipps login within the policy's freshness.
    case freshElectronicID = "fresh_eid"
    /// A login with the account's password within the policy's freshness: only where what the
    /// action gives carries no more than the password (a password-level device key).
    case freshPasswordLogin = "fresh_password_login"
    /// A sign-in with a device-bound passkey (not backup eligible, `amr` `hwk`) and user
    /// verification within the policy's freshness (S18.3); never where an organisation asks for
    /// BankID's high level. A passkey that may be synced can be shared through a password manager,
    /// so it does not stand in for BankID or Vipps.
    case freshPasskey = "fresh_passkey"
}

/// The step-up an access token carries: the action its `step_up` claim names, and how the person
/// proved it was them, as its `acr` says.
public struct StepUpGrant: Sendable, Equatable {
    public let action: SensitiveAction
    public let kind: StepUpKind

    public init(action: SensitiveAction, kind: StepUpKind) {
        self.action = action
        self.kind = kind
    }

    /// Nil for a token without a step-up, or whose `acr` is not a step-up's.
    public init?(claim: String?, acr: String) {
        guard let action = claim.flatMap(StepUpAction.init(rawValue:)).map(SensitiveAction.init) else { return nil }
        switch acr {
        case Authentication.stepUpACR: kind = .deviceKey
        case Authentication.passwordStepUpACR: kind = .freshPassword
        default: return nil
        }
        self.action = action
    }
}
