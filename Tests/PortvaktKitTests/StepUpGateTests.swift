import Foundation
import PortvaktKit
import PortvaktProtocol
import Testing

/// S11: step-up before sensitive data, decided by ``StepUpGate`` and drawn by ``StepUpScreenModel``.
@Suite("Step-up before sensitive views (S11)")
struct StepUpGateTests {
    private static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func S11_1_openingContactsPromptsBeforeAnythingIsShown() {
        var gate = StepUpGate(action: .contactsRead)
        #expect(!StepUpScreenModel(gate, language: .en).showsContent, "hidden before the prompt")
        #expect(gate.handle(.opened) == [.stepUp(.contactsRead)])
        #expect(gate.state == .prompting)
        #expect(!StepUpScreenModel(gate, language: .en).showsContent)
        #expect(gate.handle(.opened) == [], "one prompt at a time")
    }

    @Test func S11_2_successShowsTheContentAtOnce() {
        var gate = StepUpGate(action: .contactsRead)
        _ = gate.handle(.opened)
        _ = gate.handle(.succeeded(expiresAt: Self.now.addingTimeInterval(120)))
        #expect(StepUpScreenModel(gate, language: .nb).showsContent)
        #expect(gate.handle(.opened) == [], "no second prompt while the elevated token lasts")
        #expect(gate.handle(.tick(Self.now.addingTimeInterval(119))) == [])
        #expect(gate.isRevealed)
        _ = gate.handle(.tick(Self.now.addingTimeInterval(120)))
        #expect(gate.state == .hidden(.stepUpRequired), "hidden again when the elevated token expires")
    }

    @Test(arguments: [BiometricFailure.cancelled, .failed, .lockout])
    func S11_3_cancelOrFailureKeepsItHiddenAndOffersPasswordOrBack(failure: BiometricFailure) {
        var gate = StepUpGate(action: .contactsRead)
        _ = gate.handle(.opened)
        #expect(gate.handle(.failed(failure)) == [])
        let screen = StepUpScreenModel(gate, language: .en)
        #expect(!screen.showsContent)
        #expect(screen.actions.map(\.id) == ["confirm", "password", "back"])
        #expect(screen.message != nil)
        #expect(gate.handle(.back) == [.close])
    }

    @Test func S11_3_afterAFailedPromptThePasswordConfirmsInstead() {
        var gate = StepUpGate(action: .contactsRead)
        _ = gate.handle(.opened)
        _ = gate.handle(.failed(.failed))
        #expect(gate.handle(.usePassword) == [])
        #expect(gate.state == .enteringPassword(nil))
        let field = StepUpScreenModel(gate, language: .nb)
        #expect(field.passwordField == "Passord" && !field.showsContent)
        #expect(field.actions.map(\.id) == ["submit-password", "back"])
        #expect(gate.handle(.passwordSubmitted) == [.stepUpWithPassword(.contactsRead)])
        #expect(gate.handle(.passwordSubmitted) == [], "one request at a time")
        #expect(StepUpScreenModel(gate, language: .en).showsSpinner)
        _ = gate.handle(.succeeded(expiresAt: Self.now.addingTimeInterval(120)))
        #expect(gate.isRevealed)
    }

    @Test func S11_3_aWrongPasswordMayBeTypedAgain() {
        var gate = StepUpGate(action: .expensesSubmit)
        _ = gate.handle(.usePassword)
        _ = gate.handle(.passwordSubmitted)
        _ = gate.handle(.refused(.wrongPassword))
        #expect(gate.state == .enteringPassword(.wrongPassword))
        #expect(StepUpScreenModel(gate, language: .en).message == "Wrong password. Please try again.")
        #expect(gate.handle(.passwordSubmitted) == [.stepUpWithPassword(.expensesSubmit)])
        _ = gate.handle(.refused(.tooManyAttempts))
        #expect(!gate.isRevealed)
        #expect(gate.handle(.back) == [.close])
        #expect(gate.state == .hidden(nil))
    }

    @Test func S11_3_aPhoneWithoutBiometricsGoesStraightToThePassword() {
        var gate = StepUpGate(action: .contactsRead, biometricsUsable: false)
        #expect(StepUpScreenModel(gate, language: .en).actions.map(\.id) == ["password", "back"], "no biometric prompt is offered")
        #expect(gate.handle(.opened) == [], "no prompt that cannot work")
        #expect(gate.state == .enteringPassword(nil))
        #expect(StepUpScreenModel(gate, language: .en).message == "Enter your password to continue.")
    }

    @Test func S11_3_aChangedEnrolmentDeletesTheStaleKeyAndStaysHidden() {
        var gate = StepUpGate(action: .contactsRead)
        _ = gate.handle(.opened)
        #expect(gate.handle(.failed(.invalidated)) == [.deleteDeviceKey])
        #expect(gate.state == .hidden(.biometricEnrolmentChanged))
    }

    @Test func S11_3_aServerRefusalStaysHidden() {
        var gate = StepUpGate(action: .contactsRead)
        _ = gate.handle(.opened)
        _ = gate.handle(.refused(.deviceNotRecognised))
        #expect(!gate.isRevealed)
        #expect(StepUpScreenModel(gate, language: .en).message == UserMessage.deviceNotRecognised.text(.en))
    }

    @Test func S11_4_submittingAnExpenseClaimAsksForTheSameStepUp() {
        var gate = StepUpGate(action: .expensesSubmit)
        #expect(gate.handle(.opened) == [.stepUp(.expensesSubmit)])
        #expect(StepUpScreenModel(gate, language: .nb).title == "Send utleggsrefusjon")
    }
}
