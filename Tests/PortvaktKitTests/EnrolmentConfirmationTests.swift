import Foundation
@testable import PortvaktKit
import PortvaktProtocol
import Testing

private typealias Endpoint = FakePortvakt.Endpoint

/// Issue 61 items 12 and 13: biometric login for members who signed in with the password, and
/// turning it on later than the login's five minutes, asked before any biometric prompt.
@Suite("Enrolment later and at the password's level")
struct EnrolmentConfirmationTests {
    private static let face = BiometryAvailability.available(.face)

    /// A signed-in machine at home without a device key, its session begun with `method`.
    private static func atHome(lastMethod: LoginMethod = .bankID) -> AuthMachine {
        var context = AuthContext(biometry: face, hasSession: true, deviceKeyEnrolled: false, online: true)
        context.lastMethod = lastMethod
        var machine = AuthMachine(context: context)
        _ = machine.handle(.launched(context))
        _ = machine.handle(.silentRefreshSucceeded)
        return machine
    }

    /// At the confirmation: the settings asked to enable, the driver found the login too old.
    private static func confirming(lastMethod: LoginMethod = .bankID) -> AuthMachine {
        var machine = atHome(lastMethod: lastMethod)
        _ = machine.handle(.settingsEnableBiometrics)
        _ = machine.handle(.enrolmentNeedsConfirmation(passwordAccepted: true))
        return machine
    }

    @Test("S7.3: past the login's window the confirmation shows; the password goes on to the prompt; a wrong one asks again; Cancel goes home")
    func passwordConfirmation() {
        var machine = Self.confirming(lastMethod: .password)
        #expect(machine.screen == .enrolmentConfirmation(passwordFirst: true, message: nil))
        #expect(machine.isUnlocked, "the member is signed in and in the app")
        #expect(machine.handle(.enrolmentPasswordSubmitted) == [.enrolDeviceKey])
        #expect(machine.screen == .enrolling)
        #expect(machine.handle(.enrolmentConfirmationRefused(.wrongPassword)) == [])
        #expect(machine.screen == .enrolmentConfirmation(passwordFirst: true, message: .wrongPassword))
        #expect(machine.handle(.cancelTapped) == [])
        #expect(machine.screen == .home(nil))
        #expect(machine.context.hasSession)
    }

    @Test("S7.3: a BankID login chosen at the confirmation enrols once it completes; one abandoned returns home, still signed in")
    func loginConfirmation() {
        var machine = Self.confirming()
        #expect(machine.screen == .enrolmentConfirmation(passwordFirst: false, message: nil))
        #expect(machine.handle(.methodChosen(.bankID)) == [.openBrowser(.bankID)])
        #expect(machine.handle(.browserCancelled) == [.clearVerifier])
        #expect(machine.screen == .home(.bankIDCancelled), "not the login choices: the member is still signed in")
        #expect(!machine.context.enrolsAfterLogin)

        machine = Self.confirming()
        _ = machine.handle(.methodChosen(.vipps))
        _ = machine.handle(.browserReturnedCode)
        let effects = machine.handle(.loginCompleted)
        #expect(effects.contains(.enrolDeviceKey) && effects.contains(.fetchNotices) && effects.contains(.syncOfflineQueue), "\(effects)")
        #expect(machine.screen == .enrolling)
        #expect(!machine.context.enrolsAfterLogin, "one login, one enrolment")
    }

    @Test("A login from the method selection never returns home when abandoned, and a logout forgets the enrolment asked for")
    func noWayPastTheLogin() {
        var machine = Self.confirming()
        _ = machine.handle(.methodChosen(.bankID))
        _ = machine.handle(.logout)
        #expect(!machine.context.enrolsAfterLogin)
        _ = machine.handle(.methodChosen(.bankID))
        _ = machine.handle(.browserCancelled)
        #expect(machine.screen == .methodSelection(.bankIDCancelled))
    }

    @Test("Issue 61 item 12: a BankID or Vipps login raises a password-level key; a password login does not")
    func raiseAfterElectronicID() {
        for (method, raises) in [(LoginMethod.bankID, true), (.vipps, true), (.bankIDOrder, true), (.password, false)] {
            var context = AuthContext(biometry: Self.face, hasSession: true, deviceKeyEnrolled: true, online: true)
            context.deviceKeyIsPasswordLevel = true
            var machine = AuthMachine(context: context)
            _ = machine.handle(.launched(context))
            _ = machine.handle(.useOtherMethod)
            _ = machine.handle(.methodChosen(method))
            if method == .bankIDOrder { _ = machine.handle(.orderCompleted) } else { _ = machine.handle(.browserReturnedCode) }
            #expect(machine.handle(.loginCompleted).contains(.raiseDeviceKey) == raises, "\(method)")
        }
    }

    @Test("The confirmation's screen: the password field, BankID and Vipps, Cancel; in Bokmål, Nynorsk and English", arguments: Language.allCases)
    func screen(_ language: Language) {
        let model = ScreenModel(Self.confirming(lastMethod: .password), language: language)
        #expect(model.kind == .enrolmentConfirmation)
        #expect(model.passwordField == (language == .en ? "Password" : "Passord"))
        #expect(model.actions.map(\.id) == ["submit-password", "bankid", "vipps", "bankid-order", "cancel"])
        #expect(model.actions.first?.event == .enrolmentPasswordSubmitted && model.actions.first?.isProminent == true)
        #expect(model.banner?.contains(["nb": "fem minutter", "nn": "fem minutt", "en": "five minutes"][language.rawValue]!) == true)
        let afterBankID = ScreenModel(Self.confirming(lastMethod: .bankID), language: language)
        #expect(afterBankID.actions.map(\.id) == ["bankid", "vipps", "bankid-order", "submit-password", "cancel"])
    }

    // MARK: The driver

    /// A phone at home after a login whose access token says `acr` and `authTime`.
    private static func phone(acr: String = "urn:bankid:bid;LOA=4", authTime: Int = 1_800_000_000, asked: Asked) async throws -> TestPhone {
        let key = SoftwareDeviceKey(storage: nil, biometrics: { reason in await asked.record(reason) })
        let phone = TestPhone(biometry: face, session: true, key: key)
        try await phone.storage.write("refresh-0", for: .refreshToken)
        phone.server.on(Endpoint.token, .tokens(for: "per", refresh: "refresh-1", acr: acr, authTime: authTime))
        await phone.launch()
        return phone
    }

    private static func registered(_ assurance: DeviceAssurance) -> FakePortvakt.Reply {
        .ok(DeviceInfo(
            id: "device-1", name: "test phone", platform: "linux", biometricKind: "face", createdAt: "2027-01-15T08:00:00Z", lastUsedAt: nil, current: false,
            assurance: assurance
        ))
    }

    @Test("Issue 61 item 13: a login older than the window asks for the confirmation before any biometric prompt; a device unlock's session does too")
    func staleLoginAsksFirst() async throws {
        for (acr, authTime) in [("urn:bankid:bid;LOA=4", 1_800_000_000 - 300), ("urn:portvakt:acr:device-biometric", 1_800_000_000)] {
            let asked = Asked()
            let phone = try await Self.phone(acr: acr, authTime: authTime, asked: asked)
            await phone.driver.send(.settingsEnableBiometrics)
            #expect(await phone.screen == .enrolmentConfirmation(passwordFirst: false, message: nil), "\(acr)")
            #expect(await asked.reasons.isEmpty, "no Face ID before the confirmation")
            #expect(phone.server.requests(to: Endpoint.devices).isEmpty)
            // After a device unlock only a new login will do: the server takes no password there.
            let screen = ScreenModel(await phone.driver.machine, language: .en)
            let unlocked = acr.hasPrefix("urn:portvakt:acr:device-biometric")
            #expect((screen.passwordField == nil) == unlocked && screen.actions.contains { $0.id == "submit-password" } == !unlocked, "\(acr)")
            #expect(screen.actions.contains { $0.id == "bankid" })
        }
    }

    @Test("Issue 61 items 12, 13: the password confirms, then the prompt, then the registration with the elevated token; the key is password-level")
    func passwordThenPrompt() async throws {
        let asked = Asked()
        let phone = try await Self.phone(authTime: 1_800_000_000 - 600, asked: asked)
        phone.server.on("/v1/step-up/password", .refused(400, error: "access_denied", message: .wrongPassword), .ok(StepUpResponse(
            accessToken: "elevated-token", tokenType: "Bearer", expiresIn: 120, action: "device.enrol"
        )))
        phone.server.on(Endpoint.devices, Self.registered(.password))
        await phone.driver.send(.settingsEnableBiometrics)

        await phone.driver.confirmEnrolment(password: "not it")
        #expect(await phone.screen == .enrolmentConfirmation(passwordFirst: true, message: .wrongPassword))
        #expect(await asked.reasons.isEmpty, "a wrong password costs no prompt")

        await phone.driver.confirmEnrolment(password: "correct horse battery staple")
        #expect(await phone.screen == .home(.faceIDEnabled))
        #expect(await asked.reasons.count == 1)
        let stepUp = try #require(phone.server.requests(to: "/v1/step-up/password").last)
        #expect(try JSONDecoder().decode([String: String].self, from: stepUp.body)["action"] == "device.enrol")
        #expect(phone.server.requests(to: Endpoint.devices).first?.header("Authorization") == "Bearer elevated-token")
        #expect(try await phone.storage.readString(.deviceAssurance) == "password")
        #expect(await phone.driver.machine.context.deviceKeyIsPasswordLevel)
        #expect(await phone.driver.enrolmentPassword == nil, "the password is not kept")
    }

    @Test("Issue 61 item 13: when the server counts the login as older than the phone did, the key it refused goes and the confirmation is asked for")
    func serverSaysTooLate() async throws {
        let asked = Asked()
        let phone = try await Self.phone(asked: asked)
        phone.server.on(Endpoint.devices, .refused(403, error: "login_required", message: .recentLoginRequired))
        await phone.driver.send(.settingsEnableBiometrics)
        #expect(await phone.screen == .enrolmentConfirmation(passwordFirst: false, message: nil))
        #expect(await asked.reasons.count == 1)
        #expect(await phone.key.exists() == false)
    }

    @Test("S7.4: setting up again keeps the key in place until the new one is registered; a confirmation asked for first leaves it working")
    func setUpAgain() async throws {
        let asked = Asked()
        let phone = try await Self.phone(authTime: 1_800_000_000 - 600, asked: asked)
        try await phone.storage.write("device-old", for: .deviceID)
        await phone.driver.send(.settingsReEnrol)
        #expect(await phone.screen == .enrolmentConfirmation(passwordFirst: false, message: nil))
        #expect(try await phone.storage.readString(.deviceID) == "device-old", "nothing deleted before the confirmation")
        #expect(phone.server.requests(to: Endpoint.device("device-old")).isEmpty, "nor revoked")

        let fresh = try await Self.phone(asked: asked)
        try await fresh.storage.write("device-old", for: .deviceID)
        fresh.server.on(Endpoint.devices, Self.registered(.electronicID))
        fresh.server.on(Endpoint.device("device-old"), .status(204, Data()))
        await fresh.driver.send(.settingsReEnrol)
        #expect(await fresh.screen == .home(.faceIDEnabled))
        #expect(try await fresh.storage.readString(.deviceID) == "device-1")
        #expect(fresh.server.requests(to: Endpoint.device("device-old")).map(\.method) == ["DELETE"], "the old key revoked after the new one is registered")
        #expect(fresh.server.paths.firstIndex(of: Endpoint.devices)! < fresh.server.paths.firstIndex(of: Endpoint.device("device-old"))!)
    }

    @Test("Issue 61 item 12: after a BankID login the driver raises the password-level key and remembers it is no longer")
    func raiseIsStored() async throws {
        let phone = TestPhone(biometry: Self.face, session: true, enrolled: true)
        try await phone.storage.write("refresh-0", for: .refreshToken)
        try await phone.storage.write("device-1", for: .deviceID)
        try await phone.storage.write("password", for: .deviceAssurance)
        phone.server.on(Endpoint.token, .tokens(for: "per", refresh: "refresh-1"))
        phone.server.on(Endpoint.device("device-1") + "/raise", Self.registered(.electronicID))
        let stored = await AuthContext.stored(in: phone.storage, tokens: phone.tokens, biometry: Self.face, online: true, at: FakeClock.start)
        #expect(stored.deviceKeyIsPasswordLevel, "a launch knows the key's level")
        try await phone.tokens.signedIn(TokenSet(accessToken: FakePortvakt.accessToken(for: "per"), refreshToken: "refresh-1", expiresAt: .distantFuture))
        await phone.driver.perform(.raiseDeviceKey, attempt: await phone.driver.attempt)
        #expect(phone.server.requests(to: Endpoint.device("device-1") + "/raise").count == 1)
        #expect(try await phone.storage.readString(.deviceAssurance) == nil)
        let relaunched = await AuthContext.stored(in: phone.storage, tokens: phone.tokens, biometry: Self.face, online: true, at: FakeClock.start)
        #expect(!relaunched.deviceKeyIsPasswordLevel)
    }
}
