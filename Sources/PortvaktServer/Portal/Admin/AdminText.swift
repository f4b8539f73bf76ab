import PortvaktCore
import PortvaktHTTP
import PortvaktModels

/// The administration pages' texts, in Bokmål and English (as ``PortalText``: both or none).
/// Templates name them as `t.<id>`.
enum AdminText: String, PageTexts {
    case accountsCaption = "admin_accounts_caption"
    case action = "admin_action"
    case activities = "admin_activities"
    case all = "admin_all"
    case attempts = "admin_attempts"
    case audit = "admin_audit"
    case auditCaption = "admin_audit_caption"
    case back = "admin_back"
    case choosePassword = "admin_choose_password"
    case choosePasswordIntro = "admin_choose_password_intro"
    case claims = "admin_claims"
    case contacts = "admin_contacts"
    case created = "admin_created"
    case deliveries = "admin_deliveries"
    case deliveriesCaption = "admin_deliveries_caption"
    case deliveriesIntro = "admin_deliveries_intro"
    case devicesCount = "admin_devices_count"
    case download = "admin_download"
    case email = "admin_email"
    case errorPrefix = "admin_error_prefix"
    case errorSummary = "admin_error_summary"
    case export = "admin_export"
    case filter = "admin_filter"
    case format = "admin_format"
    case from = "admin_from"
    case invite = "admin_invite"
    case inviteExplained = "admin_invite_explained"
    case inviteMadeExplained = "admin_invite_made_explained"
    case inviteNoEmail = "admin_invite_no_email"
    case jsonLines = "admin_json_lines"
    case keep = "admin_keep"
    case keepLogin = "admin_keep_login"
    case keepMember = "admin_keep_member"
    case keptAccount = "admin_kept_account"
    case kind = "admin_kind"
    case lastError = "admin_last_error"
    case loginNumber = "admin_login_number"
    case logins = "admin_logins"
    case member = "admin_member"
    case memberNoDevices = "admin_member_no_devices"
    case members = "admin_members"
    case membersCaption = "admin_members_caption"
    case membershipEnded = "admin_membership_ended"
    case membershipEndedExplained = "admin_membership_ended_explained"
    case menu = "admin_menu"
    case merge = "admin_merge"
    case mergeAfter = "admin_merge_after"
    case mergeChange = "admin_merge_change"
    case mergeConfirm = "admin_merge_confirm"
    case mergeIntro = "admin_merge_intro"
    case mergePreview = "admin_merge_preview"
    case mergeRefused = "admin_merge_refused"
    case name = "admin_name"
    case needsAction = "admin_needs_action"
    case newPassword = "admin_new_password"
    case next = "admin_next"
    case nextTry = "admin_next_try"
    case noAccounts = "admin_no_accounts"
    case noDeliveries = "admin_no_deliveries"
    case noEntries = "admin_no_entries"
    case noEvents = "admin_no_events"
    case noMembers = "admin_no_members"
    case noOrganisations = "admin_no_organisations"
    case numbers = "admin_numbers"
    case onFile = "admin_on_file"
    case outcome = "admin_outcome"
    case overview = "admin_overview"
    case pages = "admin_pages"
    case passwordLogin = "admin_password_login"
    case preview = "admin_preview"
    case previous = "admin_previous"
    case recordNumber = "admin_record_number"
    case remove = "admin_remove"
    case removeAllDevices = "admin_remove_all_devices"
    case removeAllExplained = "admin_remove_all_explained"
    case devicesElsewhere = "admin_devices_elsewhere"
    case removedAccount = "admin_removed_account"
    case repeatPassword = "admin_repeat_password"
    case resolve = "admin_resolve"
    case resolveQuestion = "admin_resolve_question"
    case retryNow = "admin_retry_now"
    case reveal = "admin_reveal"
    case role = "admin_role"
    case roles = "admin_roles"
    case savePassword = "admin_save_password"
    case search = "admin_search"
    case searchName = "admin_search_name"
    case sequence = "admin_sequence"
    case showAll = "admin_show_all"
    case status = "admin_status"
    case stepUpBankid = "admin_step_up_bankid"
    case stepUpNeeded = "admin_step_up_needed"
    case stepUpNothingChanged = "admin_step_up_nothing_changed"
    case stepUpTitle = "admin_step_up_title"
    case stepUpVipps = "admin_step_up_vipps"
    case stepUpPasskey = "admin_step_up_passkey"
    case suspend = "admin_suspend"
    case suspendExplained = "admin_suspend_explained"
    case suspendedExplained = "admin_suspended_explained"
    case suspendedLabel = "admin_suspended_label"
    case liftSuspension = "admin_lift_suspension"
    case liftSuspensionExplained = "admin_lift_suspension_explained"
    case sync = "admin_sync"
    case syncCaption = "admin_sync_caption"
    case syncEntries = "admin_sync_entries"
    case syncEntry = "admin_sync_entry"
    case syncIntro = "admin_sync_intro"
    case to = "admin_to"
    case whatMoves = "admin_what_moves"
    case who = "admin_who"
    case accountNotFound = "account_not_found"
    case administratorsOnly = "administrators_only"
    case alreadyDelivered = "already_delivered"
    case backToAdministration = "back_to_administration"
    case badExport = "bad_export"
    case badFilter = "bad_filter"
    case beingDelivered = "being_delivered"
    case bySystem = "by_system"
    case chooseNumber = "choose_number"
    case conflictNotOpen = "conflict_not_open"
    case conflictResolved = "conflict_resolved"
    case deadDeliveries = "dead_deliveries"
    case deliveryDead = "delivery_dead"
    case deliveryDelivered = "delivery_delivered"
    case deliveryNotFound = "delivery_not_found"
    case deliveryWaiting = "delivery_waiting"
    case devicesRemoved = "devices_removed"
    case entryNotFound = "entry_not_found"
    case filteredWithDevices = "filtered_with_devices"
    case filteredWithoutPersonnummer = "filtered_without_personnummer"
    case inviteGone = "invite_gone"
    case inviteGoneTitle = "invite_gone_title"
    case inviteMade = "invite_made"
    case inviteNeedsEmail = "invite_needs_email"
    case inviteEmailOtherAccount = "invite_email_other_account"
    case inviteEmailOtherOrganisations = "invite_email_other_organisations"
    case inviteNoLongerFits = "invite_no_longer_fits"
    case inviteAccountWithoutEmail = "invite_account_without_email"
    case inviteAccountElsewhere = "invite_account_elsewhere"
    case memberNotFound = "member_not_found"
    case mergeChanged = "merge_changed"
    case mergeDuplicateData = "merge_duplicate_data"
    case mergeGone = "merge_gone"
    case mergeSame = "merge_same"
    case merged = "merged"
    case moveActivities = "move_activities"
    case moveClaims = "move_claims"
    case moveContacts = "move_contacts"
    case moveDevices = "move_devices"
    case moveLogins = "move_logins"
    case moveRoles = "move_roles"
    case moveSyncEntries = "move_sync_entries"
    case noSuchPage = "no_such_page"
    case noneOnFile = "none_on_file"
    case notAllowedTitle = "not_allowed_title"
    case notFoundTitle = "admin_not_found_title"
    case numberHeldElsewhere = "number_held_elsewhere"
    case heldByAnotherPerson = "held_by_another_person"
    case numbersShown = "numbers_shown"
    case openConflicts = "open_conflicts"
    case passwordLength = "password_length"
    case passwordTooLong = "password_too_long"
    case passwordMismatch = "password_mismatch"
    case passwordSet = "password_set"
    case passwordSetTitle = "password_set_title"
    case pickBoth = "pick_both"
    case problemTitle = "problem_title"
    case retryQueued = "retry_queued"
    case statusOpen = "status_open"
    case statusResolved = "status_resolved"
    case stepUpFirst = "step_up_first"
    case suspended = "membership_suspended"
    case suspendOwn = "suspend_own_membership"
    case suspensionLifted = "membership_suspension_lifted"
    case notSuspended = "membership_not_suspended"
    case withDevices = "with_devices"
    case withoutPersonnummer = "without_personnummer"

    func text(_ language: Language) -> String {
        switch self {
        case .accountsCaption: language.pick("Kontoer i organisasjonen", "Accounts in the organisation")
        case .action: language.pick("Handling", "Action")
        case .activities: language.pick("Aktiviteter", "Activities")
        case .all: language.pick("Alle", "All")
        case .attempts: language.pick("Forsøk", "Attempts")
        case .audit: language.pick("Revisjonslogg", "Audit trail")
        case .auditCaption: language.pick("Hendelser, nyeste først", "Events, newest first")
        case .back: language.pick("Tilbake", "Back")
        case .choosePassword: language.pick("Velg passord", "Choose a password")
        case .choosePasswordIntro: language.pick("Du er invitert til å logge inn med e-post og passord. Passordet må ha minst 10 tegn og høyst 72 (færre med æ, ø, å). Lenken virker én gang.", "You are invited to sign in with email and password. The password must have at least 10 characters and at most 72 (fewer with letters outside a–z). The link works once.")
        case .claims: language.pick("Utlegg", "Expense claims")
        case .contacts: language.pick("Kontakter", "Contacts")
        case .created: language.pick("Opprettet", "Created")
        case .deliveries: language.pick("Til medlemssystemet", "To the member system")
        case .deliveriesCaption: language.pick("Oppdateringer til medlemssystemet, nyeste først", "Updates for the member system, newest first")
        case .deliveriesIntro: language.pick("Portvakt sender nye fødselsnumre til organisasjonens medlemssystem, og prøver igjen når det ikke svarer. Etter siste forsøk stopper den og venter på deg.", "Portvakt sends new national identity numbers to the organisation's member system, and tries again when it does not answer. After the last attempt it stops and waits for you.")
        case .devicesCount: language.pick("Telefoner med biometrisk innlogging", "Phones with biometric sign-in")
        case .download: language.pick("Last ned", "Download")
        case .email: language.pick("E-post", "Email")
        case .errorPrefix: language.pick("Feil:", "Error:")
        case .errorSummary: language.pick("Det er noe å rette", "There is something to fix")
        case .export: language.pick("Eksporter et tidsrom", "Export a date range")
        case .filter: language.pick("Vis", "Show")
        case .format: language.pick("Format", "Format")
        case .from: language.pick("Fra dato", "From date")
        case .invite: language.pick("Inviter til innlogging med passord", "Invite to password sign-in")
        case .inviteExplained: language.pick("Medlemmet får en lenke som virker én gang i 24 timer, og velger passordet selv. Ingen administrator ser eller skriver passordet.", "The member gets a link that works once for 24 hours, and chooses the password themselves. No administrator sees or types the password.")
        case .inviteMadeExplained: language.pick("Lenken er sendt til medlemmets e-postadresse i registeret, og vises ikke her. Den virker én gang, i 24 timer, og bare for dette medlemmet; en ny invitasjon gjør den ugyldig.", "The link was sent to the member's email address on record, and is not shown here. It works once, for 24 hours, and for this member only; a new invitation makes it invalid.")
        case .inviteNoEmail: language.pick("Medlemmet har ingen e-postadresse i registeret, så det kan ikke inviteres til passordinnlogging.", "The member has no email address on record, so they cannot be invited to password sign-in.")
        case .jsonLines: language.pick("JSON-linjer", "JSON lines")
        case .keep: language.pick("Behold", "Keep")
        case .keepLogin: language.pick("Ta nummeret fra innloggingen inn i registeret (og send det til medlemssystemet)", "Take the sign-in's number into the record (and send it to the member system)")
        case .keepMember: language.pick("Behold nummeret i registeret", "Keep the record's number")
        case .keptAccount: language.pick("Kontoen som beholdes", "The account that is kept")
        case .kind: language.pick("Type hendelse", "Kind of event")
        case .lastError: language.pick("Siste feil", "Last error")
        case .loginNumber: language.pick("Nummeret fra innloggingen", "The sign-in's number")
        case .logins: language.pick("Innlogginger", "Sign-in methods")
        case .member: language.pick("Medlem", "Member")
        case .memberNoDevices: language.pick("Medlemmet har ingen telefoner med biometrisk innlogging.", "The member has no phones with biometric sign-in.")
        case .members: language.pick("Medlemmer", "Members")
        case .membersCaption: language.pick("Medlemmer, etter navn", "Members, by name")
        case .membershipEnded: language.pick("Medlemskapet er avsluttet", "Membership ended")
        case .membershipEndedExplained: language.pick(
            "Medlemssystemet sier at medlemskapet er avsluttet. Medlemmet har ingen rolle her lenger, kan ikke logge inn gjennom dette medlemskapet og kan ikke inviteres til innlogging med passord. Oppføringen slettes 90 dager etter at medlemskapet ble avsluttet, med mindre medlemssystemet tar medlemmet tilbake.",
            "The member system says this membership has ended. The member has no role here any more, cannot sign in through this membership and cannot be invited to password sign-in. The record is deleted 90 days after the membership ended, unless the member system takes the member back.")
        case .menu: language.pick("Administrasjon", "Administration")
        case .merge: language.pick("Slå sammen kontoer", "Merge accounts")
        case .mergeAfter: language.pick("Etterpå finnes bare kontoen som beholdes. Den andre kontoens innlogginger avsluttes.", "Afterwards only the kept account exists. The other account's sign-ins end.")
        case .mergeChange: language.pick("Velg andre kontoer", "Choose other accounts")
        case .mergeConfirm: language.pick("Slå sammen nå", "Merge now")
        case .mergeIntro: language.pick("Har én person fått to kontoer? Søk, velg kontoen som skal beholdes og kontoen som skal slås inn i den, og se nøyaktig hva som flyttes før du bekrefter.", "Did one person get two accounts? Search, choose the account to keep and the account to merge into it, and see exactly what moves before you confirm.")
        case .mergePreview: language.pick("Dette flyttes", "What moves")
        case .mergeRefused: language.pick("Disse kontoene kan ikke slås sammen her", "These accounts cannot be merged here")
        case .name: language.pick("Navn", "Name")
        case .needsAction: language.pick("Trenger handling", "Needs action")
        case .newPassword: language.pick("Nytt passord", "New password")
        case .next: language.pick("Neste side", "Next page")
        case .nextTry: language.pick("Neste forsøk", "Next attempt")
        case .noAccounts: language.pick("Ingen kontoer passer søket.", "No accounts match the search.")
        case .noDeliveries: language.pick("Ingen oppdateringer her.", "No updates here.")
        case .noEntries: language.pick("Ingen oppføringer passer.", "No entries match.")
        case .noEvents: language.pick("Ingen hendelser passer.", "No events match.")
        case .noMembers: language.pick("Ingen medlemmer passer.", "No members match.")
        case .noOrganisations: language.pick("Du administrerer ingen organisasjon.", "You administer no organisation.")
        case .numbers: language.pick("Fødselsnumrene", "The national identity numbers")
        case .onFile: language.pick("Fødselsnummer i registeret", "National identity number on record")
        case .outcome: language.pick("Utfall", "Outcome")
        case .overview: language.pick("Oversikt", "Overview")
        case .pages: language.pick("Sider", "Pages")
        case .passwordLogin: language.pick("Innlogging med passord", "Password sign-in")
        case .preview: language.pick("Se hva som flyttes", "See what moves")
        case .previous: language.pick("Forrige side", "Previous page")
        case .recordNumber: language.pick("Nummeret i registeret", "The record's number")
        case .remove: language.pick("Slå inn i den andre", "Merge into the other")
        case .removeAllDevices: language.pick("Fjern alle telefoner", "Remove all devices")
        case .removeAllExplained: language.pick(
            "Mistet telefon? Da kan ingen av medlemmets telefoner låse opp lenger, i alle organisasjoner medlemmet er med i, ikke bare denne, og innloggingene de åpnet avsluttes.",
            "Lost phone? Then none of the member's phones can unlock any more, in every organisation the member belongs to, not only this one, and the sign-ins they opened end.")
        case .devicesElsewhere: language.pick(
            "Medlemmet er også med i andre organisasjoner, og telefonene låser opp der også. Medlemmet fjerner dem selv under Min konto, eller driften logger medlemmet ut overalt. Ingenting er endret.",
            "The member also belongs to other organisations, where the phones unlock too. The member removes them in My account, or operations signs the member out everywhere. Nothing was changed.")
        case .removedAccount: language.pick("Kontoen som slås inn", "The account merged into it")
        case .repeatPassword: language.pick("Gjenta passordet", "Repeat the password")
        case .resolve: language.pick("Lagre valget", "Save the choice")
        case .resolveQuestion: language.pick("Hvilket nummer er riktig?", "Which number is right?")
        case .retryNow: language.pick("Prøv nå", "Retry now")
        case .reveal: language.pick("Vis numrene i sin helhet", "Show the numbers in full")
        case .role: language.pick("Rolle", "Role")
        case .roles: language.pick("Roller", "Roles")
        case .savePassword: language.pick("Lagre passordet", "Save the password")
        case .search: language.pick("Søk", "Search")
        case .searchName: language.pick("Søk på navn", "Search by name")
        case .sequence: language.pick("Nr.", "No.")
        case .showAll: language.pick("Vis alle", "Show all")
        case .status: language.pick("Status", "Status")
        case .stepUpBankid: language.pick("Bekreft med BankID", "Confirm with BankID")
        case .stepUpNeeded: language.pick("For å se fødselsnumre i sin helhet, løse konflikter, slå sammen kontoer, fjerne et medlems telefoner eller suspendere et medlemskap må du bekrefte hvem du er med BankID, Vipps eller en passnøkkel. Bekreftelsen gjelder i 5 minutter.", "To see national identity numbers in full, resolve conflicts, merge accounts, remove a member's phones or suspend a membership, confirm who you are with BankID, Vipps or a passkey. The confirmation lasts 5 minutes.")
        case .stepUpPasskey: language.pick("Bekreft med passnøkkel", "Confirm with a passkey")
        case .stepUpNothingChanged: language.pick("Dette krever en ny bekreftelse med BankID, Vipps eller en passnøkkel. Ingenting er endret.", "This needs a new confirmation with BankID, Vipps or a passkey. Nothing was changed.")
        case .stepUpTitle: language.pick("Bekreft hvem du er", "Confirm who you are")
        case .suspend: language.pick("Suspender medlemskapet", "Suspend membership")
        case .suspendExplained: language.pick(
            "Medlemmet mister rollen sin her med en gang, og innloggingene gir ikke lenger tilgang til denne organisasjonen. Medlemskap i andre organisasjoner berøres ikke. Har medlemmet ikke andre medlemskap, avsluttes alle innlogginger, og telefoner og passnøkler slutter å virke. Avslutt medlemskapet i medlemssystemet også.",
            "The member loses their role here at once, and their sign-ins no longer open this organisation. Memberships in other organisations are not affected. A member with no other membership has every sign-in ended, and their phones and passkeys stop working. End the membership in the member system too.")
        case .suspendedExplained: language.pick(
            "Medlemskapet er suspendert av en administrator her. Ingen innlogging, invitasjon eller endring fra medlemssystemet gir det tilbake før suspensjonen oppheves.",
            "The membership is suspended by an administrator here. No sign-in, invitation or change from the member system gives it back until the suspension is lifted.")
        case .suspendedLabel: language.pick("Suspendert", "Suspended")
        case .liftSuspension: language.pick("Opphev suspensjonen", "Lift the suspension")
        case .liftSuspensionExplained: language.pick(
            "Kontoen som hadde medlemskapet, får rollen sin her tilbake med en gang.",
            "The account that held the membership gets its role here back at once.")
        case .stepUpVipps: language.pick("Bekreft med Vipps", "Confirm with Vipps")
        case .sync: language.pick("Medlemssynk", "Member sync")
        case .syncCaption: language.pick("Innlogginger som gjaldt fødselsnummer, nyeste først", "Sign-ins that concerned national identity numbers, newest first")
        case .syncEntries: language.pick("Synkoppføringer", "Sync entries")
        case .syncEntry: language.pick("Oppføring i medlemssynken", "Member sync entry")
        case .syncIntro: language.pick("Når et medlem logger inn med BankID eller Vipps, sammenligner Portvakt fødselsnummeret med registeret. Ingenting overskrives: ved konflikt bestemmer du.", "When a member signs in with BankID or Vipps, Portvakt compares the national identity number with the record. Nothing is overwritten: in a conflict, you decide.")
        case .to: language.pick("Til dato", "To date")
        case .whatMoves: language.pick("Dette flyttes fra kontoen som slås inn", "What moves from the account merged into it")
        case .who: language.pick("Hvem", "Who")
        case .accountNotFound: language.pick("Fant ingen slik konto i organisasjonen.", "No such account in the organisation.")
        case .administratorsOnly: language.pick("Bare organisasjonens administratorer kan åpne denne siden.", "Only the organisation's administrators can open this page.")
        case .alreadyDelivered: language.pick("Oppdateringen er allerede levert. Ingenting er endret.", "The update is already delivered. Nothing was changed.")
        case .backToAdministration: language.pick("Tilbake", "Back")
        case .badExport: language.pick("Velg en fra-dato, en til-dato som ikke er før den, og et format.", "Choose a from date, a to date not before it, and a format.")
        case .badFilter: language.pick("Filteret er ikke gyldig. Ingenting er vist.", "The filter is not valid. Nothing is shown.")
        case .beingDelivered: language.pick("Oppdateringen sendes akkurat nå. Prøv igjen om litt.", "The update is being sent right now. Try again in a moment.")
        case .bySystem: language.pick("Portvakt", "Portvakt")
        case .chooseNumber: language.pick("Velg hvilket nummer som er riktig.", "Choose which number is right.")
        case .conflictNotOpen: language.pick("Konflikten er allerede løst. Ingenting er endret.", "The conflict is already resolved. Nothing was changed.")
        case .conflictResolved: language.pick("Konflikten er løst.", "The conflict is resolved.")
        case .deadDeliveries: language.pick("oppdateringer til medlemssystemet som ga opp", "updates to the member system that gave up")
        case .deliveryDead: language.pick("Ga opp", "Gave up")
        case .deliveryDelivered: language.pick("Levert", "Delivered")
        case .deliveryNotFound: language.pick("Fant ingen slik oppdatering i organisasjonen.", "No such update in the organisation.")
        case .deliveryWaiting: language.pick("Venter eller prøver igjen", "Waiting or retrying")
        case .devicesRemoved: language.pick("Alle telefonene er fjernet. Innloggingene de åpnet er avsluttet.", "All phones are removed. The sign-ins they opened have ended.")
        case .entryNotFound: language.pick("Fant ingen slik oppføring i organisasjonen.", "No such entry in the organisation.")
        case .filteredWithDevices: language.pick("Viser medlemmer med biometrisk innlogging.", "Showing members with biometric sign-in.")
        case .filteredWithoutPersonnummer: language.pick("Viser medlemmer uten fødselsnummer i registeret.", "Showing members without a national identity number on record.")
        case .inviteGone: language.pick("Lenken er brukt eller utløpt (den virker én gang, i 24 timer). Be administratoren om en ny.", "The link was used or has expired (it works once, for 24 hours). Ask the administrator for a new one.")
        case .inviteGoneTitle: language.pick("Lenken virker ikke lenger", "The link no longer works")
        case .inviteMade: language.pick("Invitasjonen er sendt på e-post.", "The invitation was sent by email.")
        case .inviteEmailOtherAccount: language.pick(
            "E-postadressen i registeret hører til en annen konto enn den medlemmet er koblet til. Ingen invitasjon er sendt. Rett e-postadressen i medlemssystemet, eller få kontoene slått sammen.",
            "The email address on record belongs to another account than the one the member is linked to. No invitation was sent. Correct the email address in the member system, or have the accounts merged.")
        case .inviteEmailOtherOrganisations: language.pick(
            "E-postadressen står også på medlemmer i andre organisasjoner, som ikke er koblet til samme konto. Ingen invitasjon er sendt, for en passordinnlogging må bare gjelde dette medlemmet.",
            "The email address is also on members of other organisations that are not linked to the same account. No invitation was sent, since a password sign-in must reach this member only.")
        case .inviteAccountWithoutEmail: language.pick(
            "Medlemmets konto har ingen egen e-postadresse, så Portvakt kan ikke vite at adressen i registeret er medlemmets. Ingen invitasjon er sendt; medlemmet logger inn med BankID eller Vipps.",
            "The member's account has no email address of its own, so Portvakt cannot know that the address on record is the member's. No invitation was sent; the member signs in with BankID or Vipps.")
        case .inviteAccountElsewhere: language.pick(
            "Medlemmets konto har også roller i andre organisasjoner, og et passord ville åpne dem også. Ingen invitasjon er sendt; medlemmet logger inn med BankID eller Vipps.",
            "The member's account also has roles in other organisations, which a password would open too. No invitation was sent; the member signs in with BankID or Vipps.")
        case .inviteNoLongerFits: language.pick(
            "Invitasjonen passer ikke lenger til medlemmets konto (den er endret siden). Ingen passord er satt. Be administratoren om en ny invitasjon.",
            "The invitation no longer fits the member's account (it has changed since). No password was set. Ask the administrator for a new invitation.")
        case .inviteNeedsEmail: language.pick("Medlemmet har ingen e-postadresse i registeret. Ingenting er endret.", "The member has no email address on record. Nothing was changed.")
        case .memberNotFound: language.pick("Fant ikke medlemmet i organisasjonen.", "The member was not found in the organisation.")
        case .mergeChanged: language.pick("Kontoene er endret siden du så hva som flyttes. Ingenting er slått sammen. Se gjennom på nytt.", "The accounts changed since you saw what moves. Nothing was merged. Look again.")
        case .mergeDuplicateData: language.pick("Begge kontoene har data under samme nøkkel. Ingenting er slått sammen; ta kontakt med driften.", "Both accounts hold data under the same key. Nothing was merged; contact operations.")
        case .mergeGone: language.pick("En av kontoene finnes ikke lenger (allerede slått sammen?). Ingenting er endret.", "One of the accounts no longer exists (merged already?). Nothing was changed.")
        case .mergeSame: language.pick("En konto kan ikke slås sammen med seg selv. Velg to ulike kontoer.", "An account cannot be merged with itself. Choose two different accounts.")
        case .merged: language.pick("Kontoene er slått sammen.", "The accounts are merged.")
        case .moveActivities: language.pick("Aktiviteter", "Activities")
        case .moveClaims: language.pick("Utlegg", "Expense claims")
        case .moveContacts: language.pick("Kontakter", "Contacts")
        case .moveDevices: language.pick("Telefoner", "Phones")
        case .moveLogins: language.pick("Innlogginger", "Sign-in methods")
        case .moveRoles: language.pick("Roller", "Roles")
        case .moveSyncEntries: language.pick("Synkoppføringer", "Sync entries")
        case .noSuchPage: language.pick("Den siden finnes ikke i listen.", "That page does not exist in the list.")
        case .noneOnFile: language.pick("Ingen i registeret", "None on record")
        case .notAllowedTitle: language.pick("Ikke tilgang", "No access")
        case .notFoundTitle: language.pick("Fant ikke siden", "Page not found")
        case .heldByAnotherPerson: language.pick(
            "Medlemmets konto har et annet fødselsnummer, så innloggingen var en annen persons. Behold registerets nummer. Ingenting er endret.",
            "The member's account has another national identity number, so the sign-in was another person's. Keep the record's number. Nothing was changed.")
        case .numberHeldElsewhere: language.pick("Et annet medlem i organisasjonen har nummeret fra innloggingen. Slå dem sammen først. Ingenting er endret.", "Another member of the organisation holds the sign-in's number. Merge them first. Nothing was changed.")
        case .numbersShown: language.pick("Numrene vises i sin helhet. Det er logget.", "The numbers are shown in full. This is logged.")
        case .openConflicts: language.pick("åpne konflikter om fødselsnummer", "open national identity number conflicts")
        case .passwordTooLong: language.pick("Passordet kan ha høyst 72 byte (færre tegn når det har æ, ø, å eller andre tegn utenom a–z).", "The password can have at most 72 bytes (fewer characters when it has letters outside a–z).")
        case .passwordLength: language.pick("Passordet må ha minst 10 tegn.", "The password must have at least 10 characters.")
        case .passwordMismatch: language.pick("Passordene er ikke like.", "The passwords are not the same.")
        case .passwordSet: language.pick("Passordet er lagret. Logg inn med e-post og passord.", "The password is saved. Sign in with email and password.")
        case .passwordSetTitle: language.pick("Passordet er lagret", "The password is saved")
        case .pickBoth: language.pick("Velg én konto å beholde og én å slå inn i den.", "Choose one account to keep and one to merge into it.")
        case .problemTitle: language.pick("Det gikk ikke", "That did not work")
        case .retryQueued: language.pick("Oppdateringen sendes nå.", "The update is being sent now.")
        case .statusOpen: language.pick("Åpen", "Open")
        case .statusResolved: language.pick("Løst", "Resolved")
        case .suspended: language.pick("Medlemskapet er suspendert. Medlemmet har ingen rolle her lenger.", "The membership is suspended. The member has no role here any more.")
        case .suspendOwn: language.pick("Du kan ikke suspendere ditt eget medlemskap. Be en annen administrator.", "You cannot suspend your own membership. Ask another administrator.")
        case .suspensionLifted: language.pick("Suspensjonen er opphevet.", "The suspension is lifted.")
        case .notSuspended: language.pick("Dette medlemskapet er ikke suspendert.", "This membership is not suspended.")
        case .stepUpFirst: language.pick("Sammenslåing krever en bekreftelse med BankID eller Vipps de siste 5 minuttene. Ingenting er endret.", "Merging needs a confirmation with BankID or Vipps in the last 5 minutes. Nothing was changed.")
        case .withDevices: language.pick("medlemmer med biometrisk innlogging", "members with biometric sign-in")
        case .withoutPersonnummer: language.pick("medlemmer uten fødselsnummer i registeret", "members without a national identity number on record")
        }
    }
}
