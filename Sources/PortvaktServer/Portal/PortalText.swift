import PortvaktCore
import PortvaktHTTP

/// Every text of the portal's pages, in Bokmål and English, in one place: a text exists in both
/// languages or not at all (the switch below has no default). Templates name them as `t.<id>`.
enum PortalText: String, PageTexts {
    case skipToContent = "skip_to_content"
    case language = "language"
    case menu = "menu"
    case otherLanguage = "other_language"
    case siteName = "site_name"
    case startTitle = "start_title"
    case startIntro = "start_intro"
    case startWho = "start_who"
    case signIn = "sign_in"
    case signInBankID = "sign_in_bankid"
    case signInVipps = "sign_in_vipps"
    case signInPassword = "sign_in_password"
    case myAccount = "my_account"
    case signOut = "sign_out"
    case signedOut = "signed_out"
    case signedOutPasskeyRemoved = "signed_out_passkey_removed"
    case tryTitle = "try_title"
    case tryIntro = "try_intro"
    case tryPerson = "try_person"
    case tryMember = "try_member"
    case tryShows = "try_shows"
    case tryWithVipps = "try_with_vipps"
    case tryWithBankID = "try_with_bankid"
    case forDevelopers = "for_developers"
    case discovery = "discovery"
    case health = "health"
    case integrationGuide = "integration_guide"
    case accountTitle = "account_title"
    case accountIntro = "account_intro"
    case organisations = "organisations"
    case noOrganisation = "no_organisation"
    case signedInWith = "signed_in_with"
    case devicesTitle = "devices_title"
    case devicesIntro = "devices_intro"
    case noDevices = "no_devices"
    case deviceName = "device_name"
    case deviceKind = "device_kind"
    case deviceLastUsed = "device_last_used"
    case neverUsed = "never_used"
    case remove = "remove"
    case removeDevice = "remove_device"
    case sessionsTitle = "sessions_title"
    case sessionsIntro = "sessions_intro"
    case sessionWhere = "session_where"
    case sessionSince = "session_since"
    case thisBrowser = "this_browser"
    case browserSignIn = "browser_sign_in"
    case applicationsTitle = "applications_title"
    case applicationsIntro = "applications_intro"
    case applicationGets = "application_gets"
    case applicationSince = "application_since"
    case applicationWithdraw = "application_withdraw"
    case noApplications = "no_applications"
    case consentWithdrawn = "consent_withdrawn"
    case consentName = "consent_name_words"
    case consentEmail = "consent_email_words"
    case consentOrganisations = "consent_organisations_words"
    case endSession = "end_session"
    case endOtherSessions = "end_other_sessions"
    case eventsTitle = "events_title"
    case noEvents = "no_events"
    case dataTitle = "data_title"
    case dataIntro = "data_intro"
    case downloadMyData = "download_my_data"
    case eventWhen = "event_when"
    case eventWhat = "event_what"
    case deviceRemoved = "device_removed"
    case passkeysTitle = "passkeys_title"
    case passkeysIntro = "passkeys_intro"
    case noPasskeys = "no_passkeys"
    case passkeyCreated = "passkey_created"
    case removePasskey = "remove_passkey"
    case passkeyName = "passkey_name"
    case passkeyNameHint = "passkey_name_hint"
    case addPasskey = "add_passkey"
    case passkeyConfirmFirst = "passkey_confirm_first"
    case passkeyAdded = "passkey_added"
    case passkeyRemoved = "passkey_removed"
    case passkeyNotCreated = "passkey_not_created"
    case passkeyAlreadyAdded = "passkey_already_added"
    case passkeyNameInvalid = "passkey_name_invalid"
    case passkeyTooMany = "passkey_too_many"
    case passkeyStepUpNeeded = "passkey_step_up_needed"
    case signInPasskey = "sign_in_passkey"
    case sessionEnded = "session_ended"
    case otherSessionsEnded = "other_sessions_ended"
    case errorTitle = "error_title"
    case notSignedInTitle = "not_signed_in_title"
    case notSignedIn = "not_signed_in"
    case expiredSignIn = "expired_sign_in"
    case formExpired = "form_expired"
    case notFoundTitle = "not_found_title"
    case notFound = "not_found"
    case signInFailed = "sign_in_failed"
    case signInCancelled = "sign_in_cancelled"
    case unavailable = "unavailable"
    case tooManyAttempts = "too_many_attempts"
    case stepUpNotFresh = "step_up_not_fresh"
    case stepUpOtherPerson = "step_up_other_person"
    case stepUpPasskeySynced = "step_up_passkey_synced"
    case administration = "administration"
    case goToStart = "go_to_start"
    case tryAgain = "try_again"

    func text(_ language: Language) -> String {
        switch self {
        case .skipToContent: language.pick("Hopp til innholdet", "Skip to content")
        case .language: language.pick("Språk", "Language")
        case .menu: language.pick("Meny", "Menu")
        case .otherLanguage: language.pick("English", "Norsk (bokmål)")
        case .siteName: "Portvakt"
        case .startTitle: language.pick("Innlogging for likepersoner", "Sign-in for peer mentors")
        case .startIntro: language.pick(
            "Portvakt er innloggingen til likepersonsappen til NHF, Blindeforbundet og HLF. Du logger inn med BankID, Vipps eller e-post og passord.",
            "Portvakt is the sign-in of the peer-mentor app of NHF, Blindeforbundet and HLF. You sign in with BankID, Vipps or email and password.")
        case .startWho: language.pick(
            "Her ser du hvem du er logget inn som, hvilke telefoner som kan låse opp med ansikt eller fingeravtrykk, og hvor du er logget inn.",
            "Here you see who you are signed in as, which phones can unlock with face or fingerprint, and where you are signed in.")
        case .signIn: language.pick("Logg inn", "Sign in")
        case .signInBankID: language.pick("Logg inn med BankID", "Sign in with BankID")
        case .signInVipps: language.pick("Logg inn med Vipps", "Sign in with Vipps")
        case .signInPassword: language.pick("Logg inn med e-post og passord", "Sign in with email and password")
        case .myAccount: language.pick("Min konto", "My account")
        case .signOut: language.pick("Logg ut", "Sign out")
        case .signedOut: language.pick("Du er logget ut.", "You are signed out.")
        case .signedOutPasskeyRemoved: language.pick(
            "Passnøkkelen er fjernet, og alt den logget inn er logget ut, også denne nettleseren.",
            "The passkey is removed, and everything it signed in is signed out, this browser too.")
        case .tryTitle: language.pick("Prøv det (utviklingsmodus)", "Try it (development mode)")
        case .tryIntro: language.pick(
            "Dette er testpersoner i sandkassen. BankID og Vipps er simulert: du ser hele innloggingen, men ingen ekte data.",
            "These are the sandbox's test people. BankID and Vipps are simulated: you see the whole sign-in, but no real data.")
        case .tryPerson: language.pick("Person", "Person")
        case .tryMember: language.pick("Medlem av", "Member of")
        case .tryShows: language.pick("Hva innloggingen viser", "What the sign-in shows")
        case .tryWithVipps: language.pick("Prøv med Vipps", "Try with Vipps")
        case .tryWithBankID: language.pick("Prøv med BankID", "Try with BankID")
        case .forDevelopers: language.pick("For utviklere", "For developers")
        case .discovery: language.pick("OpenID Connect-oppsett", "OpenID Connect discovery")
        case .health: language.pick("Helsesjekk", "Health check")
        case .integrationGuide: language.pick(
            "Integrasjon: se «Logging in through Portvakt» i docs/login-flows.md, og API-beskrivelsen",
            "Integration: see “Logging in through Portvakt” in docs/login-flows.md, and the API description")
        case .accountTitle: language.pick("Min konto", "My account")
        case .accountIntro: language.pick("Logget inn som", "Signed in as")
        case .organisations: language.pick("Organisasjoner og roller", "Organisations and roles")
        case .noOrganisation: language.pick("Du har ingen rolle i noen organisasjon ennå.", "You have no role in any organisation yet.")
        case .signedInWith: language.pick("Denne innloggingen", "This sign-in")
        case .devicesTitle: language.pick("Telefoner med biometrisk innlogging", "Phones with biometric sign-in")
        case .devicesIntro: language.pick(
            "Mistet telefonen? Fjern den her. Da kan den ikke låse opp appen lenger, og innloggingene den åpnet avsluttes.",
            "Lost your phone? Remove it here. It can no longer unlock the app, and the sign-ins it opened end.")
        case .noDevices: language.pick("Ingen telefoner kan låse opp med ansikt eller fingeravtrykk.", "No phone can unlock with face or fingerprint.")
        case .deviceName: language.pick("Navn", "Name")
        case .deviceKind: language.pick("Lås opp med", "Unlocks with")
        case .deviceLastUsed: language.pick("Sist brukt", "Last used")
        case .neverUsed: language.pick("Ikke brukt ennå", "Not used yet")
        case .remove: language.pick("Fjern", "Remove")
        case .removeDevice: language.pick("Fjern telefonen", "Remove the phone")
        case .sessionsTitle: language.pick("Der du er logget inn", "Where you are signed in")
        case .sessionsIntro: language.pick("Logg ut der du ikke kjenner deg igjen.", "Sign out wherever you do not recognise it.")
        case .sessionWhere: language.pick("Hvor", "Where")
        case .sessionSince: language.pick("Logget inn", "Signed in")
        case .thisBrowser: language.pick("Denne nettleseren", "This browser")
        case .browserSignIn: language.pick("Innlogget i Portvakt i en nettleser (felles innlogging)", "Signed in at Portvakt in a browser (single sign-on)")
        case .applicationsTitle: language.pick("Tjenester", "Applications")
        case .applicationsIntro:
            language.pick("Tjenester som ikke er organisasjonenes egne, og som du har gitt tilgang til opplysninger om deg:", "Services that are not the organisations' own, which you let have details about you:")
        case .applicationGets: language.pick("Får", "Gets")
        case .applicationSince: language.pick("Siden", "Since")
        case .applicationWithdraw: language.pick("Trekk tilbake", "Take back")
        case .noApplications: language.pick("Du har ikke gitt andre tjenester tilgang.", "You have not let any other service have your details.")
        case .consentWithdrawn: language.pick("Tilgangen er trukket tilbake, og tjenesten er logget ut.", "The access is taken back, and the service is signed out.")
        case .consentName: language.pick("navn", "name")
        case .consentEmail: language.pick("e-postadresse", "email address")
        case .consentOrganisations: language.pick("organisasjoner og roller", "organisations and roles")
        case .endSession: language.pick("Logg ut", "Sign out")
        case .endOtherSessions: language.pick("Logg ut alle andre steder", "Sign out everywhere else")
        case .eventsTitle: language.pick("Siste sikkerhetshendelser", "Recent security events")
        case .noEvents: language.pick("Ingen hendelser ennå.", "No events yet.")
        case .dataTitle: language.pick("Dataene dine", "Your data")
        case .dataIntro:
            language.pick(
                "Last ned det Portvakt har om deg som en JSON-fil: kontoen, medlemskapene, telefonene, innloggingene og sikkerhetshendelsene dine. Fødselsnummeret er delvis skjult.",
                "Download what Portvakt holds about you as a JSON file: your account, memberships, phones, sign-ins and security events. The national identity number is partly hidden.")
        case .downloadMyData: language.pick("Last ned dataene mine", "Download my data")
        case .eventWhen: language.pick("Når", "When")
        case .eventWhat: language.pick("Hva", "What")
        case .passkeysTitle: language.pick("Passnøkler", "Passkeys")
        case .passkeysIntro:
            language.pick(
                "Med en passnøkkel logger du inn her uten passord, med ansikt, fingeravtrykk eller PIN-kode på telefonen eller datamaskinen. Den virker bare på denne nettsiden, så den kan ikke lures fra deg.",
                "With a passkey you sign in here without a password, with your face, fingerprint or PIN on your phone or computer. It works on this website only, so nobody can trick you into giving it away.")
        case .noPasskeys: language.pick("Du har ingen passnøkler.", "You have no passkeys.")
        case .passkeyCreated: language.pick("Lagt til", "Added")
        case .removePasskey: language.pick("Fjern passnøkkelen", "Remove the passkey")
        case .passkeyName: language.pick("Navn på passnøkkelen", "Name of the passkey")
        case .passkeyNameHint: language.pick("For eksempel «Jobb-PC» eller «Mobilen min». Høyst 60 tegn.", "For example “Work laptop” or “My phone”. At most 60 characters.")
        case .addPasskey: language.pick("Legg til en passnøkkel", "Add a passkey")
        case .passkeyConfirmFirst:
            language.pick(
                "For å legge til en passnøkkel må du ha logget inn med BankID eller Vipps de siste 5 minuttene.",
                "To add a passkey, you must have signed in with BankID or Vipps in the last 5 minutes.")
        case .passkeyAdded: language.pick("Passnøkkelen er lagt til. Vi har sendt deg en e-post om det.", "The passkey is added. We have sent you an email about it.")
        case .passkeyRemoved: language.pick("Passnøkkelen er fjernet. Den kan ikke lenger logge inn.", "The passkey is removed. It can no longer sign in.")
        case .passkeyNotCreated:
            language.pick(
                "Passnøkkelen ble ikke lagt til: nettleseren laget ingen, eller den ble ikke godtatt. Den må låses opp med ansikt, fingeravtrykk eller PIN-kode. Prøv igjen.",
                "The passkey was not added: the browser made none, or it was not accepted. It must be unlocked with your face, fingerprint or PIN. Try again.")
        case .passkeyAlreadyAdded: language.pick("Denne passnøkkelen er allerede lagt til.", "This passkey is already added.")
        case .passkeyNameInvalid: language.pick("Gi passnøkkelen et navn på høyst 60 tegn.", "Give the passkey a name of at most 60 characters.")
        case .passkeyTooMany: language.pick("Du har 20 passnøkler. Fjern en før du legger til en ny.", "You have 20 passkeys. Remove one before you add another.")
        case .passkeyStepUpNeeded:
            language.pick(
                "Det er mer enn 5 minutter siden du logget inn med BankID eller Vipps. Bekreft med en av dem, og legg til passnøkkelen igjen.",
                "It is more than 5 minutes since you signed in with BankID or Vipps. Confirm with one of them, then add the passkey again.")
        case .signInPasskey: language.pick("Logg inn med passnøkkel", "Sign in with a passkey")
        case .deviceRemoved: language.pick("Telefonen er fjernet. Innloggingene den åpnet er avsluttet.", "The phone is removed. The sign-ins it opened have ended.")
        case .sessionEnded: language.pick("Du er logget ut der.", "You are signed out there.")
        case .otherSessionsEnded: language.pick("Du er logget ut alle andre steder.", "You are signed out everywhere else.")
        case .errorTitle: language.pick("Noe gikk galt", "Something went wrong")
        case .notSignedInTitle: language.pick("Du er ikke logget inn", "You are not signed in")
        case .notSignedIn: language.pick(
            "Du er ikke logget inn, eller innloggingen ble avsluttet etter 30 minutter uten bruk. Logg inn igjen for å fortsette.",
            "You are not signed in, or the sign-in ended after 30 minutes without use. Sign in again to continue.")
        case .expiredSignIn: language.pick(
            "Denne innloggingen er utløpt eller allerede brukt. Start på nytt.",
            "This sign-in has expired or was already used. Start again.")
        case .formExpired: language.pick(
            "Skjemaet kunne ikke sendes (det var for gammelt, eller kom fra en annen side). Ingenting er endret. Prøv igjen.",
            "The form could not be sent (it was too old, or came from another site). Nothing was changed. Try again.")
        case .notFoundTitle: language.pick("Fant ikke siden", "Page not found")
        case .notFound: language.pick("Det finnes ingen side her, eller den er ikke din.", "There is no page here, or it is not yours.")
        case .signInFailed: language.pick("Innloggingen mislyktes. Prøv igjen, eller velg en annen måte.", "The sign-in failed. Try again, or choose another way.")
        case .signInCancelled: language.pick("Innloggingen ble avbrutt.", "The sign-in was cancelled.")
        case .unavailable: language.pick(
            "Portvakt får ikke kontakt med det den trenger akkurat nå. Prøv igjen om litt.",
            "Portvakt cannot reach what it needs right now. Try again in a little while.")
        case .tooManyAttempts: language.pick("For mange forsøk. Vent litt og prøv igjen.", "Too many attempts. Wait a little and try again.")
        case .stepUpNotFresh: language.pick(
            "Bekreftelsen må gjøres med BankID eller Vipps nå nettopp. Ingenting er endret. Prøv igjen.",
            "The confirmation must be made with BankID or Vipps just now. Nothing was changed. Try again.")
        case .stepUpOtherPerson: language.pick(
            "Du bekreftet som en annen person enn den som er logget inn. Ingenting er endret.",
            "You confirmed as another person than the one signed in. Nothing was changed.")
        case .stepUpPasskeySynced: language.pick(
            "Denne passnøkkelen kan synkroniseres til andre enheter, og bekrefter derfor ikke denne handlingen. Bekreft med BankID eller Vipps. Ingenting er endret.",
            "This passkey can be synced to other devices, so it does not confirm this action. Confirm with BankID or Vipps. Nothing was changed.")
        case .administration: language.pick("Administrasjon", "Administration")
        case .goToStart: language.pick("Til forsiden", "Go to the start page")
        case .tryAgain: language.pick("Prøv igjen", "Try again")
        }
    }

}
