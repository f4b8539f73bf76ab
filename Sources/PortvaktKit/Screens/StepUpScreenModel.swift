import Foundation
import PortvaktProtocol

/// What a step-up-protected view shows in one language (S11): the content only when revealed;
/// otherwise why not, and the ways on (confirm, password, back).
public struct StepUpScreenModel: Sendable, Hashable {
    public let title: String
    public let message: String?
    public let showsContent: Bool
    public let showsSpinner: Bool
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
        title = switch gate.action {
        case .contactsRead: l.pick("Kontaktopplysninger", "Contact details")
        case .expensesSubmit: l.pick("Send utleggsrefusjon", "Submit expense claim")
        case .personnummerRead: l.pick("Fødselsnummer", "National identity number")
        }
        var actions: [Action] = []
        func action(_ id: String, _ label: String, _ hint: String, prominent: Bool = false, _ event: StepUpGate.Event) {
            actions.append(.init(id: id, label: label, accessibilityHint: hint, isProminent: prominent, event: event))
        }
        switch gate.state {
        case .revealed:
            message = nil
            showsContent = true
            showsSpinner = false
        case .prompting:
            message = UserMessage.stepUpRequired.text(l)
            showsContent = false
            showsSpinner = true
        case .hidden(let why):
            message = (why ?? .stepUpRequired).text(l)
            showsContent = false
            showsSpinner = false
            action("confirm", l.pick("Bekreft", "Confirm"), l.pick("Viser Face ID eller fingeravtrykk", "Shows Face ID or fingerprint"), prominent: true, .opened)
            action("password", l.pick("Bruk passord", "Use password"), l.pick("Logg inn med e-post og passord", "Log in with email and password"), .usePassword)
            action("back", l.pick("Tilbake", "Back"), l.pick("Lukker uten å vise noe", "Closes without showing anything"), .back)
        }
        self.actions = actions
    }
}
