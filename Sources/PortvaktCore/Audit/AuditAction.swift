/// Every action the audit trail records, dotted by area. Events are written only with one of
/// these; what is read back keeps its recorded text (``AuditEvent/action``), whatever version
/// wrote it.
public enum AuditAction: String, Sendable, CaseIterable {
    // Logins and the code that ends them.
    case loginSucceeded = "login.succeeded"
    case loginFailed = "login.failed"
    case loginCodeReplayed = "login.code_replayed"
    case loginCodeRedemption = "login.code_redemption"
    case loginLinkRefused = "login.link.refused"
    case legacyClient = "oauth.legacy_client"
    /// A person let a third-party client have what it asked for (issue 59 item 3).
    case consentGranted = "consent.granted"
    case consentDeclined = "consent.declined"
    case consentWithdrawn = "consent.withdrawn"
    /// A browser's single sign-on at Portvakt ended (a sign-out there or at a client).
    case browserSignedOut = "browser.signed_out"

    // Sessions.
    case sessionEnded = "session.ended"
    case sessionRefreshTokenReused = "session.refresh_token_reused"
    case sessionRefreshWrongKey = "session.refresh_wrong_key"

    // Devices and biometric unlock.
    case deviceRegistered = "device.registered"
    case deviceRaised = "device.raised"
    case deviceRevoked = "device.revoked"
    case deviceUnlock = "device.unlock"
    case deviceStepUp = "device.step_up"
    case deviceAssertionFailed = "device.assertion_failed"

    // Accounts.
    case userPasswordSet = "user.password_set"
    case passwordStepUp = "user.password_step_up"
    case userPasswordInvited = "user.password_invited"
    case userMerged = "user.merged"
    /// An operator erased an account (GDPR art. 17, `portvakt-server user erase`): counts and a
    /// reference only; the id it names belongs to nobody afterwards.
    case userErased = "user.erased"
    /// An operator disabled an account (`portvakt-server user disable`, with a reason): every
    /// session and portal session ended with it; devices and passkeys wait, refused, until enabled.
    case userDisabled = "user.disabled"
    /// An operator enabled a disabled account again (`user enable`, with a reason).
    case userEnabled = "user.enabled"
    /// An operator signed an account out everywhere (`user sign-out`): sessions, portal sessions, device unlocks.
    case userSignedOut = "user.signed_out"
    case passkeyRegistered = "passkey.registered"
    case passkeyRemoved = "passkey.removed"
    case passkeyRefused = "passkey.refused"

    // Member records and the member-sync write-back.
    case memberLinkRefused = "member.link.refused"
    /// A record's number disagreed with the account holding it: the account's membership on it ended, to the organisation's review.
    case memberDetached = "member.detached"
    /// A member system or an import gave an existing account a membership or a role above peer mentor: the person's own security event.
    case membershipGranted = "membership.granted"
    case memberOutboxRetried = "member.outbox.retried"
    case memberClaimCodeSent = "member.claim.code_sent"
    case memberClaimLinked = "member.claim.linked"
    case memberClaimFailed = "member.claim.failed"
    case personnummerUpdated = "member.personnummer.updated"
    case personnummerConfirmed = "member.personnummer.confirmed"
    case personnummerConflict = "member.personnummer.conflict"
    case personnummerAbsent = "member.personnummer.absent"
    case personnummerInvalid = "member.personnummer.invalid"
    case personnummerViewed = "member.personnummer.viewed"
    case personnummerConflictResolved = "member.personnummer.conflict_resolved"

    // The member directory: member systems (SCIM), import files and operators (issue 45).
    case memberDirectoryCreated = "member.directory.created"
    case memberDirectoryUpdated = "member.directory.updated"
    case memberDirectoryEnded = "member.directory.ended"
    case memberDirectoryReactivated = "member.directory.reactivated"
    case memberDirectoryDeleted = "member.directory.deleted"
    case memberDirectoryImported = "member.directory.imported"
    /// An account took a record because it carries the record's personnummer.
    case memberDirectoryLinked = "member.directory.linked"
    /// An account lost its roles resting on records that ended; `left_with_none`: every way in too.
    case membershipEnded = "user.membership.ended"
    /// An organisation's administrator suspended a member's membership there (the Members page,
    /// after a step-up): the roles resting on the record ended; other organisations' stay.
    case membershipSuspended = "user.membership.suspended"
    /// The administrator lifted the suspension: the record may be linked again, and the account
    /// that held it (`restored_to`), when there is one, holds it again.
    case membershipSuspensionLifted = "user.membership.suspension_lifted"
    case scimTokenCreated = "scim_token.created"
    case scimTokenRevoked = "scim_token.revoked"
    /// An operator changed an organisation's brand (`organisation create|update`); `changed` names the parts.
    case organisationBrandUpdated = "organisation.brand_updated"

    // The app's data behind a step-up, and the trail itself.
    case contactDetailsRead = "contact.details_read"
    case expenseSubmitted = "expense.submitted"
    case auditExported = "audit.exported"
    case accountDataExported = "account.data_exported"
}
