import Foundation
import Observation
import PortvaktKit
import PortvaktProtocol
import Synchronization
import Testing

/// What the Apple adapters are told by the core (issue 47): each decision here, tested on Linux,
/// so the adapters only call Apple's API.
@Suite("Decisions for the platform adapters")
struct PlatformDecisionsTests {
    // MARK: Item 1, the browser

    @Test("S1.1, S2.1: the in-app browser is given the redirect URI's scheme alone, or an https host and path")
    func browserCallback() {
        #expect(BrowserCallback(redirectURI: PortvaktConfiguration(baseURL: URL(string: "https://portvakt.example")!).redirectURI) == .customScheme("no.portvakt.app"))
        #expect(BrowserCallback(redirectURI: "no.nhf.likeperson:/oauth/callback") == .customScheme("no.nhf.likeperson"))
        #expect(BrowserCallback(redirectURI: "https://app.nhf.no/oauth/callback") == .https(host: "app.nhf.no", path: "/oauth/callback"))
        #expect(BrowserCallback(redirectURI: "http://127.0.0.1:5000/callback") == .loopback(URL(string: "http://127.0.0.1:5000/callback")!))
        for refused in ["", "oauth:/callback", "http://app.example/callback", "https://user@app.example/cb", "https://app.example:8443/cb", "not a uri"] {
            #expect(BrowserCallback(redirectURI: refused) == nil, "\(refused)")
        }
    }

    @Test("S2.1: only an answer at the app's own callback is taken")
    func callbackMatches() throws {
        let scheme = try #require(BrowserCallback(redirectURI: "no.portvakt.app:/oauth/callback"))
        #expect(scheme.matches(URL(string: "no.portvakt.app:/oauth/callback?code=c&state=s")!))
        #expect(scheme.matches(URL(string: "NO.PORTVAKT.APP:/oauth/callback?code=c")!), "schemes are case-insensitive")
        #expect(!scheme.matches(URL(string: "other.app:/oauth/callback?code=c")!))
        let link = try #require(BrowserCallback(redirectURI: "https://app.nhf.no/oauth/callback"))
        #expect(link.matches(URL(string: "https://app.nhf.no/oauth/callback?code=c")!))
        #expect(!link.matches(URL(string: "https://evil.example/oauth/callback?code=c")!))
        #expect(!link.matches(URL(string: "https://app.nhf.no/other?code=c")!))
    }

    @Test("S1.4: a cancel is quiet, a missing window is the app's fault, not a cancel")
    func browserErrors() {
        #expect(WebAuthenticationError(sessionErrorCode: 1) == .cancelled)
        #expect(WebAuthenticationError(sessionErrorCode: 2) == .cannotPresent)
        #expect(WebAuthenticationError(sessionErrorCode: 3) == .cannotPresent)
        #expect(WebAuthenticationError(sessionErrorCode: 99) == .failed)
        #expect(WebAuthenticationError(sessionErrorCode: nil) == .failed)
    }

    @Test("S2.1: a continuation resumes exactly once, whether the answer or the cancel comes first")
    func resumeOnce() async throws {
        let once = ResumeOnce<Int>()
        once.resume(throwing: WebAuthenticationError.cancelled)
        #expect(once.finish(.success(1)) == false, "a late answer after a cancel is dropped")
        await #expect(throws: WebAuthenticationError.cancelled) {
            _ = try await withCheckedThrowingContinuation { once.set($0) }
        }
        let answered = ResumeOnce<Int>()
        let value = try await withCheckedThrowingContinuation { continuation in
            answered.set(continuation)
            answered.resume(returning: 7)
            answered.resume(throwing: WebAuthenticationError.cancelled)
        }
        #expect(value == 7)
    }

    // MARK: Item 2, the Keychain

    @Test("S7, S12: only the biometric key is bound to the passcode; the session, the queue and the proof key stay readable after the first unlock")
    func accessibility() {
        #expect(SecureStorageKey.deviceKeyHandle.accessibility == .whenPasscodeSet)
        for key in SecureStorageKey.all where key != .deviceKeyHandle {
            #expect(key.accessibility == .afterFirstUnlock, "\(key.rawValue)")
        }
        for key in [SecureStorageKey.refreshToken, .pkceVerifier, .offlineQueue, .proofKey] {
            #expect(SecureStorageKey.all.contains(key))
        }
    }

    // MARK: Item 3, biometrics

    @Test("S6: errors mean what their domain and code say; an unknown one deletes nothing")
    func biometricErrorMapping() {
        let la = BiometricErrors.localAuthenticationDomain
        #expect(BiometricErrors.failure(domain: la, code: -2) == .cancelled)
        #expect(BiometricErrors.failure(domain: la, code: -4) == .cancelled)
        #expect(BiometricErrors.failure(domain: la, code: -9) == .cancelled)
        #expect(BiometricErrors.failure(domain: la, code: -3) == .fallbackChosen)
        #expect(BiometricErrors.failure(domain: la, code: -1) == .failed)
        #expect(BiometricErrors.failure(domain: la, code: -8) == .lockout)
        #expect(BiometricErrors.failure(domain: la, code: -7) == .notEnrolled)
        #expect(BiometricErrors.failure(domain: la, code: -5) == .passcodeNotSet)
        #expect(BiometricErrors.failure(domain: la, code: -6) == .notAvailable)
        #expect(BiometricErrors.failure(domain: la, code: -1004) == .unavailableNow)
        #expect(BiometricErrors.failure(domain: la, code: -4242) == .unavailableNow)
        let os = BiometricErrors.osStatusDomain
        #expect(BiometricErrors.failure(domain: os, code: -25308) == .unavailableNow, "errSecInteractionNotAllowed: locked")
        #expect(BiometricErrors.failure(domain: os, code: -25300) == .invalidated)
        #expect(BiometricErrors.failure(domain: os, code: -128) == .cancelled)
        #expect(BiometricErrors.failure(domain: "CryptoKit.CryptoKitError", code: 3) == .unavailableNow, "never 'anything else is invalidated'")
        #expect(BiometricErrors.availability(domain: la, code: -5) == .passcodeNotSet)
        #expect(BiometricErrors.availability(domain: la, code: -7) == .notEnrolled)
        #expect(BiometricErrors.availability(domain: la, code: -8) == .lockedOut)
        #expect(BiometricErrors.availability(domain: la, code: -6, hardwarePresent: true) == .offForThisApp, "Face ID there, turned off for the app")
        #expect(BiometricErrors.availability(domain: la, code: -6, hardwarePresent: false) == .notAvailable)
    }

    struct BrokenStorage: SecureStorage {
        func read(_ key: SecureStorageKey) async throws -> Data? { throw CancellationError() }
        func write(_ value: Data, for key: SecureStorageKey) async throws { throw CancellationError() }
        func delete(_ key: SecureStorageKey) async throws { throw CancellationError() }
    }

    @Test("S5, S16: a key that cannot be read now (a locked phone) is not a key that is gone")
    func unreadableIsNotGone() async throws {
        #expect(await BiometricErrors.storedHandle { nil } == .failure(.invalidated))
        #expect(await BiometricErrors.storedHandle { throw CancellationError() } == .failure(.unavailableNow))
        #expect(await BiometricErrors.storedHandle { Data([1]) } == .success(Data([1])))

        let key = SoftwareDeviceKey(storage: BrokenStorage())
        await #expect(throws: BiometricFailure.unavailableNow) { _ = try await key.sign(Data(), prompt: .signing(.unlock, language: .en)) }

        // The machine keeps the key and the session, counts no miss, and offers to try again.
        var machine = AuthMachine(context: AuthContext(biometry: .available(.face), hasSession: true, deviceKeyEnrolled: true, online: true))
        #expect(machine.handle(.launched(machine.context)) == [.unlockWithDeviceKey])
        #expect(machine.handle(.unlockFailed(.unavailableNow)) == [])
        #expect(machine.screen == .unlock(.biometricsUnavailableNow))
        #expect(machine.context.biometricFailures == 0 && machine.context.deviceKeyEnrolled && machine.context.hasSession)
        #expect(UserMessage.biometricsUnavailableNow.isRetryable)
    }

    @Test("S6.5: no passcode is its own state and message; the prompt's other button leads to BankID or Vipps, or at a step-up to the password")
    func passcodeAndFallback() {
        var noPasscode = AuthMachine(context: AuthContext(biometry: .passcodeNotSet, hasSession: true, deviceKeyEnrolled: true, online: true))
        _ = noPasscode.handle(.launched(noPasscode.context))
        #expect(noPasscode.screen == .biometricFallback(.passcodeNotSet))
        #expect(UserMessage.passcodeNotSet.text(.en).contains("passcode") && UserMessage.passcodeNotSet.text(.nb).contains("kode"))

        var machine = AuthMachine(context: AuthContext(biometry: .available(.face), hasSession: true, deviceKeyEnrolled: true, online: true))
        _ = machine.handle(.launched(machine.context))
        _ = machine.handle(.unlockFailed(.fallbackChosen))
        #expect(machine.screen == .methodSelection(nil))

        var gate = StepUpGate(action: .contactsRead)
        _ = gate.handle(.opened)
        _ = gate.handle(.failed(.fallbackChosen))
        #expect(gate.state == .enteringPassword(nil))

        #expect(BiometricPrompt.signing(.unlock, language: .en).fallbackTitle == "Use BankID or Vipps")
        #expect(BiometricPrompt.signing(.stepUp, action: .contactsRead, language: .nb).fallbackTitle == "Bruk passord")
        #expect(BiometricPrompt.enrolment(.en).fallbackTitle.isEmpty, "an empty title hides Apple's \"Enter Password\"")
    }

    @Test("S6.4: a changed enrolment is detected from the recorded state; an OS update that changed the state alone deletes nothing")
    func enrolmentChange() {
        let recorded = BiometricEnrolment.record(Data([1, 2, 3]), kind: 2)
        #expect(BiometricEnrolment.verdict(enrolledUnder: recorded, now: BiometricEnrolment.record(Data([1, 2, 3]), kind: 2)) == .unchanged)
        #expect(BiometricEnrolment.verdict(enrolledUnder: recorded, now: BiometricEnrolment.record(Data([9]), kind: 2)) == .changed)
        #expect(BiometricEnrolment.verdict(enrolledUnder: nil, now: recorded) == .unknown, "a key from before the state was kept")
        #expect(BiometricEnrolment.verdict(enrolledUnder: recorded, now: nil) == .unknown)
        #expect(BiometricEnrolment.verdict(enrolledUnder: recorded, now: BiometricEnrolment.record(Data([1, 2, 3]), kind: 1)) == .unknown, "two kinds of state are never compared")
        #expect(BiometricEnrolment.record(Data(), kind: 2) == nil)

        #expect(BiometricEnrolment.signingFailure(.unavailableNow, after: .changed) == .invalidated)
        #expect(BiometricEnrolment.signingFailure(.cancelled, after: .changed) == .cancelled)
        #expect(BiometricEnrolment.signingFailure(.unavailableNow, after: .unchanged) == .unavailableNow)
        #expect(BiometricEnrolment.shouldRecord(after: .changed) && BiometricEnrolment.shouldRecord(after: .unknown))
        #expect(!BiometricEnrolment.shouldRecord(after: .unchanged))
        // After Face ID passed, the enclave refusing the key is the key gone (no record needed).
        #expect(BiometricEnrolment.enclaveRefusal(domain: "CryptoKit.CryptoKitError", code: 3, after: .unknown) == .invalidated)
        #expect(BiometricEnrolment.enclaveRefusal(domain: BiometricErrors.localAuthenticationDomain, code: -2, after: .changed) == .cancelled)
    }

    @Test("S25.3: after Face ID passed, a refusal under the enrolment the key was made with is what its error says; only a changed or unknown enrolment deletes the key")
    func refusalUnderTheSameEnrolment() {
        let os = BiometricErrors.osStatusDomain
        #expect(BiometricEnrolment.enclaveRefusal(domain: os, code: -25308, after: .unchanged) == .unavailableNow, "the phone locked between prompt and signature")
        #expect(BiometricEnrolment.enclaveRefusal(domain: "CryptoKit.CryptoKitError", code: 3, after: .unchanged) == .unavailableNow)
        #expect(BiometricEnrolment.enclaveRefusal(domain: os, code: -25300, after: .unchanged) == .invalidated, "a key the Keychain no longer has")
        #expect(BiometricEnrolment.enclaveRefusal(domain: os, code: -25308, after: .changed) == .invalidated)
        #expect(BiometricEnrolment.enclaveRefusal(domain: os, code: -25308, after: .unknown) == .invalidated)
        #expect(BiometricEnrolment.enclaveRefusal(domain: BiometricErrors.localAuthenticationDomain, code: -2, after: .unchanged) == .cancelled)
    }

    @Test("S25.1: the Keychain service is the app's bundle identifier, so apps sharing an access group keep their sessions apart")
    func keychainServiceIsTheApps() {
        #expect(PortvaktPlatform.keychainService(bundleIdentifier: "no.nhf.likeperson") == "no.nhf.likeperson")
        #expect(PortvaktPlatform.keychainService(bundleIdentifier: "no.hlf.likeperson") != PortvaktPlatform.keychainService(bundleIdentifier: "no.nhf.likeperson"))
        #expect(PortvaktPlatform.keychainService(bundleIdentifier: nil) == "no.portvakt.sdk")
        #expect(PortvaktPlatform.keychainService(bundleIdentifier: "") == "no.portvakt.sdk")
    }

    // MARK: Item 4, the proof key

    @Test("S7: the proof key is made once, restored after, and a storage that cannot be read is not an empty one")
    func proofKeyMaker() async throws {
        let made = Mutex(0)
        let counting = ProofKeyMaker(
            protection: .software,
            create: {
                made.withLock { $0 += 1 }
                return try ProofKeyMaker.software.create()
            },
            restore: { try ProofKeyMaker.software.restore($0) }
        )
        let storage = MemorySecureStorage()
        let key = StoredProofKey(storage: storage, maker: counting)
        #expect(key.protection == .software)
        let first = try await key.publicKey()
        #expect(try await StoredProofKey(storage: storage, maker: counting).publicKey() == first, "restored after a restart")
        #expect(made.withLock { $0 } == 1)

        await #expect(throws: CancellationError.self) { _ = try await StoredProofKey(storage: BrokenStorage(), maker: counting).publicKey() }
        #expect(made.withLock { $0 } == 1, "no new key over one that could not be read")
    }

    // MARK: Items 6, 9 and 10

    @Test("S7.2: turning biometric login off asks first; Cancel keeps it")
    func disableAsksFirst() {
        var machine = AuthMachine(context: AuthContext(biometry: .available(.face), hasSession: true, deviceKeyEnrolled: true, online: true))
        #expect(machine.handle(.settingsDisableBiometrics) == [], "nothing is deleted without the question")
        #expect(machine.handle(.settingsDisableRequested) == [])
        let asking = BiometricSettingsModel(machine, language: .en)
        #expect(asking.status == "Turn off Face ID? Next time you log in with BankID or Vipps.")
        #expect(asking.actions.map(\.event) == [.settingsDisableBiometrics, .settingsDisableCancelled])
        #expect(machine.handle(.settingsDisableCancelled) == [])
        #expect(machine.context.deviceKeyEnrolled)
        _ = machine.handle(.settingsDisableRequested)
        #expect(machine.handle(.settingsDisableBiometrics) == [.deleteDeviceKey, .forgetStoredSession])
        #expect(!machine.context.deviceKeyEnrolled)
    }

    @Test("S3.4: the error text has 4.5:1 against the light and the dark background (a system red has about 3.5:1)")
    func errorContrast() {
        #expect(Palette.errorOnLight.contrast(with: Palette.lightBackground) >= 4.5)
        #expect(Palette.errorOnDark.contrast(with: Palette.darkBackground) >= 4.5)
        #expect(Palette.errorOnDark.contrast(with: Palette.Colour(red: 0, green: 0, blue: 0)) >= 4.5)
        let systemRed = Palette.Colour(red: 0xFF, green: 0x3B, blue: 0x30)
        #expect(systemRed.contrast(with: Palette.lightBackground) < 4.5, "the contrast measure tells them apart")
        #expect(abs(Palette.Colour(red: 0, green: 0, blue: 0).contrast(with: Palette.lightBackground) - 21) < 0.01)
    }
}
