/// Why the domain refused an operation. A struct around a private code (the shape of jwt-kit's
/// `JWTError`): callers compare ``kind`` and ``reason``; each surface (the JSON API, the OAuth
/// endpoints, the HTML pages) maps it once to its status and words.
public struct DomainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the surface answers: 404, 403, 401 with a step-up, 409, 400 or 429.
    public enum Kind: String, Sendable, Hashable {
        case notFound, notAllowed, stepUpRequired, conflict, invalidInput, throttled
    }

    /// Which rule refused, for the surface's words.
    public struct Reason: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let notFound = Reason(rawValue: "not_found")
        public static let notAllowed = Reason(rawValue: "not_allowed")
        public static let stepUpRequired = Reason(rawValue: "step_up_required")
        public static let invalidInput = Reason(rawValue: "invalid_input")
        public static let conflictNotOpen = Reason(rawValue: "conflict_not_open")
        public static let numberHeldElsewhere = Reason(rawValue: "number_held_elsewhere")
        public static let heldByAnotherPerson = Reason(rawValue: "held_by_another_person")
        public static let mergeSameAccount = Reason(rawValue: "merge_same_account")
        public static let mergeOwnAccount = Reason(rawValue: "merge_own_account")
        public static let mergeNotMembers = Reason(rawValue: "merge_not_members")
        public static let mergeOtherOrganisation = Reason(rawValue: "merge_other_organisation")
        public static let mergeDuplicateData = Reason(rawValue: "merge_duplicate_data")
        public static let mergeAccountGone = Reason(rawValue: "merge_account_gone")
        public static let mergeAccountDisabled = Reason(rawValue: "merge_account_disabled")
        public static let alreadyDelivered = Reason(rawValue: "already_delivered")
        public static let beingDelivered = Reason(rawValue: "being_delivered")
        public static let tooManyOrders = Reason(rawValue: "too_many_orders")
        public static let inviteNeedsEmail = Reason(rawValue: "invite_needs_email")
        public static let inviteEmailOtherAccount = Reason(rawValue: "invite_email_other_account")
        public static let inviteAccountWithoutEmail = Reason(rawValue: "invite_account_without_email")
        public static let inviteAccountElsewhere = Reason(rawValue: "invite_account_elsewhere")
        public static let inviteEmailOtherOrganisations = Reason(rawValue: "invite_email_other_organisations")
        public static let suspendOwnMembership = Reason(rawValue: "suspend_own_membership")
        public static let notSuspended = Reason(rawValue: "not_suspended")
        public static let inviteSuspended = Reason(rawValue: "invite_suspended")
        public static let signInMethodsElsewhere = Reason(rawValue: "sign_in_methods_elsewhere")
    }

    private enum Code: Sendable, Hashable {
        case notFound(what: String)
        case notAllowed
        case stepUpRequired(SensitiveAction)
        case invalidInput(String)
        case refused(Kind, Reason, String)
    }

    private let code: Code

    public var kind: Kind {
        switch code {
        case .notFound: .notFound
        case .notAllowed: .notAllowed
        case .stepUpRequired: .stepUpRequired
        case .invalidInput: .invalidInput
        case .refused(let kind, _, _): kind
        }
    }

    public var reason: Reason {
        switch code {
        case .notFound: .notFound
        case .notAllowed: .notAllowed
        case .stepUpRequired: .stepUpRequired
        case .invalidInput: .invalidInput
        case .refused(_, let reason, _): reason
        }
    }

    /// The action whose policy was not met, for a ``Kind/stepUpRequired`` error.
    public var action: SensitiveAction? {
        if case .stepUpRequired(let action) = code { return action }
        return nil
    }

    /// An English sentence that is safe to show (no number, no secret).
    public var description: String {
        switch code {
        case .notFound(let what): "No \(what) with this id is visible to the caller."
        case .notAllowed: "The caller has no role here that allows this."
        case .stepUpRequired(let action): ActionPolicy.of(action).requirement
        case .invalidInput(let text): text
        case .refused(_, _, let text): text
        }
    }

    public static func notFound(_ what: String) -> DomainError { DomainError(code: .notFound(what: what)) }
    public static let notAllowed = DomainError(code: .notAllowed)
    public static func stepUpRequired(_ action: SensitiveAction) -> DomainError { DomainError(code: .stepUpRequired(action)) }
    public static func invalidInput(_ description: String) -> DomainError { DomainError(code: .invalidInput(description)) }

    public static let conflictNotOpen = refused(.conflict, .conflictNotOpen, "Only an open conflict can be resolved.")
    public static let numberHeldElsewhere = refused(
        .conflict, .numberHeldElsewhere, "Another member record of the organisation holds the login's number; merge them first."
    )
    public static let heldByAnotherPerson = refused(
        .conflict, .heldByAnotherPerson, "The member's account has another personnummer: the login was someone else's; keep the member's."
    )
    public static let mergeSameAccount = refused(.invalidInput, .mergeSameAccount, "An account cannot be merged with itself.")
    public static let mergeOwnAccount = refused(
        .notAllowed, .mergeOwnAccount, "Administrators cannot merge their own account; ask another administrator."
    )
    public static let mergeNotMembers = refused(.notAllowed, .mergeNotMembers, "Both accounts must be members of this organisation.")
    public static let mergeOtherOrganisation = refused(
        .notAllowed, .mergeOtherOrganisation,
        "One of the accounts is also a member of another organisation; its administrators must be involved, or an operator merges with portvakt-server merge-users."
    )
    public static let mergeDuplicateData = refused(.conflict, .mergeDuplicateData, "Both accounts hold data under the same key; sort it out first.")
    public static let mergeAccountGone = refused(.conflict, .mergeAccountGone, "One of the accounts no longer exists.")
    /// A disabled account's provider accounts, phones and passkeys would open the kept one.
    public static let mergeAccountDisabled = refused(
        .conflict, .mergeAccountDisabled, "One of the accounts is disabled; operations must enable it before it can be merged."
    )
    public static let alreadyDelivered = refused(
        .conflict, .alreadyDelivered, "Only a dead or waiting message can be retried; this one is delivered."
    )
    public static let beingDelivered = refused(
        .conflict, .beingDelivered, "Only a dead or waiting message can be retried; this one is being delivered."
    )

    /// Each BankID order costs a call to BankID: an address that started too many waits.
    public static let tooManyOrders = refused(.throttled, .tooManyOrders, "Too many BankID orders from this address; wait a little.")

    public static let inviteNeedsEmail = refused(.conflict, .inviteNeedsEmail, "The member has no email address on record.")
    public static let inviteEmailOtherAccount = refused(
        .conflict, .inviteEmailOtherAccount, "The email address on record belongs to another account than the one the member is linked to."
    )
    public static let inviteAccountWithoutEmail = refused(
        .conflict, .inviteAccountWithoutEmail, "The member's account has no email address of its own to check the record's against."
    )
    public static let inviteAccountElsewhere = refused(
        .conflict, .inviteAccountElsewhere, "The member's account also has roles in other organisations, which a password would open too."
    )
    /// Issue 58: the person belongs to other organisations too, whose sign-in the change would end.
    public static let signInMethodsElsewhere = refused(
        .conflict, .signInMethodsElsewhere,
        "The person is a member of other organisations too: they remove their devices themselves in My account, or operations signs them out (user sign-out)."
    )
    public static let inviteEmailOtherOrganisations = refused(
        .conflict, .inviteEmailOtherOrganisations, "The email address is also on members of other organisations not linked to the same account."
    )

    /// An administrator would lock themselves out; another administrator (or the member system) must.
    public static let suspendOwnMembership = refused(
        .notAllowed, .suspendOwnMembership, "Administrators cannot suspend their own membership; ask another administrator."
    )

    /// A suspended membership gets no invitation: the password would give it back.
    public static let inviteSuspended = refused(.conflict, .inviteSuspended, "This membership is suspended: lift the suspension before inviting the member.")

    /// Only a suspended membership's suspension can be lifted.
    public static let notSuspended = refused(.conflict, .notSuspended, "This membership is not suspended.")

    private static func refused(_ kind: Kind, _ reason: Reason, _ text: String) -> DomainError {
        DomainError(code: .refused(kind, reason, text))
    }
}
