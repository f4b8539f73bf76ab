import Foundation
import PortvaktKit
import PortvaktProtocol
import Testing

/// Issue 61, the SwiftUI screens' accessibility (WCAG 2.2 AA): what the views draw and say is
/// decided here, where Linux tests see it.
@Suite("Screens for a screen reader and at every contrast")
struct ScreenAccessibilityTests {
    private static func machine(_ events: [AuthEvent]) -> AuthMachine {
        let context = AuthContext(biometry: .available(.face), hasSession: false, deviceKeyEnrolled: false, online: true)
        var machine = AuthMachine(context: context)
        _ = machine.handle(.launched(context))
        for event in events { _ = machine.handle(event) }
        return machine
    }

    @Test("WCAG 1.4.3, 1.4.11: every button's text has 4.5:1 on what it is drawn on, its border 3:1 on the background, light and dark")
    func buttonContrast() {
        for dark in [false, true] {
            let background = dark ? Palette.darkBackground : Palette.lightBackground
            for prominent in [true, false] {
                let button = Palette.button(prominent: prominent, dark: dark)
                #expect(button.text.contrast(with: button.fill ?? background) >= 4.5, "dark \(dark), prominent \(prominent)")
                #expect(button.border.contrast(with: background) >= 3, "dark \(dark), prominent \(prominent)")
            }
            if dark { #expect(Palette.actionOnDark.contrast(with: Palette.Colour(red: 0, green: 0, blue: 0)) >= 4.5, "on black too") }
        }
        let systemBlue = Palette.Colour(red: 0, green: 0x7A, blue: 0xFF)
        #expect(Palette.lightBackground.contrast(with: systemBlue) < 4.5, "why the system's accent is not used")
    }

    @Test("A new BankID hint is announced once; the QR code's next frame is not; a new screen says its title and message")
    func announcements() throws {
        let started = Self.machine([.methodChosen(.bankIDOrder), .orderStarted(launchURL: URL(string: "bankid:///?autostarttoken=a")!, at: Date()), .bankIDAppOpened(false)])
        var hinted = started
        _ = hinted.handle(.orderPending("Start BankID-appen"))
        let before = ScreenModel(started, language: .nb)
        let after = ScreenModel(hinted, language: .nb)
        #expect(after.announcement(after: before) == "Start BankID-appen")
        #expect(after.announcement(after: after) == nil)
        var framed = hinted
        _ = framed.handle(.qrFrameArrived("bankid.a.1.b"))
        #expect(ScreenModel(framed, language: .nb).announcement(after: after) == nil, "a frame every second is not news")

        let failed = ScreenModel(Self.machine([.methodChosen(.bankID), .browserFailed(.bankIDUnavailable)]), language: .en)
        #expect(failed.announcement(after: before) == "BankID is temporarily unavailable. Try Vipps instead or retry later",
                "a new screen's title is read where the focus moves; only its message is announced")
    }

    @Test("S11.3: an empty password says why; a wrong one is announced; content about to hide says so first, then hides")
    func stepUp() {
        var gate = StepUpGate(action: .contactsRead, biometricsUsable: false)
        _ = gate.handle(.opened)
        let field = StepUpScreenModel(gate, language: .en)
        #expect(field.passwordMissing == "Type your password first.")
        _ = gate.handle(.passwordSubmitted)
        _ = gate.handle(.refused(.wrongPassword))
        let wrong = StepUpScreenModel(gate, language: .en)
        #expect(wrong.announcement(after: field) == UserMessage.wrongPassword.text(.en))

        let now = Date(timeIntervalSince1970: 1_800_000_000)
        _ = gate.handle(.passwordSubmitted)
        _ = gate.handle(.succeeded(expiresAt: now.addingTimeInterval(120)))
        let shown = StepUpScreenModel(gate, language: .nb)
        #expect(shown.showsContent && shown.message == nil && shown.passwordMissing == nil)
        _ = gate.handle(.tick(now.addingTimeInterval(95)))
        #expect(StepUpScreenModel(gate, language: .nb).announcement(after: shown) == nil, "not yet")
        _ = gate.handle(.tick(now.addingTimeInterval(101)))
        let closing = StepUpScreenModel(gate, language: .nb)
        #expect(closing.showsContent && gate.closesSoon)
        #expect(closing.announcement(after: shown) == "Skjules om mindre enn 20 sekunder.", "WCAG 2.2.1: 20 seconds' warning")
        #expect(closing.actions.first?.id == "extend" && closing.actions.first?.event == .extend, "and a way to extend")
        var extended = gate
        #expect(extended.handle(.extend) == [], "without biometrics: the password again")
        #expect(extended.state == .enteringPassword(nil))
        _ = gate.handle(.tick(now.addingTimeInterval(120)))
        #expect(!StepUpScreenModel(gate, language: .nb).showsContent && !gate.closesSoon)
    }

    @Test("S7.2: the confirmation to turn biometrics off has its own words and the destructive role")
    func turnOffConfirmation() {
        var context = AuthContext(biometry: .available(.face), hasSession: true, deviceKeyEnrolled: true, online: true)
        context.confirmingBiometricsOff = false
        var machine = AuthMachine(context: context)
        _ = machine.handle(.launched(context))
        _ = machine.handle(.unlockSucceeded(offline: false))
        let asking = BiometricSettingsModel(machine, language: .en).actions.first { $0.id == "disable" }
        _ = machine.handle(.settingsDisableRequested)
        let settings = BiometricSettingsModel(machine, language: .en)
        let confirm = settings.actions.first { $0.id == "confirm-disable" }
        #expect(confirm?.label == "Yes, turn off" && confirm?.label != asking?.label)
        #expect(confirm?.isDestructive == true)
        #expect(settings.actions.first { $0.id == "cancel-disable" }?.isDestructive == false)
    }
}
