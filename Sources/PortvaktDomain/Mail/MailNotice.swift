import Foundation
import PortvaktCore
import PortvaktModels

/// The emails Portvakt sends, each in Bokmål and English. None holds a personnummer or a
/// secret besides the invitation's one-time link and the membership code, which are sealed in
/// the outbox and purged once the message is sent.
public enum MailNotice: Sendable, Hashable {
    /// An administrator's invitation to password login, with its one-time link.
    case passwordInvite(link: String)
    /// The account's password was set or changed.
    case passwordChanged
    /// A phone was registered to unlock the account; its name as the member gave it, if any.
    case deviceAdded(deviceName: String?)
    /// An administrator of `organisation` (its name) removed the member's devices.
    case devicesRemovedByAdmin(organisation: String?)
    /// The one-time code that claims the membership with this email (S15), valid 10 minutes.
    case membershipCode(code: String)
    /// The membership with this email was connected to a BankID or Vipps login by its code (S15).
    case membershipLinked
    /// A passkey was added to the account (S18.1); its name as the member gave it.
    case passkeyAdded(name: String?)
    /// A member system or an import of `organisation` (its name) gave the account a membership
    /// or a role above peer mentor (issue 58).
    case membershipGranted(organisation: String?, role: Role)

    /// The outbox's `kind`.
    public var kind: String {
        switch self {
        case .passwordInvite: "password_invite"
        case .passwordChanged: "password_changed"
        case .deviceAdded: "device_added"
        case .devicesRemovedByAdmin: "devices_removed_by_admin"
        case .membershipCode: "membership_code"
        case .membershipLinked: "membership_linked"
        case .passkeyAdded: "passkey_added"
        case .membershipGranted: "membership_granted"
        }
    }

    /// The subject and body in `language`. `accountURL` is the portal's account page, where a
    /// member who did not do this ends sessions and removes phones.
    public func compose(_ language: Language, accountURL: String) -> (subject: String, body: String) {
        let l = language
        let notYou = l.pick(
            "Var det ikke deg? Logg inn med BankID eller Vipps på \(accountURL), fjern det du ikke kjenner igjen, og kontakt organisasjonen din.",
            "Was it not you? Sign in with BankID or Vipps at \(accountURL), remove what you do not recognise, and contact your organisation.")
        let greeting = l.pick("Hei!", "Hello,")
        let signature = l.pick("Hilsen Portvakt, innloggingen til likepersonsappen", "Portvakt, the sign-in of the peer-mentor app")
        let subject: String
        let paragraphs: [String]
        switch self {
        case .passwordInvite(let link):
            subject = l.pick("Velg passord for likepersonsappen", "Choose a password for the peer-mentor app")
            paragraphs = [
                l.pick("Du er invitert til å logge inn i likepersonsappen med e-post og passord. Åpne lenken og velg passordet ditt:",
                       "You are invited to sign in to the peer-mentor app with email and password. Open the link and choose your password:"),
                link,
                l.pick("Lenken virker én gang, i 24 timer. Ingen andre ser passordet du velger. Ventet du ikke denne e-posten, kan du se bort fra den.",
                       "The link works once, for 24 hours. Nobody else sees the password you choose. If you did not expect this email, you can ignore it."),
            ]
        case .passwordChanged:
            subject = l.pick("Passordet ditt er satt eller endret", "Your password was set or changed")
            paragraphs = [
                l.pick("Passordet til kontoen din i likepersonsappen er satt eller endret.",
                       "The password of your account in the peer-mentor app was set or changed."),
                notYou,
            ]
        case .deviceAdded(let name):
            subject = l.pick("En ny telefon kan låse opp kontoen din", "A new phone can unlock your account")
            let phone = Self.cleaned(name).map { l.pick("Telefonen «\($0)»", "The phone “\($0)”") } ?? l.pick("En ny telefon", "A new phone")
            paragraphs = [
                l.pick("\(phone) kan nå låse opp kontoen din i likepersonsappen med ansikt eller fingeravtrykk.",
                       "\(phone) can now unlock your account in the peer-mentor app with face or fingerprint."),
                notYou,
            ]
        case .devicesRemovedByAdmin(let organisation):
            subject = l.pick("En administrator har fjernet telefonene dine", "An administrator removed your devices")
            let who = Self.cleaned(organisation).map { l.pick("En administrator i \($0)", "An administrator of \($0)") }
                ?? l.pick("En administrator", "An administrator")
            paragraphs = [
                l.pick("\(who) har fjernet telefonene som kunne låse opp kontoen din, og innloggingene på dem er avsluttet.",
                       "\(who) removed the phones that could unlock your account, and ended the sign-ins on them."),
                l.pick("Neste gang logger du inn med BankID, Vipps eller e-post og passord, og kan så slå på opplåsing med ansikt eller fingeravtrykk igjen. Spørsmål? Kontakt organisasjonen din.",
                       "Next time, sign in with BankID, Vipps or email and password; then you can turn on unlocking with face or fingerprint again. Questions? Contact your organisation."),
            ]
        case .membershipCode(let code):
            subject = l.pick("Koden din for likepersonsappen", "Your code for the peer-mentor app")
            paragraphs = [
                l.pick("Noen logget inn med BankID eller Vipps og oppga denne e-postadressen for å finne medlemskapet sitt. Koden er:",
                       "Someone signed in with BankID or Vipps and gave this email address to find their membership. The code is:"),
                code,
                l.pick("Skriv den inn på siden der du logget inn. Den virker i 10 minutter.",
                       "Enter it on the page where you signed in. It works for 10 minutes."),
                l.pick("Den som skriver koden, får medlemskapet ditt koblet til sin innlogging. Var det ikke deg? Ikke gi koden til noen, og se bort fra denne e-posten. Uten koden skjer det ingenting med medlemskapet ditt.",
                       "Whoever enters the code gets your membership connected to their login. Was it not you? Do not give the code to anyone, and ignore this email. Without the code nothing happens to your membership."),
            ]
        case .membershipLinked:
            subject = l.pick("Medlemskapet ditt er koblet til en innlogging", "Your membership was connected to a login")
            paragraphs = [
                l.pick("Medlemskapet med denne e-postadressen er nå koblet til en innlogging med BankID eller Vipps, med koden vi sendte hit.",
                       "The membership with this email address is now connected to a BankID or Vipps login, with the code we sent here."),
                notYou,
            ]
        case .passkeyAdded(let name):
            subject = l.pick("En ny passnøkkel kan logge inn på kontoen din", "A new passkey can sign in to your account")
            let key = Self.cleaned(name).map { l.pick("Passnøkkelen «\($0)»", "The passkey “\($0)”") } ?? l.pick("En ny passnøkkel", "A new passkey")
            paragraphs = [
                l.pick("\(key) kan nå logge inn på kontoen din i nettleseren, og bekrefte administratorhandlinger.",
                       "\(key) can now sign in to your account in the browser, and confirm administrators' actions."),
                notYou,
            ]
        case .membershipGranted(let organisation, let role):
            subject = l.pick("Du har fått et medlemskap eller en rolle", "You were given a membership or a role")
            let who = Self.cleaned(organisation) ?? l.pick("En organisasjon", "An organisation")
            let as_ = switch role {
            case .peerMentor: l.pick("likeperson", "peer mentor")
            case .coordinator: l.pick("koordinator", "coordinator")
            case .orgAdmin: l.pick("administrator", "administrator")
            }
            paragraphs = [
                l.pick("\(who) har registrert deg som \(as_) i medlemssystemet sitt, og kontoen din i likepersonsappen har nå den rollen der.",
                       "\(who) registered you as \(as_) in its member system, and your account in the peer-mentor app now has that role there."),
                l.pick("Kjenner du ikke igjen dette? Kontakt organisasjonen, eller se Min konto på \(accountURL).",
                       "Do you not recognise this? Contact the organisation, or see My account at \(accountURL)."),
            ]
        }
        return (subject, ([greeting] + paragraphs + [signature]).joined(separator: "\n\n"))
    }

    /// A name a member or administrator typed, made safe for one line of text: no control
    /// characters, at most 60 characters; nil when nothing is left.
    private static func cleaned(_ text: String?) -> String? {
        guard let text else { return nil }
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
            .trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? nil : String(kept.prefix(60))
    }
}
