import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// What the administration pages show in words: sign-in methods, sync outcomes, delivery states
/// and errors, audit events and merge refusals. Ids stay in the JSON API and the exports.
enum AdminWords {
    static func yesNo(_ value: Bool, _ language: Language) -> String {
        value ? AdminPhrase.yes.text(language) : AdminPhrase.no.text(language)
    }

    /// `bankid`, `vipps`, `password` → "BankID, Vipps, e-post og passord"; none yet when nil or empty.
    static func logins(_ providers: [String]?, _ language: Language) -> String {
        guard let providers, !providers.isEmpty else { return AdminPhrase.notSignedInYet.text(language) }
        return providers.map { provider in
            switch provider {
            case "bankid": "BankID"
            case "vipps": "Vipps"
            case "passkey": AdminPhrase.passkey.text(language)
            default: AdminPhrase.emailAndPassword.text(language)
            }
        }.joined(separator: ", ")
    }

    static func outcomeName(_ outcome: MemberSyncOutcome, _ language: Language) -> String {
        switch outcome {
        case .updated: AdminPhrase.added.text(language)
        case .confirmed: AdminPhrase.confirmed.text(language)
        case .conflict: AdminPhrase.conflict.text(language)
        case .absent: AdminPhrase.missing.text(language)
        case .invalid: AdminPhrase.invalid.text(language)
        }
    }

    static func syncOutcome(_ outcome: MemberSyncOutcome, source: String, _ language: Language) -> String {
        if source.hasSuffix("-phone-match") {
            let via = source.hasPrefix("bankid") ? "BankID" : "Vipps"
            return AdminPhrase.aViaSignInMatchedThis.text(language, ["via": via])
        }
        if source == MemberSyncEntry.directoryDetachedSource {
            return AdminPhrase.theMemberSystemGaveTheMember.text(language)
        }
        if source.hasSuffix("-login-detached") {
            let via = source.hasPrefix("bankid") ? "BankID" : "Vipps"
            return AdminPhrase.aViaSignInWithThe.text(language, ["via": via])
        }
        let via = source == "bankid-login" ? "BankID" : source == "vipps-login" ? "Vipps" : AdminPhrase.anAdministrator.text(language)
        return switch outcome {
        case .updated: AdminPhrase.theNationalIdentityNumberFromThe.text(language, ["via": via])
        case .confirmed: AdminPhrase.theViaSignInConfirmedThe.text(language, ["via": via])
        case .conflict: AdminPhrase.theViaSignInGaveAnother.text(language, ["via": via])
        case .absent: AdminPhrase.viaDidNotGiveTheNational.text(language, ["via": via])
        case .invalid: AdminPhrase.viaGaveANationalIdentityNumber.text(language, ["via": via])
        }
    }

    static func syncStatus(_ entry: MemberSyncEntry, _ language: Language) -> String {
        switch (entry.status, entry.resolution) {
        case ("open", _): AdminPhrase.openWaitsForAnAdministrator.text(language)
        case (_, "took_login"): AdminPhrase.resolvedTookTheNumberFromThe.text(language)
        case (_, "kept_member"): AdminPhrase.resolvedKeptTheRecordsNumber.text(language)
        default: AdminPhrase.done.text(language)
        }
    }

    static func outboxEvent(_ event: String, _ language: Language) -> String {
        event == "member.personnummer.set"
            ? AdminPhrase.nationalIdentityNumberToTheMember.text(language)
            : event
    }

    static func outboxStatus(_ message: OutboxMessage, _ language: Language) -> String {
        switch message.status {
        case .delivered: AdminPhrase.delivered.text(language)
        case .dead: AdminPhrase.gaveUpAfterAttemptsAttempts.text(language, ["attempts": String(message.attempts)])
        case .pending:
            message.claimId != nil ? AdminPhrase.beingSent.text(language)
                : message.attempts > 0 ? AdminPhrase.retrying.text(language) : AdminPhrase.waiting.text(language)
        }
    }

    /// The worker's last error (English, for operators) in words for the administrator.
    static func deliveryError(_ error: String, _ language: Language) -> String {
        if let code = error.split(separator: " ").last.flatMap({ Int($0) }), error.hasPrefix("the member system answered") {
            return code >= 500
                ? AdminPhrase.theMemberSystemWasUnavailableAnswered.text(language, ["code": String(code)])
                : AdminPhrase.theMemberSystemRefusedTheUpdate.text(language, ["code": String(code)])
        }
        if error.hasPrefix("no member system") {
            return AdminPhrase.theOrganisationHasNoMemberSystem.text(language)
        }
        return AdminPhrase.couldNotReachTheMemberSystem.text(language)
    }

    /// Actions an audit filter may name even before the trail holds one.
    static let knownActions: Set<String> = [
        "login.succeeded", "login.failed", "device.registered", "device.revoked", "device.unlock", "user.merged", "user.password_invited",
        "user.password_set", "member.personnummer.viewed", "member.personnummer.conflict_resolved", "member.outbox.retried", "audit.exported",
        "user.membership.suspended", "user.membership.suspension_lifted",
    ]

    static func event(_ action: String, outcome: String?, _ language: Language) -> String {
        switch action {
        case "login.succeeded": AdminPhrase.signedIn.text(language)
        case "login.failed": AdminPhrase.failedSignIn.text(language)
        case "user.merged": AdminPhrase.mergedTwoAccounts.text(language)
        case "user.password_invited": AdminPhrase.invitedToPasswordSignIn.text(language)
        case "user.password_set": AdminPhrase.choseAPasswordFromAnInvitation.text(language)
        case "member.personnummer.viewed": AdminPhrase.viewedNationalIdentityNumbersInFull.text(language)
        case "member.personnummer.conflict_resolved":
            outcome == "took_login" ? AdminPhrase.resolvedAConflictTookTheSign.text(language)
                : outcome == "kept_member" ? AdminPhrase.resolvedAConflictKeptTheRecords.text(language)
                : AdminPhrase.resolvedAConflict.text(language)
        case "member.link.refused": AdminPhrase.aSignInWithAnotherNational.text(language)
        case "login.link.refused": AdminPhrase.signInNotLinkedMatchedBy.text(language)
        case "member.personnummer.updated": AdminPhrase.nationalIdentityNumberAddedFromA.text(language)
        case "member.personnummer.confirmed": AdminPhrase.nationalIdentityNumberConfirmedAtSign.text(language)
        case "member.personnummer.conflict": AdminPhrase.nationalIdentityNumberConflictAtSign.text(language)
        case "member.personnummer.absent": AdminPhrase.theSignInGaveNoNational.text(language)
        case "member.personnummer.invalid": AdminPhrase.theSignInGaveAnInvalid.text(language)
        case "user.membership.suspended": AdminPhrase.suspendedAMembership.text(language)
        case "user.membership.suspension_lifted": AdminPhrase.liftedASuspension.text(language)
        case "member.outbox.retried": AdminPhrase.sentAnUpdateToTheMember.text(language)
        case "audit.exported": AdminPhrase.exportedTheAuditTrail.text(language)
        case "session.ended": AdminPhrase.endedASignIn.text(language)
        case "expense.submitted": AdminPhrase.submittedAnExpenseClaim.text(language)
        case "contact.details_read": AdminPhrase.viewedContactDetails.text(language)
        // The phone's events read as on My account.
        default: PortalWords.event(action, outcome: outcome ?? "", source: nil, language)
        }
    }

    /// A domain refusal in the administrator's words.
    static func refusal(_ refusal: DomainError, _ language: Language) -> String {
        switch refusal.reason {
        case .mergeSameAccount:
            AdminPhrase.anAccountCannotBeMergedWith.text(language)
        case .mergeOwnAccount:
            AdminPhrase.youCannotMergeYourOwnAccount.text(language)
        case .mergeNotMembers:
            AdminPhrase.bothAccountsMustBeMembersOf.text(language)
        case .mergeOtherOrganisation:
            AdminPhrase.oneOfTheAccountsIsAlso.text(language)
        case .mergeDuplicateData: AdminText.mergeDuplicateData.text(language)
        case .mergeAccountGone: AdminText.mergeGone.text(language)
        case .mergeAccountDisabled: AdminPhrase.oneOfTheAccountsIsDisabled.text(language)
        case .conflictNotOpen: AdminText.conflictNotOpen.text(language)
        case .numberHeldElsewhere: AdminText.numberHeldElsewhere.text(language)
        case .heldByAnotherPerson: AdminText.heldByAnotherPerson.text(language)
        case .alreadyDelivered: AdminText.alreadyDelivered.text(language)
        case .beingDelivered: AdminText.beingDelivered.text(language)
        case .inviteNeedsEmail: AdminText.inviteNeedsEmail.text(language)
        case .inviteEmailOtherAccount: AdminText.inviteEmailOtherAccount.text(language)
        case .inviteAccountWithoutEmail: AdminText.inviteAccountWithoutEmail.text(language)
        case .inviteAccountElsewhere: AdminText.inviteAccountElsewhere.text(language)
        case .inviteEmailOtherOrganisations: AdminText.inviteEmailOtherOrganisations.text(language)
        case .signInMethodsElsewhere: AdminText.devicesElsewhere.text(language)
        case .suspendOwnMembership: AdminText.suspendOwn.text(language)
        case .notSuspended: AdminText.notSuspended.text(language)
        case .inviteSuspended: AdminPhrase.theMembershipIsSuspendedLiftThe.text(language)
        case .stepUpRequired: AdminText.stepUpFirst.text(language)
        case .notFound: AdminText.entryNotFound.text(language)
        case .notAllowed: AdminText.administratorsOnly.text(language)
        default: AdminText.problemTitle.text(language)
        }
    }
}
