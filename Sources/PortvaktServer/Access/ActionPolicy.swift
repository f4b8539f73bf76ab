import Foundation
import PortvaktCore
import PortvaktStorage

/// The actions that need more than a valid session. Each names its policy once, here; the portal
/// and the JSON API both ask ``ActionPolicy/of(_:)``, so the two cannot disagree.
enum SensitiveAction: String, Sendable, CaseIterable {
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
    /// A member adds a device key for biometric unlock (``DeviceTrust/mayRegisterDevice(from:at:)``).
    case deviceEnrol = "device.enrol"

    /// The action a device-key step-up names (`POST /v1/step-up`).
    init(_ stepUp: StepUpAction) {
        switch stepUp {
        case .contactsRead: self = .contactsRead
        case .expensesSubmit: self = .expensesSubmit
        case .personnummerRead: self = .personnummerReveal
        }
    }
}

/// How a person proves again who they are before a sensitive action.
enum StepUpKind: String, Sendable, CaseIterable {
    /// A biometric assertion of the user's device key (`POST /v1/step-up`).
    case deviceKey = "device_key"
    /// A BankID or Vipps login within the policy's freshness.
    case freshElectronicID = "fresh_eid"
}

/// Who may take an action and which step-up it needs.
struct ActionPolicy: Sendable, Equatable {
    /// The roles in the path's organisation that may take it; empty: any member, on their own data.
    let roles: Set<Role>
    /// The step-ups that satisfy it; any one will do.
    let stepUps: Set<StepUpKind>
    /// How recent a BankID or Vipps login must be.
    let freshness: TimeInterval

    static func of(_ action: SensitiveAction) -> ActionPolicy {
        switch action {
        // A device key proves the phone, not the person's identity: it never carries what only
        // BankID or Vipps may (review III, item 2).
        case .personnummerReveal, .conflictResolve, .accountsMerge:
            ActionPolicy(roles: [.orgAdmin], stepUps: [.freshElectronicID], freshness: administratorFreshness)
        case .deviceEnrol:
            ActionPolicy(roles: [], stepUps: [.freshElectronicID], freshness: administratorFreshness)
        case .contactsRead, .expensesSubmit:
            ActionPolicy(roles: [], stepUps: [.deviceKey], freshness: administratorFreshness)
        }
    }

    static let administratorFreshness: TimeInterval = 300

    /// Whether `session` (and, for a device-key step-up, the access token's `step_up` claim) meets
    /// this policy for `action` at `now`.
    func isSatisfied(for action: SensitiveAction, session: Session, stepUpClaim: String?, at now: Date) -> Bool {
        stepUps.contains { kind in
            switch kind {
            case .freshElectronicID:
                DeviceTrust.isFreshElectronicIDLogin(session, maxAge: freshness, at: now)
            case .deviceKey:
                stepUpClaim.flatMap(StepUpAction.init(rawValue:)).map(SensitiveAction.init) == action
            }
        }
    }
}
