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
        case .contactsRead: KitText.contactDetails.text(l)
        case .expensesSubmit: KitText.submitExpenseClaim.text(l)
        case .personnummerRead: KitText.nationalIdentityNumber.text(l)
        case .deviceEnrol: KitText.enableBiometricLogin.text(l)
        }
        var actions: [Action] = []
        func action(_ id: String, _ label: String, _ hint: String, prominent: Bool = false, _ event: StepUpGate.Event) {
            actions.append(.init(id: id, label: label, accessibilityHint: hint, isProminent: prominent, event: event))
        }
        let back = { action("back", KitText.back.text(l), KitText.closesWithoutShowingAnything.text(l), .back) }
        switch gate.state {
        case .revealed:
            message = gate.closesSoon
                ? KitText.hiddenInLessThanSeconds.text(l, ["seconds": String(Int(StepUpGate.closingNotice))])
                : nil
            showsContent = true
            showsSpinner = false
            passwordField = nil
            if gate.closesSoon {
                action("extend", KitText.keepShowing.text(l), KitText.confirmAgainToKeepItShowing.text(l), prominent: true, .extend)
            }
        case .prompting:
            message = UserMessage.stepUpRequired.text(l)
            showsContent = false
            showsSpinner = true
            passwordField = nil
        case .checkingPassword:
            message = KitText.checkingThePassword.text(l)
            showsContent = false
            showsSpinner = true
            passwordField = nil
        case .enteringPassword(let why):
            message = why?.text(l) ?? KitText.enterYourPasswordToContinue.text(l)
            showsContent = false
            showsSpinner = false
            passwordField = KitText.password.text(l)
            action("submit-password", KitText.confirm.text(l), KitText.sendsThePassword.text(l), prominent: true, .passwordSubmitted)
            back()
        case .hidden(let why):
            message = (why ?? .stepUpRequired).text(l)
            showsContent = false
            showsSpinner = false
            passwordField = nil
            if gate.biometricsUsable {
                action("confirm", KitText.confirm.text(l), KitText.showsFaceIdOrFingerprint.text(l), prominent: true, .opened)
                action("password", KitText.usePassword.text(l), KitText.confirmWithYourPasswordInstead.text(l), .usePassword)
            } else {
                action("password", KitText.usePassword.text(l), KitText.confirmWithYourPassword.text(l), prominent: true, .usePassword)
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
