import Foundation
import PortvaktKit
import PortvaktProtocol
import QRCode
import Testing

/// What each screen shows and offers, in Bokmål and English (the view-model side of the stories).
@Suite("Screens")
struct ScreenModelTests {
    private static func machine(
        biometry: BiometryAvailability = .available(.face), session: Bool = false, key: Bool = false, _ events: [AuthEvent] = []
    ) -> AuthMachine {
        let context = AuthContext(biometry: biometry, hasSession: session, deviceKeyEnrolled: key, online: true)
        var machine = AuthMachine(context: context)
        _ = machine.handle(.launched(context))
        for event in events { _ = machine.handle(event) }
        return machine
    }

    @Test func S1_5_anOutageKeepsBothProvidersVisible() {
        let screen = ScreenModel(Self.machine([.methodChosen(.bankID), .browserFailed(.bankIDUnavailable)]), language: .en)
        #expect(screen.message == "BankID is temporarily unavailable. Try Vipps instead or retry later")
        #expect(screen.tone == .error)
        #expect(screen.actions.filter(\.isProminent).map(\.id) == ["retry", "bankid", "vipps"], "try BankID again, or Vipps")
    }

    @Test func S1_4_aCancellationIsQuiet() {
        let screen = ScreenModel(Self.machine([.methodChosen(.bankID), .browserCancelled]), language: .nb)
        #expect(screen.message == "BankID-innloggingen ble avbrutt")
        #expect(screen.tone == .quiet)
    }

    @Test func S2_4_aFailedExchangeOffersTryAgainFirst() {
        var machine = Self.machine([.methodChosen(.vipps), .browserReturnedCode, .loginFailed(.loginFailed)])
        let screen = ScreenModel(machine, language: .en)
        #expect(screen.message == "Login failed — please try again")
        let retry = try? #require(screen.actions.first)
        #expect(retry?.id == "retry" && retry?.label == "Try again" && retry?.isProminent == true)
        #expect(retry?.event == .methodChosen(.vipps))
        #expect(ScreenModel(machine, language: .nb).actions.first?.label == "Prøv igjen")
        // The same method from the start: the platform makes a new PKCE pair for every openBrowser.
        #expect(machine.handle(.methodChosen(.vipps)) == [.openBrowser(.vipps)])
        let cancelled = ScreenModel(Self.machine([.methodChosen(.vipps), .browserCancelled]), language: .en)
        #expect(!cancelled.actions.contains { $0.id == "retry" }, "a cancellation is the person's choice: no Try again")
    }

    @Test func S16_3_theMethodUsedLastComesFirst() {
        var context = AuthContext(biometry: .notAvailable, hasSession: false, deviceKeyEnrolled: false, online: true)
        context.lastMethod = .password
        var machine = AuthMachine(context: context)
        _ = machine.handle(.launched(context))
        #expect(ScreenModel(machine, language: .en).actions.map(\.id) == ["password", "bankid", "vipps", "bankid-order"])
        context.lastMethod = nil
        _ = machine.handle(.launched(context))
        #expect(ScreenModel(machine, language: .en).actions.map(\.id) == ["bankid", "vipps", "bankid-order", "password"])
    }

    @Test func S3_5_theScreenCarriesTheQRCodesCurrentFrame() throws {
        let link = try #require(URL(string: "bankid:///"))
        let frame = "bankid.67df3917-fa0d-44e5-b327-edcc928297f8.4.7c2ad4e4b1c0bc0d8a3e5c7c35a0f3b2a7a4f43c22a3f4f6ea0a3e52f1ba4b3c"
        var machine = Self.machine([.methodChosen(.bankIDOrder), .orderStarted(launchURL: link, at: Date())])
        _ = machine.handle(.qrFrameArrived(frame))
        #expect(ScreenModel(machine, language: .en).qrCode == nil, "no QR code while the BankID app on this device is used")
        _ = machine.handle(.bankIDAppOpened(false))
        _ = machine.handle(.qrFrameArrived(frame))
        let screen = ScreenModel(machine, language: .en)
        let code = try #require(screen.qrCode)
        #expect(code == (try QRCode(text: frame)), "the matrix of the frame's text")
        #expect(screen.qrCodeLabel == "QR code for BankID. Scan it with the BankID app on another device.")
        #expect(ScreenModel(machine, language: .nb).qrCodeLabel?.hasPrefix("QR-kode for BankID") == true)
        _ = machine.handle(.qrFrameArrived(frame + "x"))
        #expect(ScreenModel(machine, language: .en).qrCode != code, "each second's frame replaces the last")
    }

    @Test func S3_5_theWaitingScreenOffersTheQRCodeAndCancel() throws {
        let link = try #require(URL(string: "bankid:///"))
        let waiting = ScreenModel(Self.machine([.methodChosen(.bankIDOrder), .orderStarted(launchURL: link, at: Date())]), language: .en)
        #expect(waiting.kind == .bankIDWaiting)
        #expect(waiting.actions.map(\.id) == ["cancel", "qr"])
        let qr = ScreenModel(Self.machine([.methodChosen(.bankIDOrder), .orderStarted(launchURL: link, at: Date()), .bankIDAppOpened(false)]), language: .en)
        #expect(qr.title == "Scan the QR code with the BankID app")
        #expect(qr.actions.map(\.id) == ["cancel"])
    }

    @Test func S4_1_theOfferExplainsAndCanBeDeclined() {
        let screen = ScreenModel(Self.machine([.methodChosen(.bankID), .browserReturnedCode, .loginCompleted]), language: .en)
        #expect(screen.title == "Enable biometric login")
        #expect(screen.banner?.contains("Face ID") == true)
        #expect(screen.actions.map(\.event) == [.enrolmentAccepted, .enrolmentDeclined])
    }

    @Test func S6_1_theFallbackButtonIsProminent() {
        let screen = ScreenModel(Self.machine(session: true, key: true, [.unlockFailed(.lockout)]), language: .en)
        #expect(screen.actions.first { $0.isProminent }?.label == "Use BankID or Vipps")
        #expect(screen.accessibilityLabel.contains("locked"))
    }

    @Test func S7_1_S7_3_settingsShowTheStateAndItsActions() {
        let enrolled = BiometricSettingsModel(Self.machine(session: true, key: true, [.unlockSucceeded(offline: false)]), language: .en)
        #expect(enrolled.status == "Face ID enabled")
        #expect(enrolled.actions.map(\.event) == [.settingsDisableRequested, .settingsReEnrol], "turning off asks first (S7.2)")
        let fingerprint = BiometricSettingsModel(Self.machine(biometry: .available(.fingerprint), session: true, key: true), language: .en)
        #expect(fingerprint.status == "Fingerprint enabled")
        let off = BiometricSettingsModel(Self.machine(session: true, key: false), language: .en)
        #expect(off.status == "Enable biometric login")
        #expect(off.actions.map(\.event) == [.settingsEnableBiometrics])
    }

    @Test("S4.4: after a login on a phone whose Face ID or fingerprint is not set up, the screen says where to turn it on, in both languages, and goes on to home")
    func biometricsNotSetUpScreenAfterLogin() throws {
        let machine = Self.machine(biometry: .notEnrolled, [.methodChosen(.bankID), .browserReturnedCode, .loginCompleted])
        let english = ScreenModel(machine, language: .en), bokmal = ScreenModel(machine, language: .nb)
        #expect(english.title == "Enable biometric login")
        #expect(english.messageID == UserMessage.biometricsNotSetUp.rawValue)
        #expect(english.message?.contains("Turn it on in the device settings") == true)
        #expect(bokmal.message?.contains("innstillingene på enheten") == true)
        #expect(english.accessibilityLabel.hasPrefix("Enable biometric login. Face ID or fingerprint is not set up."))
        #expect(english.actions.map(\.label) == ["Continue"])
        var next = machine
        _ = next.handle(try #require(english.actions.first).event)
        #expect(next.screen == .home(nil))
    }

    @Test func S13_1_noHardwareShowsABannerOnTheMethodSelection() {
        let screen = ScreenModel(Self.machine(biometry: .notAvailable), language: .en)
        #expect(screen.banner == "Biometric login is not available on this device. Use BankID, Vipps or email and password.")
    }

    @Test func everyScreenHasATitleAndHintsInBothLanguages() throws {
        let link = try #require(URL(string: "bankid:///"))
        let journeys: [AuthMachine] = [
            Self.machine(), Self.machine([.methodChosen(.bankID)]), Self.machine([.methodChosen(.bankIDOrder), .orderStarted(launchURL: link, at: Date())]),
            Self.machine([.methodChosen(.bankID), .browserReturnedCode, .loginCompleted]), Self.machine(session: true, key: true, [.unlockFailed(.failed)]),
            Self.machine(session: true, key: true, [.unlockFailed(.lockout)]), Self.machine(session: true, key: false, [.silentRefreshSucceeded]),
        ]
        for machine in journeys {
            let nb = ScreenModel(machine, language: .nb)
            let en = ScreenModel(machine, language: .en)
            #expect(!nb.title.isEmpty && nb.title != en.title, "\(machine.screen)")
            for (bokmal, english) in zip(nb.actions, en.actions) {
                #expect(!bokmal.accessibilityHint.isEmpty && bokmal.label != english.label, "\(bokmal.id)")
            }
        }
    }
}

@Suite("File secure storage (Linux)")
struct FileSecureStorageTests {
    @Test("Values round-trip, are sealed on disk, readable only by the owner, and deleted")
    func roundTrip() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-kit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileSecureStorage(directory: directory)
        try await storage.write(Data("refresh-token-secret".utf8), for: .refreshToken)
        #expect(try await FileSecureStorage(directory: directory).read(.refreshToken) == Data("refresh-token-secret".utf8), "a new instance reads it")
        let file = directory.appendingPathComponent("portvakt_refresh_token_v1.sealed")
        let onDisk = try Data(contentsOf: file)
        #expect(!String(decoding: onDisk, as: UTF8.self).contains("refresh-token-secret"))
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // A sealed value copied under another key does not open.
        try onDisk.write(to: directory.appendingPathComponent("portvakt_pkce_verifier_v1.sealed"))
        await #expect(throws: (any Error).self) { try await storage.read(.pkceVerifier) }
        try await storage.delete(.refreshToken)
        #expect(try await storage.read(.refreshToken) == nil)
    }
}
