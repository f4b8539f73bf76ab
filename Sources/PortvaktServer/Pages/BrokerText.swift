import PortvaktCore
import PortvaktHTTP

/// Every text of the broker's own pages (the login's method choice, the password form, the other
/// device's QR code, dead ends), in Bokmål and English. Templates name them as `t.<id>`.
enum BrokerText: String, PageTexts {
    case logIn = "log_in"
    case chooseHowToLogIn = "choose_how_to_log_in"
    case loginMethods = "login_methods"
    case logInBankID = "log_in_bankid"
    case bankIDOtherDeviceQR = "bankid_other_device_qr"
    case logInVipps = "log_in_vipps"
    case logInEmailPassword = "log_in_email_password"
    case emailAddress = "email_address"
    case password = "password"
    case chooseEIDInstead = "choose_eid_instead"
    case loginCannotContinue = "login_cannot_continue"
    case technicalReason = "technical_reason"
    case backToAppOr = "back_to_app_or"
    case goToPortvaktStart = "go_to_portvakt_start"
    case bankIDOtherDevice = "bankid_other_device"
    case otherDeviceStepOpen = "other_device_step_open"
    case otherDeviceStepScan = "other_device_step_scan"
    case otherDeviceStepFollow = "other_device_step_follow"
    case oneMinuteLeft = "one_minute_left"
    case timeLeft = "time_left"
    case qrWithoutScript = "qr_without_script"
    case identifiedContinue = "identified_continue"
    case cancel = "cancel"
    case chooseAnotherWay = "choose_another_way"
    case loggedOut = "logged_out"
    case youAreLoggedOut = "you_are_logged_out"
    case youCanCloseWindow = "you_can_close_window"
    case logInPasskey = "log_in_passkey"
    case passkeyIntro = "passkey_intro"
    case passkeyUse = "passkey_use"
    case passkeyWithoutScript = "passkey_without_script"
    case passkeyWaiting = "passkey_waiting"
    case passkeyCancelled = "passkey_cancelled"
    case passkeyUnsupported = "passkey_unsupported"
    case passkeyNotAccepted = "passkey_not_accepted"
    case passkeyUnknown = "passkey_unknown"
    case passkeyCopied = "passkey_copied"
    case passkeyExpired = "passkey_expired"
    case passkeyOrEmail = "passkey_or_email"
    case notForYou = "not_for_you"
    case notSignedOut = "not_signed_out"
    case signOutRefused = "sign_out_refused"
    case consentIntro = "consent_intro"
    case consentWho = "consent_who"
    case consentName = "consent_name"
    case consentEmail = "consent_email"
    case consentOrganisations = "consent_organisations"
    case consentRevocable = "consent_revocable"
    case consentAllow = "consent_allow"
    case consentDeny = "consent_deny"
    case consentExpired = "consent_expired"
    case signOutQuestion = "sign_out_question"
    case signOutExplained = "sign_out_explained"
    case signOutButton = "sign_out_button"

    func text(_ language: Language) -> String {
        switch self {
        case .logIn: language.pick("Logg inn", "Log in")
        case .chooseHowToLogIn: language.pick("Velg hvordan du vil logge inn.", "Choose how to log in.")
        case .loginMethods: language.pick("Innloggingsmåter", "Login methods")
        case .logInBankID: language.pick("Logg inn med BankID", "Log in with BankID")
        case .bankIDOtherDeviceQR: language.pick("BankID på en annen enhet (QR-kode)", "BankID on another device (QR code)")
        case .logInVipps: language.pick("Logg inn med Vipps", "Log in with Vipps")
        case .logInEmailPassword: language.pick("Logg inn med e-post og passord", "Log in with email and password")
        case .emailAddress: language.pick("E-postadresse", "Email address")
        case .password: language.pick("Passord", "Password")
        case .chooseEIDInstead: language.pick("Velg BankID eller Vipps i stedet", "Choose BankID or Vipps instead")
        case .loginCannotContinue: language.pick("Innloggingen kan ikke fortsette", "The login cannot continue")
        case .technicalReason: language.pick("Teknisk årsak", "Technical reason")
        case .backToAppOr: language.pick("Gå tilbake til appen og start innloggingen på nytt, eller", "Go back to the app and start the login again, or")
        case .goToPortvaktStart: language.pick("gå til Portvakts forside", "go to Portvakt's start page")
        case .bankIDOtherDevice: language.pick("BankID på en annen enhet", "BankID on another device")
        case .otherDeviceStepOpen: language.pick("Åpne BankID-appen på mobilen din.", "Open the BankID app on your phone.")
        case .otherDeviceStepScan: language.pick("Velg «Skann QR-kode» og skann koden under.", "Choose “Scan QR code” and scan the code below.")
        case .otherDeviceStepFollow: language.pick("Følg instruksjonene i appen.", "Follow the instructions in the app.")
        case .oneMinuteLeft: language.pick("Ett minutt igjen.", "One minute left.")
        case .timeLeft: language.pick("Tid igjen", "Time left")
        case .qrWithoutScript:
            language.pick(
                "QR-koden skifter ikke uten JavaScript og virker bare i ca. 30 sekunder. Virker ikke skanningen, last inn siden på nytt.",
                "Without JavaScript the QR code does not change and works for about 30 seconds only. If scanning fails, reload the page."
            )
        case .identifiedContinue: language.pick("Jeg har identifisert meg – fortsett", "I have identified myself – continue")
        case .cancel: language.pick("Avbryt", "Cancel")
        case .chooseAnotherWay: language.pick("Velg en annen måte å logge inn på", "Choose another way to log in")
        case .loggedOut: language.pick("Logget ut", "Logged out")
        case .youAreLoggedOut: language.pick("Du er logget ut", "You are logged out")
        case .youCanCloseWindow: language.pick("Du kan lukke dette vinduet.", "You can close this window.")
        case .logInPasskey: language.pick("Logg inn med passnøkkel", "Log in with a passkey")
        case .passkeyIntro:
            language.pick(
                "En passnøkkel ligger på telefonen eller datamaskinen din, og du låser den opp med ansikt, fingeravtrykk eller PIN-kode. Du legger den til under Min konto etter at du har logget inn med BankID eller Vipps.",
                "A passkey is kept on your phone or computer, and you unlock it with your face, fingerprint or PIN. You add one in My account after logging in with BankID or Vipps."
            )
        case .passkeyUse: language.pick("Bruk passnøkkelen min", "Use my passkey")
        case .passkeyWithoutScript:
            language.pick("Passnøkler trenger JavaScript. Velg en annen måte å logge inn på.", "Passkeys need JavaScript. Choose another way to log in.")
        case .passkeyWaiting: language.pick("Venter på passnøkkelen …", "Waiting for your passkey …")
        case .passkeyCancelled: language.pick("Passnøkkelen ble ikke brukt. Prøv igjen, eller velg en annen måte.", "The passkey was not used. Try again, or choose another way.")
        case .passkeyUnsupported: language.pick("Denne nettleseren kan ikke bruke passnøkler. Velg en annen måte å logge inn på.", "This browser cannot use passkeys. Choose another way to log in.")
        case .passkeyNotAccepted:
            language.pick(
                "Passnøkkelen ble ikke godtatt. Den må låses opp med ansikt, fingeravtrykk eller PIN-kode. Prøv igjen, eller velg en annen måte.",
                "The passkey was not accepted. It must be unlocked with your face, fingerprint or PIN. Try again, or choose another way."
            )
        case .passkeyUnknown:
            language.pick("Vi kjenner ikke denne passnøkkelen. Den kan være fjernet. Logg inn med BankID eller Vipps.", "We do not know this passkey. It may have been removed. Log in with BankID or Vipps.")
        case .passkeyCopied:
            language.pick(
                "Passnøkkelen ble avvist fordi den kan være kopiert. Logg inn med BankID eller Vipps, fjern den under Min konto og legg til en ny.",
                "The passkey was refused because it may have been copied. Log in with BankID or Vipps, remove it in My account and add a new one."
            )
        case .passkeyExpired: language.pick("Det tok for lang tid. Prøv igjen.", "That took too long. Try again.")
        case .passkeyOrEmail: language.pick("Har du en passnøkkel, kan du velge den i e-postfeltet.", "If you have a passkey, you can choose it in the email field.")
        case .notForYou: language.pick("Du kan ikke logge inn her", "You cannot log in here")
        case .notSignedOut: language.pick("Utloggingen kunne ikke fullføres", "The sign-out could not be completed")
        case .consentIntro: language.pick("Tjenesten er ikke en av organisasjonenes egne. Hvis du sier ja, får den:", "This service is not one of the organisations' own. If you allow it, it gets:")
        case .consentWho: language.pick("at det er deg (et nummer som er det samme hver gang)", "that it is you (a number that is the same each time)")
        case .consentName: language.pick("navnet ditt", "your name")
        case .consentEmail: language.pick("e-postadressen din", "your email address")
        case .consentOrganisations: language.pick("hvilke organisasjoner du er medlem av, og rollene dine der", "which organisations you are a member of, and your roles there")
        case .consentRevocable: language.pick("Du kan trekke dette tilbake under Min konto, «Tjenester».", "You can take this back in My account, under “Applications”.")
        case .consentAllow: language.pick("Ja, gi tilgang", "Allow")
        case .consentDeny: language.pick("Nei", "Do not allow")
        case .consentExpired:
            language.pick("Spørsmålet er utløpt eller allerede besvart. Gå tilbake til tjenesten og logg inn på nytt.", "This question has expired or was answered already. Go back to the service and log in again.")
        case .signOutQuestion: language.pick("Vil du logge ut av Portvakt?", "Sign out of Portvakt?")
        case .signOutExplained:
            language.pick(
                "Du er logget inn i Portvakt i denne nettleseren. Logger du ut, blir du også logget ut av tjenestene du åpnet med den.",
                "You are signed in at Portvakt in this browser. Signing out also signs you out of the services you opened with it."
            )
        case .signOutButton: language.pick("Logg ut", "Sign out")
        case .signOutRefused:
            language.pick(
                "Portvakt kunne ikke avgjøre hvilken innlogging som skulle avsluttes. Du kan fortsatt være logget inn: logg ut i tjenesten igjen, eller lukk nettleseren.",
                "Portvakt could not tell which sign-in to end. You may still be signed in: sign out in the service again, or close the browser."
            )
        }
    }

    /// "This service is for members of HLF" (names joined with "or").
    static func membersOnly(_ names: [String], language: Language) -> String {
        let joined = names.count > 1 ? names.dropLast().joined(separator: ", ") + language.pick(" eller ", " or ") + names.last! : names.first ?? ""
        return language.pick("Denne tjenesten er for medlemmer av \(joined).", "This service is for members of \(joined).")
    }

    /// "Give Kurs access to your details?"
    static func consentHeading(_ name: String, language: Language) -> String {
        language.pick("Vil du gi \(name) tilgang?", "Give \(name) access?")
    }

    static func backToService(_ name: String?, language: Language) -> String {
        guard let name else { return language.pick("Tilbake til tjenesten", "Back to the service") }
        return language.pick("Tilbake til \(name)", "Back to \(name)")
    }
}
