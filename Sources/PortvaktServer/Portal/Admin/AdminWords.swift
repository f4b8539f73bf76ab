import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// What the administration pages show in words: sign-in methods, sync outcomes, delivery states
/// and errors, audit events and merge refusals. Ids stay in the JSON API and the exports.
enum AdminWords {
    static func yesNo(_ value: Bool, _ language: Language) -> String {
        value ? language.pick("Ja", "Yes") : language.pick("Nei", "No")
    }

    /// `bankid`, `vipps`, `password` → "BankID, Vipps, e-post og passord"; none yet when nil or empty.
    static func logins(_ providers: [String]?, _ language: Language) -> String {
        guard let providers, !providers.isEmpty else { return language.pick("Ikke logget inn ennå", "Not signed in yet") }
        return providers.map { provider in
            switch provider {
            case "bankid": "BankID"
            case "vipps": "Vipps"
            case "passkey": language.pick("passnøkkel", "passkey")
            default: language.pick("e-post og passord", "email and password")
            }
        }.joined(separator: ", ")
    }

    static func outcomeName(_ outcome: MemberSyncOutcome, _ language: Language) -> String {
        switch outcome {
        case .updated: language.pick("Lagt inn", "Added")
        case .confirmed: language.pick("Bekreftet", "Confirmed")
        case .conflict: language.pick("Konflikt", "Conflict")
        case .absent: language.pick("Mangler", "Missing")
        case .invalid: language.pick("Ugyldig", "Invalid")
        }
    }

    static func syncOutcome(_ outcome: MemberSyncOutcome, source: String, _ language: Language) -> String {
        if source.hasSuffix("-phone-match") {
            let via = source.hasPrefix("bankid") ? "BankID" : "Vipps"
            return language.pick(
                "En innlogging med \(via) traff dette medlemmet bare på telefonnummeret, med et annet fødselsnummer enn registeret eller kontoen har. Den ble ikke koblet til medlemmet.",
                "A \(via) sign-in matched this member by phone number only, with another national identity number than the record or account holds. It was not linked to the member."
            )
        }
        if source == MemberSyncEntry.directoryDetachedSource {
            return language.pick(
                "Medlemssystemet ga medlemmet et fødselsnummer som ikke er kontoens som hadde medlemskapet. Kontoen mistet medlemskapet her; neste innlogging med det nummeret får det.",
                "The member system gave the member a national identity number that is not that of the account holding the membership. The account lost the membership here; the next sign-in with that number gets it."
            )
        }
        if source.hasSuffix("-login-detached") {
            let via = source.hasPrefix("bankid") ? "BankID" : "Vipps"
            return language.pick(
                "En innlogging med \(via) med medlemmets fødselsnummer fant medlemskapet hos en konto uten det nummeret. Kontoen mistet medlemskapet, og innloggingen fikk det.",
                "A \(via) sign-in with the member's national identity number found the membership held by an account without that number. The account lost the membership, and the sign-in took it."
            )
        }
        let via = source == "bankid-login" ? "BankID" : source == "vipps-login" ? "Vipps" : language.pick("administrator", "an administrator")
        return switch outcome {
        case .updated: language.pick("Fødselsnummeret fra innloggingen med \(via) er lagt inn i medlemsregisteret.",
                                     "The national identity number from the \(via) sign-in was added to the member record.")
        case .confirmed: language.pick("Innloggingen med \(via) bekreftet fødselsnummeret i medlemsregisteret.",
                                       "The \(via) sign-in confirmed the national identity number in the member record.")
        case .conflict: language.pick("Innloggingen med \(via) ga et annet fødselsnummer enn medlemsregisteret har. Ingenting er overskrevet.",
                                      "The \(via) sign-in gave another national identity number than the member record holds. Nothing was overwritten.")
        case .absent: language.pick("\(via) ga ikke fødselsnummeret (ikke samtykket). Medlemmet får beskjed.",
                                    "\(via) did not give the national identity number (no consent). The member is told.")
        case .invalid: language.pick("\(via) ga et fødselsnummer som ikke er gyldig. Det er avvist.",
                                     "\(via) gave a national identity number that is not valid. It was refused.")
        }
    }

    static func syncStatus(_ entry: MemberSyncEntry, _ language: Language) -> String {
        switch (entry.status, entry.resolution) {
        case ("open", _): language.pick("Åpen: venter på en administrator", "Open: waits for an administrator")
        case (_, "took_login"): language.pick("Løst: tok nummeret fra innloggingen", "Resolved: took the number from the sign-in")
        case (_, "kept_member"): language.pick("Løst: beholdt nummeret i registeret", "Resolved: kept the record's number")
        default: language.pick("Ferdig", "Done")
        }
    }

    static func outboxEvent(_ event: String, _ language: Language) -> String {
        event == "member.personnummer.set"
            ? language.pick("Fødselsnummer til medlemssystemet", "National identity number to the member system")
            : event
    }

    static func outboxStatus(_ message: OutboxMessage, _ language: Language) -> String {
        switch message.status {
        case .delivered: language.pick("Levert", "Delivered")
        case .dead: language.pick("Ga opp etter \(message.attempts) forsøk", "Gave up after \(message.attempts) attempts")
        case .pending:
            message.claimId != nil ? language.pick("Sendes nå", "Being sent")
                : message.attempts > 0 ? language.pick("Prøver igjen", "Retrying") : language.pick("Venter", "Waiting")
        }
    }

    /// The worker's last error (English, for operators) in words for the administrator.
    static func deliveryError(_ error: String, _ language: Language) -> String {
        if let code = error.split(separator: " ").last.flatMap({ Int($0) }), error.hasPrefix("the member system answered") {
            return code >= 500
                ? language.pick("Medlemssystemet var utilgjengelig (svarte \(code)).", "The member system was unavailable (answered \(code)).")
                : language.pick("Medlemssystemet avviste oppdateringen (svarte \(code)).", "The member system refused the update (answered \(code)).")
        }
        if error.hasPrefix("no member system") {
            return language.pick("Organisasjonen har ikke satt opp et medlemssystem.", "The organisation has no member system set up.")
        }
        return language.pick("Fikk ikke kontakt med medlemssystemet.", "Could not reach the member system.")
    }

    /// Actions an audit filter may name even before the trail holds one.
    static let knownActions: Set<String> = [
        "login.succeeded", "login.failed", "device.registered", "device.revoked", "device.unlock", "user.merged", "user.password_invited",
        "user.password_set", "member.personnummer.viewed", "member.personnummer.conflict_resolved", "member.outbox.retried", "audit.exported",
        "user.membership.suspended", "user.membership.suspension_lifted",
    ]

    static func event(_ action: String, outcome: String?, _ language: Language) -> String {
        switch action {
        case "login.succeeded": language.pick("Logget inn", "Signed in")
        case "login.failed": language.pick("Mislykket innlogging", "Failed sign-in")
        case "user.merged": language.pick("Slo sammen to kontoer", "Merged two accounts")
        case "user.password_invited": language.pick("Inviterte til innlogging med passord", "Invited to password sign-in")
        case "user.password_set": language.pick("Valgte passord fra en invitasjon", "Chose a password from an invitation")
        case "member.personnummer.viewed": language.pick("Så fødselsnumre i sin helhet", "Viewed national identity numbers in full")
        case "member.personnummer.conflict_resolved":
            outcome == "took_login" ? language.pick("Løste en konflikt: tok nummeret fra innloggingen", "Resolved a conflict: took the sign-in's number")
                : outcome == "kept_member" ? language.pick("Løste en konflikt: beholdt registerets nummer", "Resolved a conflict: kept the record's number")
                : language.pick("Løste en konflikt", "Resolved a conflict")
        case "member.link.refused": language.pick("En innlogging med et annet fødselsnummer traff dette medlemmet bare på telefonnummer, og ble ikke koblet",
                                                  "A sign-in with another national identity number matched this member by phone only and was not linked")
        case "login.link.refused": language.pick("Innlogging ikke koblet: treff bare på telefonnummer", "Sign-in not linked: matched by phone only")
        case "member.personnummer.updated": language.pick("Fødselsnummer lagt inn fra innlogging", "National identity number added from a sign-in")
        case "member.personnummer.confirmed": language.pick("Fødselsnummer bekreftet ved innlogging", "National identity number confirmed at sign-in")
        case "member.personnummer.conflict": language.pick("Konflikt om fødselsnummer ved innlogging", "National identity number conflict at sign-in")
        case "member.personnummer.absent": language.pick("Innloggingen ga ikke fødselsnummer", "The sign-in gave no national identity number")
        case "member.personnummer.invalid": language.pick("Innloggingen ga et ugyldig fødselsnummer", "The sign-in gave an invalid national identity number")
        case "user.membership.suspended": language.pick("Suspenderte et medlemskap", "Suspended a membership")
        case "user.membership.suspension_lifted": language.pick("Opphevet en suspensjon", "Lifted a suspension")
        case "member.outbox.retried": language.pick("Sendte en oppdatering til medlemssystemet på nytt", "Sent an update to the member system again")
        case "audit.exported": language.pick("Eksporterte revisjonsloggen", "Exported the audit trail")
        case "session.ended": language.pick("Avsluttet en innlogging", "Ended a sign-in")
        case "expense.submitted": language.pick("Sendte inn et utlegg", "Submitted an expense claim")
        case "contact.details_read": language.pick("Så kontaktopplysninger", "Viewed contact details")
        // The phone's events read as on My account.
        default: PortalWords.event(action, outcome: outcome ?? "", source: nil, language)
        }
    }

    /// A domain refusal in the administrator's words.
    static func refusal(_ refusal: DomainError, _ language: Language) -> String {
        switch refusal.reason {
        case .mergeSameAccount:
            language.pick("En konto kan ikke slås sammen med seg selv.", "An account cannot be merged with itself.")
        case .mergeOwnAccount:
            language.pick("Du kan ikke slå sammen din egen konto. Be en annen administrator.", "You cannot merge your own account. Ask another administrator.")
        case .mergeNotMembers:
            language.pick("Begge kontoene må være medlemmer i denne organisasjonen.", "Both accounts must be members of this organisation.")
        case .mergeOtherOrganisation:
            language.pick("En av kontoene er også medlem i en annen organisasjon. Den organisasjonens administratorer må være med, eller driften slår dem sammen.",
                          "One of the accounts is also a member of another organisation. Its administrators must be involved, or operations merge them.")
        case .mergeDuplicateData: AdminText.mergeDuplicateData.text(language)
        case .mergeAccountGone: AdminText.mergeGone.text(language)
        case .mergeAccountDisabled: language.pick(
            "En av kontoene er deaktivert. Driften må aktivere den før den kan slås sammen.",
            "One of the accounts is disabled. Operations must enable it before it can be merged.")
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
        case .inviteSuspended: language.pick(
            "Medlemskapet er suspendert. Opphev suspensjonen før du inviterer medlemmet.",
            "The membership is suspended. Lift the suspension before inviting the member.")
        case .stepUpRequired: AdminText.stepUpFirst.text(language)
        case .notFound: AdminText.entryNotFound.text(language)
        case .notAllowed: AdminText.administratorsOnly.text(language)
        default: AdminText.problemTitle.text(language)
        }
    }
}
