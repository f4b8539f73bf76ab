import Foundation
import PortvaktProtocol
import QRCode

/// What one screen shows, in one language: the texts, what a screen reader says, and which
/// actions are there (the most important first). SwiftUI views and the CLI draw this; every
/// decision about it is here, where Linux tests see it.
public struct ScreenModel: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case methodSelection, browser, bankIDWaiting, working, enrolmentOffer, enrolmentConfirmation, unlock, biometricFallback, home
    }

    /// Something the user can do here; `event` is what to hand the machine.
    public struct Action: Sendable, Hashable, Identifiable {
        public let id: String
        public let label: String
        /// VoiceOver's hint: what happens when activated.
        public let accessibilityHint: String
        /// Drawn as the main button.
        public let isProminent: Bool
        public let event: AuthEvent
        /// It deletes something (turning biometric login off): drawn with the destructive role.
        public let isDestructive: Bool

        public init(id: String, label: String, accessibilityHint: String, isProminent: Bool, event: AuthEvent, isDestructive: Bool = false) {
            self.id = id
            self.label = label
            self.accessibilityHint = accessibilityHint
            self.isProminent = isProminent
            self.event = event
            self.isDestructive = isDestructive
        }
    }

    /// How a message is shown: quietly (a cancellation), as an error (with a way forward), or as information.
    public enum Tone: String, Sendable, Hashable { case quiet, error, information }

    public let kind: Kind
    public let title: String
    public let message: String?
    /// The message's stable id (`session_expired`, …), for scripts and analytics.
    public let messageID: String?
    public let tone: Tone?
    /// A banner beside the message, such as "biometric login is not available on this device".
    public let banner: String?
    public let showsSpinner: Bool
    /// The BankID order's QR code as the app draws it (S3.5): the current frame's modules, dark
    /// or light; the Apple view and the CLI draw this same matrix.
    public let qrCode: QRCode?
    /// What a screen reader says for the QR code.
    public let qrCodeLabel: String?
    /// The label of a password field to show (the enrolment's confirmation), nil for none. The
    /// typed password stays in the view, which hands it to ``Portvakt/confirmEnrolment(password:)``
    /// for the action whose event is ``AuthEvent/enrolmentPasswordSubmitted``.
    public let passwordField: String?
    /// What the view says when the password field is submitted empty (with ``passwordField``).
    public let passwordMissing: String?
    /// The label of a field for this phone's name (the enrolment offer; optional to fill), nil
    /// for none. The view hands what was typed to ``Portvakt/nameThisDevice(_:)`` before the
    /// action whose event is ``AuthEvent/enrolmentAccepted``.
    public let deviceNameField: String?
    public let actions: [Action]

    /// The screen for `machine`'s state, in `language`.
    public init(_ machine: AuthMachine, language: Language) {
        let l = language
        let context = machine.context
        let kind: Kind
        let title: String
        var banner: String?
        var spinner = false
        var message: UserMessage?
        var qrCode: QRCode?
        var passwordField: String?
        var deviceNameField: String?
        var actions: [Action] = []
        func action(_ id: String, _ label: String, _ hint: String, prominent: Bool = false, _ event: AuthEvent) {
            actions.append(Action(id: id, label: label, accessibilityHint: hint, isProminent: prominent, event: event))
        }
        func loginMethods(prominent: Bool) {
            var methods: [Action] = []
            func method(_ id: String, _ label: String, _ hint: String, prominent: Bool = false, _ chosen: LoginMethod) {
                // Only what the server offers: never a button that answers "unavailable".
                guard context.offeredMethods.contains(chosen) || chosen == .password else { return }
                methods.append(Action(id: id, label: label, accessibilityHint: hint, isProminent: prominent, event: .methodChosen(chosen)))
            }
            method("bankid", KitText.logInWithBankid.text(l), KitText.opensBankid.text(l), prominent: prominent, .bankID)
            method("vipps", KitText.logInWithVipps.text(l), KitText.opensVipps.text(l), prominent: prominent, .vipps)
            method("bankid-order", KitText.bankidAppOrQrCode.text(l),
                   KitText.startsBankidOnThisOrAnother.text(l), .bankIDOrder)
            method("password", KitText.emailAndPassword.text(l), KitText.logInWithEmailAndPassword.text(l), .password)
            // S16.3: the method used last comes first (not a password when the device's trust
            // lapsed: only BankID or Vipps renews it).
            let renewsTrust = machine.screen != .methodSelection(.reauthenticationRequired)
            if let last = context.lastMethod, renewsTrust || last != .password, let index = methods.firstIndex(where: { $0.event == .methodChosen(last) }) {
                methods.insert(methods.remove(at: index), at: 0)
            }
            actions += methods
        }

        switch machine.screen {
        case .launching, .completingLogin, .enrolling, .unlocking:
            kind = .working
            title = KitText.oneMoment.text(l)
            spinner = true
            if machine.screen == .unlocking {
                action("cancel", KitText.cancel.text(l), KitText.staysOnTheUnlockScreen.text(l), .cancelTapped)
            }
        case .methodSelection(let due):
            kind = .methodSelection
            title = KitText.logIn.text(l)
            message = due
            // S2.4: a failure that trying again can help offers "Try again" first: the same method,
            // from the start, with a new PKCE pair.
            if let due, due.isRetryable, let last = context.attemptedMethod {
                action("retry", KitText.tryAgain.text(l), KitText.startsTheLoginAgain.text(l), prominent: true, .methodChosen(last))
            }
            // S1.5: after an outage or a failure both providers stay visible.
            loginMethods(prominent: true)
            if context.biometry == .notAvailable {
                banner = UserMessage.biometricsNotAvailable.text(l)
            }
        case .browser:
            kind = .browser
            title = KitText.loggingIn.text(l)
            spinner = true
        case .bankIDOrder(let progress):
            kind = .bankIDWaiting
            title = progress.showsQRCode ? KitText.scanTheQrCodeWithThe.text(l)
                : KitText.waitingForBankid.text(l)
            spinner = progress.startedAt == nil || !progress.showsQRCode
            banner = progress.message
            if progress.showsQRCode { qrCode = progress.qrData.flatMap { try? QRCode(text: $0) } }
            action("cancel", KitText.cancel.text(l), KitText.cancelsTheBankidLogin.text(l), prominent: true, .cancelTapped)
            if !progress.showsQRCode, progress.startedAt != nil {
                action("qr", KitText.showQrCode.text(l), KitText.forBankidOnAnotherDevice.text(l), .bankIDAppOpened(false))
            }
        case .enrolmentOffer(let biometric?):
            kind = .enrolmentOffer
            let name = biometric == .face ? "Face ID" : KitText.fingerprint.text(l)
            title = KitText.enableBiometricLogin.text(l)
            banner = KitText.nextTimeYouCanUnlockThe.text(l, ["name": name])
            // iOS names every phone "iPhone": the member's own words tell them apart in "Remove a phone".
            deviceNameField = KitText.nameOfThisPhoneOptional.text(l)
            action("enable", KitText.enableName.text(l, ["name": name]), KitText.showsTheNameCheck.text(l, ["name": name]), prominent: true, .enrolmentAccepted)
            action("decline", KitText.notNow.text(l), KitText.goesToTheHomeScreen.text(l), .enrolmentDeclined)
        case .enrolmentOffer(nil):
            kind = .enrolmentOffer
            title = KitText.enableBiometricLogin.text(l)
            message = context.biometry == .offForThisApp ? .biometricsOffForThisApp : .biometricsNotSetUp
            action("continue", KitText.continueText.text(l), KitText.goesToTheHomeScreen.text(l), prominent: true, .enrolmentDeclined)
        case .enrolmentConfirmation(let passwordFirst, let due):
            // S7.3, later than the login's few minutes: confirmed before any biometric prompt.
            kind = .enrolmentConfirmation
            title = KitText.confirmItIsYou.text(l)
            message = due
            // After a device unlock only a new login will do (the server lets no key enrol another).
            let byPassword = context.enrolmentPasswordAccepted
            banner = byPassword
                ? KitText.itIsMoreThanFiveMinutes.text(l)
                : KitText.logInAgainToTurnOn.text(l)
            passwordField = byPassword ? KitText.password.text(l) : nil
            let password = Action(
                id: "submit-password", label: KitText.confirmWithPassword.text(l),
                accessibilityHint: KitText.thenShowsFaceIdOrFingerprint.text(l), isProminent: passwordFirst,
                event: .enrolmentPasswordSubmitted
            )
            if passwordFirst { actions.append(password) }
            loginMethods(prominent: !passwordFirst)
            if byPassword {
                actions.removeAll { $0.event == .methodChosen(.password) }
                if !passwordFirst { actions.append(password) }
            }
            action("cancel", KitText.cancel.text(l), KitText.goesToTheHomeScreenWithout.text(l), .cancelTapped)
        case .unlock(let due):
            kind = .unlock
            title = KitText.unlock.text(l)
            message = due
            action("unlock", KitText.unlock.text(l), KitText.showsFaceIdOrFingerprint.text(l), prominent: true, .retryUnlock)
            action("other", KitText.useBankidOrVipps.text(l), KitText.goesToTheLoginChoices.text(l), .useOtherMethod)
        case .biometricFallback(let why):
            kind = .biometricFallback
            title = KitText.logInAnotherWay.text(l)
            message = why
            // S6.1: the way forward is the prominent button.
            action("other", KitText.useBankidOrVipps.text(l), KitText.goesToTheLoginChoices.text(l), prominent: true, .useOtherMethod)
        case .home(let notice):
            kind = .home
            title = KitText.home.text(l)
            message = notice
            // S12.3: a calm indicator while offline, whatever notice is due.
            if !context.online, notice != .offline { banner = UserMessage.offline.text(l) }
        }
        self.kind = kind
        self.title = title
        self.message = message?.text(l)
        messageID = message?.id
        tone = message.map { $0.isQuiet ? .quiet : ([.faceIDEnabled, .fingerprintEnabled, .offline, .personnummerNotRetrieved].contains($0) ? .information : .error) }
        self.banner = banner
        showsSpinner = spinner
        self.qrCode = qrCode
        self.passwordField = passwordField
        passwordMissing = passwordField.map { _ in Self.passwordMissing(l) }
        self.deviceNameField = deviceNameField
        qrCodeLabel = qrCode.map { _ in
            KitText.qrCodeForBankidScanIt.text(l)
        }
        self.actions = actions
    }

    /// What VoiceOver reads first: the title, then the message.
    public var accessibilityLabel: String {
        [title, message, banner].compactMap { $0 }.joined(separator: ". ")
    }

    /// What a screen reader is told when this screen follows `previous` (each status change
    /// once): a new screen's message and banner, or on the same screen the message or banner that
    /// changed (a BankID hint, a wrong password); nil when nothing it says changed (a QR frame).
    /// A new screen's title is read where VoiceOver's focus moves (the view puts it there), so
    /// only its message and banner are announced, or nothing.
    public func announcement(after previous: ScreenModel) -> String? {
        let newScreen = kind != previous.kind || title != previous.title
        let changed = [
            newScreen || message != previous.message ? message : nil, newScreen || banner != previous.banner ? banner : nil,
        ].compactMap { $0 }
        return changed.isEmpty ? nil : changed.joined(separator: ". ")
    }

    /// Said beside a password field submitted empty (the button does nothing else).
    static func passwordMissing(_ language: Language) -> String {
        KitText.typeYourPasswordFirst.text(language)
    }
}

/// The biometric part of the settings screen (S7).
public struct BiometricSettingsModel: Sendable, Hashable {
    /// "Face ID enabled" / "Fingerprint enabled", or "Enable biometric login".
    public let status: String
    public let actions: [ScreenModel.Action]

    public init(_ machine: AuthMachine, language l: Language) {
        let context = machine.context
        var actions: [ScreenModel.Action] = []
        switch (context.biometry, context.deviceKeyEnrolled) {
        case (.available(let kind), true) where context.confirmingBiometricsOff:
            // S7.2: turning it off is confirmed first; the person logs in with BankID or Vipps after.
            status = kind == .face
                ? KitText.turnOffFaceIdNextTime.text(l)
                : KitText.turnOffFingerprintNextTimeYou.text(l)
            // Its own words (not the "Turn off" that asked) and the destructive role.
            actions.append(.init(id: "confirm-disable", label: KitText.yesTurnOff.text(l), accessibilityHint: KitText.deletesTheKeyOnThisDevice.text(l), isProminent: true, event: .settingsDisableBiometrics, isDestructive: true))
            actions.append(.init(id: "cancel-disable", label: KitText.cancel.text(l), accessibilityHint: KitText.keepsBiometricLogin.text(l), isProminent: false, event: .settingsDisableCancelled))
        case (.available(let kind), true):
            status = kind.enabledMessage.text(l)
            actions.append(.init(id: "disable", label: KitText.turnOff.text(l), accessibilityHint: KitText.asksFirstWhetherYouAreSure.text(l), isProminent: false, event: .settingsDisableRequested))
            actions.append(.init(id: "re-enrol", label: KitText.setUpAgain.text(l), accessibilityHint: KitText.makesANewKey.text(l), isProminent: false, event: .settingsReEnrol))
        case (.available, false), (.notEnrolled, _):
            status = KitText.enableBiometricLogin.text(l)
            actions.append(.init(id: "enable", label: KitText.turnOn.text(l), accessibilityHint: KitText.showsFaceIdOrFingerprint.text(l), isProminent: true, event: .settingsEnableBiometrics))
        case (.lockedOut, _):
            status = UserMessage.biometricLockedOut.text(l)
        case (.passcodeNotSet, _):
            status = UserMessage.passcodeNotSet.text(l)
        case (.notAvailable, _):
            status = UserMessage.biometricsNotAvailable.text(l)
        case (.offForThisApp, _):
            status = UserMessage.biometricsOffForThisApp.text(l)
        }
        self.actions = actions
    }
}
