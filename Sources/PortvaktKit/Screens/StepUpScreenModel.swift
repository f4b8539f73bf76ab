import Foundation
import PortvaktProtocol

/// What a step-up-protected view shows in one language (S11): the content only when revealed;
/// otherwise why not, and the ways on (confirm, password, back).
public struct StepUpScreenModel: Sendable, Hashable {
    public let title: String
    public let message: String?
    public let showsContent: Bool
    public let showsSpinner: Bool
    /// The secure password field (`textContentType` password), with its label.
    public let passwordField: String?
    /// What the view says when the password field is submitted empty.
    public var passwordMissing: String? { passwordField == nil ? nil : missingPassword }
    private let missingPassword: String
    public let actions: [Action]

    /// Something the user can do here; `event` is what to hand the gate.
    public struct Action: Sendable, Hashable, Identifiable {
        public let id: String
        public let label: String
        public let accessibilityHint: String
        public let isProminent: Bool
        public let event: StepUpGate.Event
    }

    public init(_ gate: StepUpGate, language l: Language) {
        missingPassword = ScreenModel.passwordMissing(l)
        title = switch gate.action {
        case .contactsRead: l.pick("Kontaktopplysninger", "Contact details")
        case .expensesSubmit: l.pick("Send utleggsrefusjon", "Submit expense claim")
        case .personnummerRead: l.pick("Fødselsnummer", "National identity number")
        case .deviceEnrol: l.pick("Slå på biometrisk innlogging", "Enable biometric login")
        }
        var actions: [Action] = []
        func action(_ id: String, _ label: String, _ hint: String, prominent: Bool = false, _ event: StepUpGate.Event) {
            actions.append(.init(id: id, label: label, accessibilityHint: hint, isProminent: prominent, event: event))
        }
        let back = { action("back", l.pick("Tilbake", "Back"), l.pick("Lukker uten å vise noe", "Closes without showing anything"), .back) }
        switch gate.state {
        case .revealed:
            message = gate.closesSoon
                ? l.pick("Skjules om mindre enn \(Int(StepUpGate.closingNotice)) sekunder.", "Hidden in less than \(Int(StepUpGate.closingNotice)) seconds.")
                : nil
            showsContent = true
            showsSpinner = false
            passwordField = nil
            if gate.closesSoon {
                action("extend", l.pick("Vis lenger", "Keep showing"), l.pick("Bekreft på nytt for å vise det lenger", "Confirm again to keep it showing"), prominent: true, .extend)
            }
        case .prompting:
            message = UserMessage.stepUpRequired.text(l)
            showsContent = false
            showsSpinner = true
            passwordField = nil
        case .checkingPassword:
            message = l.pick("Sjekker passordet …", "Checking the password …")
            showsContent = false
            showsSpinner = true
            passwordField = nil
        case .enteringPassword(let why):
            message = why?.text(l) ?? l.pick("Skriv passordet ditt for å fortsette.", "Enter your password to continue.")
            showsContent = false
            showsSpinner = false
            passwordField = l.pick("Passord", "Password")
            action("submit-password", l.pick("Bekreft", "Confirm"), l.pick("Sender passordet", "Sends the password"), prominent: true, .passwordSubmitted)
            back()
        case .hidden(let why):
            message = (why ?? .stepUpRequired).text(l)
            showsContent = false
            showsSpinner = false
            passwordField = nil
            if gate.biometricsUsable {
                action("confirm", l.pick("Bekreft", "Confirm"), l.pick("Viser Face ID eller fingeravtrykk", "Shows Face ID or fingerprint"), prominent: true, .opened)
                action("password", l.pick("Bruk passord", "Use password"), l.pick("Bekreft med passordet ditt i stedet", "Confirm with your password instead"), .usePassword)
            } else {
                action("password", l.pick("Bruk passord", "Use password"), l.pick("Bekreft med passordet ditt", "Confirm with your password"), prominent: true, .usePassword)
            }
            back()
        }
        self.actions = actions
    }

    /// What a screen reader is told when this follows `previous`: the message when it changed
    /// (a wrong password, the content about to hide), once.
    public func announcement(after previous: StepUpScreenModel) -> String? {
        message != previous.message ? message : nil
    }
}
