import Foundation
import PortvaktKit
import PortvaktProtocol
import Testing

/// Each acceptance criterion of the seeds' stories (../shared/STORIES.md) that the login journey
/// decides, as a named test of the state machine.
@Suite("The login journey (stories S1–S14)")
struct AuthMachineTests {
    private static let face = BiometryAvailability.available(.face)
    private static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A machine after launch with this context.
    private static func launched(
        biometry: BiometryAvailability = face, session: Bool = false, key: Bool = false, online: Bool = true
    ) -> (AuthMachine, [AuthEffect]) {
        let context = AuthContext(biometry: biometry, hasSession: session, deviceKeyEnrolled: key, online: online)
        var machine = AuthMachine(context: context)
        let effects = machine.handle(.launched(context))
        return (machine, effects)
    }

    /// A machine that has just finished a first BankID login in the browser.
    private static func loggedIn(biometry: BiometryAvailability = face) -> AuthMachine {
        var (machine, _) = launched(biometry: biometry)
        _ = machine.handle(.methodChosen(.bankID))
        _ = machine.handle(.browserReturnedCode)
        _ = machine.handle(.loginCompleted)
        return machine
    }

    // MARK: S1 BankID in the browser, S2 Vipps

    @Test func S1_1_bankIDOpensTheBrowser() {
        var (machine, _) = Self.launched()
        #expect(machine.handle(.methodChosen(.bankID)) == [.openBrowser(.bankID)], "the platform stores a verifier, then opens the browser")
        #expect(machine.screen == .browser(.bankID))
    }

    @Test func S1_2_theCodeIsExchangedForASession() {
        var (machine, _) = Self.launched()
        _ = machine.handle(.methodChosen(.bankID))
        #expect(machine.handle(.browserReturnedCode) == [.exchangeCode])
        #expect(machine.screen == .completingLogin)
    }

    @Test func S1_3_successOpensHomeAfterTheOffer() {
        var machine = Self.loggedIn()
        #expect(machine.context.hasSession)
        #expect(machine.handle(.enrolmentDeclined) == [])
        #expect(machine.screen == .home(nil))
    }

    @Test func S1_4_cancelInTheBrowserReturnsQuietly() {
        var (machine, _) = Self.launched()
        _ = machine.handle(.methodChosen(.bankID))
        #expect(machine.handle(.browserCancelled) == [.clearVerifier])
        #expect(machine.screen == .methodSelection(.bankIDCancelled))
        #expect(UserMessage.bankIDCancelled.isQuiet, "no error dialog")
        #expect(UserMessage.bankIDCancelled.text(.en) == "BankID login was cancelled")
    }

    @Test func S1_5_anOutageShowsItsMessage() {
        var (machine, _) = Self.launched()
        _ = machine.handle(.methodChosen(.bankID))
        _ = machine.handle(.browserFailed(UserMessage(serverID: "bankid_unavailable")))
        #expect(machine.screen == .methodSelection(.bankIDUnavailable))
        #expect(UserMessage.bankIDUnavailable.text(.en) == "BankID is temporarily unavailable. Try Vipps instead or retry later")
    }

    @Test func S2_1_vippsOpensTheBrowser() {
        var (machine, _) = Self.launched()
        #expect(machine.handle(.methodChosen(.vipps)) == [.openBrowser(.vipps)])
    }

    @Test func S2_4_aFailedExchangeSaysLoginFailed() {
        var (machine, _) = Self.launched()
        _ = machine.handle(.methodChosen(.vipps))
        _ = machine.handle(.browserReturnedCode)
        #expect(machine.handle(.loginFailed(.loginFailed)) == [.clearVerifier], "the verifier is cleared after failure")
        #expect(machine.screen == .methodSelection(.loginFailed))
        #expect(UserMessage.loginFailed.text(.en) == "Login failed — please try again")
    }

    @Test func S10_2_unknownServerMessagesBecomeTheGenericOne() {
        #expect(UserMessage(serverID: "internal_error_42") == .loginFailed)
        #expect(UserMessage(serverID: nil) == .loginFailed)
    }

    // MARK: S3 BankID order flow

    @Test func S3_6_loadingAsSoonAsTheOrderStarts() {
        var (machine, _) = Self.launched()
        #expect(machine.handle(.methodChosen(.bankIDOrder)) == [.startBankIDOrder])
        #expect(machine.screen == .bankIDOrder(BankIDOrderProgress()))
    }

    @Test func S3_3_S3_4_theSessionRefIsStoredAndTheAppOpened() throws {
        var (machine, _) = Self.launched()
        _ = machine.handle(.methodChosen(.bankIDOrder))
        let link = try #require(URL(string: "bankid:///?autostarttoken=abc&redirect=null"))
        #expect(machine.handle(.orderStarted(launchURL: link, at: Self.start)) == [.storeBankIDSessionRef, .openBankIDApp(link), .pollBankIDOrder])
    }

    @Test func S3_5_QRCodeWhenTheBankIDAppDidNotOpen() throws {
        var (machine, _) = Self.launched()
        _ = machine.handle(.methodChosen(.bankIDOrder))
        _ = machine.handle(.orderStarted(launchURL: try #require(URL(string: "bankid:///")), at: Self.start))
        _ = machine.handle(.bankIDAppOpened(false))
        guard case .bankIDOrder(let progress) = machine.screen else { Issue.record("left the order"); return }
        #expect(progress.showsQRCode)
    }

    @Test func S3_7_noResultWithinThreeMinutesClearsTheSessionRef() throws {
        var (machine, _) = Self.launched()
        _ = machine.handle(.methodChosen(.bankIDOrder))
        _ = machine.handle(.orderStarted(launchURL: try #require(URL(string: "bankid:///")), at: Self.start))
        #expect(machine.handle(.tick(Self.start.addingTimeInterval(179))) == [])
        #expect(machine.handle(.tick(Self.start.addingTimeInterval(180))) == [.stopPollingBankIDOrder, .cancelBankIDOrder, .clearBankIDSessionRef])
        #expect(machine.screen == .methodSelection(.bankIDExpired))
    }

    @Test func S3_8_cancelAtAnyTimeCancelsAtTheServer() throws {
        var (machine, _) = Self.launched()
        _ = machine.handle(.methodChosen(.bankIDOrder))
        _ = machine.handle(.orderStarted(launchURL: try #require(URL(string: "bankid:///")), at: Self.start))
        _ = machine.handle(.orderPending("Start your BankID app"))
        #expect(machine.handle(.cancelTapped) == [.stopPollingBankIDOrder, .cancelBankIDOrder, .clearBankIDSessionRef])
        #expect(machine.screen == .methodSelection(nil))
    }

    @Test func S3_completedOrderExchangesTheCodeAndClearsTheRef() throws {
        var (machine, _) = Self.launched()
        _ = machine.handle(.methodChosen(.bankIDOrder))
        _ = machine.handle(.orderStarted(launchURL: try #require(URL(string: "bankid:///")), at: Self.start))
        #expect(machine.handle(.orderCompleted) == [.stopPollingBankIDOrder, .clearBankIDSessionRef, .exchangeCode])
    }

    @Test func S3_anOrderStartAfterCancelIsCancelledToo() throws {
        var (machine, _) = Self.launched()
        _ = machine.handle(.methodChosen(.bankIDOrder))
        _ = machine.handle(.cancelTapped)
        #expect(machine.handle(.orderStarted(launchURL: try #require(URL(string: "bankid:///")), at: Self.start)) == [.cancelBankIDOrder])
        #expect(machine.screen == .methodSelection(nil))
    }

    // MARK: S4 the biometric offer

    @Test func S4_1_theOfferFollowsAFirstLogin() {
        #expect(Self.loggedIn().screen == .enrolmentOffer(.face))
    }

    @Test func S4_2_acceptingStoresTheKeyAndConfirms() {
        var machine = Self.loggedIn()
        #expect(machine.handle(.enrolmentAccepted) == [.enrolDeviceKey])
        _ = machine.handle(.enrolmentFinished(nil))
        #expect(machine.screen == .home(.faceIDEnabled))
        #expect(machine.context.deviceKeyEnrolled)
        #expect(UserMessage.faceIDEnabled.text(.en) == "Face ID enabled")
    }

    @Test("S4.2, S6: an enrolment the device refuses leaves biometrics off and says why; a cancelled or missed prompt says nothing", arguments: [
        (BiometricFailure.cancelled, nil), (.fallbackChosen, nil), (.failed, nil), (.lockout, .biometricLockedOut),
        (.invalidated, .biometricEnrolmentChanged), (.notEnrolled, .biometricsNotSetUp), (.passcodeNotSet, .passcodeNotSet),
        (.notAvailable, .biometricsNotAvailable), (.unavailableNow, .biometricsUnavailableNow),
    ] as [(BiometricFailure, UserMessage?)])
    func S4_2_aRefusedEnrolmentSaysWhy(failure: BiometricFailure, message: UserMessage?) {
        var machine = Self.loggedIn()
        _ = machine.handle(.enrolmentAccepted)
        _ = machine.handle(.enrolmentFinished(failure))
        #expect(machine.screen == .home(message))
        #expect(!machine.context.deviceKeyEnrolled)
    }

    @Test func S4_3_decliningIsNotAskedAgainInTheSameSession() {
        var machine = Self.loggedIn()
        _ = machine.handle(.enrolmentDeclined)
        _ = machine.handle(.logout)
        _ = machine.handle(.methodChosen(.vipps))
        _ = machine.handle(.browserReturnedCode)
        _ = machine.handle(.loginCompleted)
        #expect(machine.screen == .home(nil))
    }

    @Test func S4_4_biometricsNotSetUpPointsToTheSettings() {
        #expect(Self.loggedIn(biometry: .notEnrolled).screen == .enrolmentOffer(nil))
        #expect(UserMessage.biometricsNotSetUp.text(.en).contains("device settings"))
    }

    @Test func S4_5_noHardwareSkipsTheOfferSilently() {
        #expect(Self.loggedIn(biometry: .notAvailable).screen == .home(nil))
    }

    @Test func S4_6_afterEnrollingTheAppOpensWithThePrompt() {
        let (machine, effects) = Self.launched(session: true, key: true)
        #expect(effects == [.unlockWithDeviceKey])
        #expect(machine.screen == .unlocking)
    }

    // MARK: S5 unlock

    @Test func S5_1_theReturningUserSeesThePromptAtOnce() {
        #expect(Self.launched(session: true, key: true).1 == [.unlockWithDeviceKey])
    }

    @Test func S5_2_successOpensHome() {
        var (machine, _) = Self.launched(session: true, key: true)
        #expect(machine.handle(.unlockSucceeded(offline: false)) == [.syncOfflineQueue])
        #expect(machine.screen == .home(nil))
    }

    @Test func S5_3_S8_2_aSessionWithoutAKeyResumesSilently() {
        var (machine, effects) = Self.launched(session: true, key: false)
        #expect(effects == [.refreshSilently])
        #expect(machine.screen == .launching)
        _ = machine.handle(.silentRefreshSucceeded)
        #expect(machine.screen == .home(nil))
    }

    @Test func S5_4_aSessionThatCannotBeRestoredGoesToLogin() {
        var (machine, _) = Self.launched(session: true, key: true)
        #expect(machine.handle(.unlockRefused(.sessionExpired)) == [.clearSession])
        #expect(machine.screen == .methodSelection(.sessionExpired))
        #expect(UserMessage.sessionExpired.text(.en) == "Your session has expired — please log in again")
    }

    @Test func S5_4_deviceTrustOverAsksForBankIDOrVipps() {
        var (machine, _) = Self.launched(session: true, key: true)
        _ = machine.handle(.unlockRefused(.reauthenticationRequired))
        #expect(machine.screen == .methodSelection(.reauthenticationRequired))
    }

    // MARK: S6 fallback

    @Test func S6_1_aFailureShowsAFriendlyMessage() {
        var (machine, _) = Self.launched(session: true, key: true)
        _ = machine.handle(.unlockFailed(.failed))
        #expect(machine.screen == .unlock(.biometricFailed))
    }

    @Test func S6_2_aChangedEnrolmentClearsTheStaleKey() {
        var (machine, _) = Self.launched(session: true, key: true)
        #expect(machine.handle(.unlockFailed(.invalidated)) == [.deleteDeviceKey, .clearSession], "the session goes with the key")
        #expect(machine.screen == .methodSelection(.biometricEnrolmentChanged))
        #expect(!machine.context.deviceKeyEnrolled && !machine.context.hasSession)
    }

    @Test func S6_3_threeFailuresOfferFallback() {
        var (machine, _) = Self.launched(session: true, key: true)
        _ = machine.handle(.unlockFailed(.failed))
        _ = machine.handle(.retryUnlock)
        _ = machine.handle(.unlockFailed(.failed))
        #expect(machine.screen == .unlock(.biometricFailed), "two misses: still the unlock screen")
        _ = machine.handle(.retryUnlock)
        _ = machine.handle(.unlockFailed(.failed))
        #expect(machine.screen == .biometricFallback(.tooManyBiometricFailures))
    }

    /// Kari unlocked and is on the home screen at `t0`.
    private static func atHome(lockAfter: TimeInterval = AuthContext.defaultLockAfter, key: Bool = true) -> AuthMachine {
        var context = AuthContext(biometry: face, hasSession: true, deviceKeyEnrolled: key, online: true)
        context.lockAfter = lockAfter
        var machine = AuthMachine(context: context)
        _ = machine.handle(.launched(context))
        _ = key ? machine.handle(.unlockSucceeded(offline: false)) : machine.handle(.silentRefreshSucceeded)
        return machine
    }

    private static let t0 = ContinuousClock.now

    @Test func S16_1_afterFiveMinutesInTheBackgroundTheAppAsksAgainBeforeShowingAnything() {
        var machine = Self.atHome()
        #expect(machine.handle(.enteredBackground(Self.t0)) == [])
        #expect(machine.handle(.returnedToForeground(Self.t0.advanced(by: .seconds(5 * 60)), biometry: Self.face)) == [.unlockWithDeviceKey])
        #expect(machine.screen == .unlocking, "the home screen is not shown before the check")
        #expect(machine.handle(.unlockSucceeded(offline: false)) == [.syncOfflineQueue])
        #expect(machine.screen == .home(nil))
    }

    @Test func S16_1_aShortTripToTheBackgroundDoesNotLock() {
        var machine = Self.atHome()
        _ = machine.handle(.enteredBackground(Self.t0))
        #expect(machine.handle(.returnedToForeground(Self.t0.advanced(by: .seconds(5 * 60 - 1)), biometry: Self.face)) == [])
        #expect(machine.screen == .home(nil))
        // The next trip is measured from its own start, not the first one's.
        _ = machine.handle(.enteredBackground(Self.t0.advanced(by: .seconds(600))))
        #expect(machine.handle(.returnedToForeground(Self.t0.advanced(by: .seconds(660)), biometry: Self.face)) == [])
    }

    @Test func S16_1_theTimeIsConfigurableAndARepeatedReportDoesNotRestartIt() {
        var quick = Self.atHome(lockAfter: 60)
        _ = quick.handle(.enteredBackground(Self.t0))
        _ = quick.handle(.enteredBackground(Self.t0.advanced(by: .seconds(50))))
        #expect(quick.handle(.returnedToForeground(Self.t0.advanced(by: .seconds(61)), biometry: Self.face)) == [.unlockWithDeviceKey])
    }

    @Test func S16_1_anUnlockAnsweredAfterALongAbsenceDoesNotOpenHomeWithoutANewCheck() {
        var (machine, _) = Self.launched(session: true, key: true)
        #expect(machine.screen == .unlocking)
        _ = machine.handle(.enteredBackground(Self.t0))
        #expect(machine.handle(.returnedToForeground(Self.t0.advanced(by: .seconds(600)), biometry: Self.face)) == [])
        #expect(machine.handle(.unlockSucceeded(offline: true)) == [.unlockWithDeviceKey])
        #expect(machine.screen == .unlocking)
        #expect(machine.handle(.unlockSucceeded(offline: false)) == [.syncOfflineQueue])
        #expect(machine.screen == .home(nil))
    }

    @Test func S16_1_withoutADeviceKeyOrOutsideHomeNothingLocks() {
        var noKey = Self.atHome(key: false)
        #expect(noKey.screen == .home(nil))
        _ = noKey.handle(.enteredBackground(Self.t0))
        #expect(noKey.handle(.returnedToForeground(Self.t0.advanced(by: .seconds(3600)), biometry: Self.face)) == [])
        // Away in the BankID app during an order: coming back continues the order.
        var (ordering, _) = Self.launched()
        _ = ordering.handle(.methodChosen(.bankIDOrder))
        _ = ordering.handle(.enteredBackground(Self.t0))
        #expect(ordering.handle(.returnedToForeground(Self.t0.advanced(by: .seconds(3600)), biometry: Self.face)) == [])
        #expect(ordering.screen == .bankIDOrder(BankIDOrderProgress()))
    }

    @Test func S16_1_aSensorLockedWhileAwayGoesToTheFallbackOnReturn() {
        var machine = Self.atHome()
        _ = machine.handle(.enteredBackground(Self.t0))
        #expect(machine.handle(.returnedToForeground(Self.t0.advanced(by: .seconds(600)), biometry: .lockedOut)) == [])
        #expect(machine.screen == .biometricFallback(.biometricLockedOut))
    }

    @Test func S16_2_theFailureCountIsStoredAndSurvivesARelaunch() {
        var (first, _) = Self.launched(session: true, key: true)
        #expect(first.handle(.unlockFailed(.failed)) == [.storeBiometricFailures(1)])
        _ = first.handle(.retryUnlock)
        #expect(first.handle(.unlockFailed(.failed)) == [.storeBiometricFailures(2)])
        #expect(first.screen == .unlock(.biometricFailed))
        // The app is closed; the next launch starts with the stored count, and one more miss falls back.
        let context = AuthContext(biometry: Self.face, hasSession: true, deviceKeyEnrolled: true, online: true, biometricFailures: 2)
        var second = AuthMachine(context: context)
        #expect(second.handle(.launched(context)) == [.unlockWithDeviceKey])
        #expect(second.handle(.unlockFailed(.failed)) == [.storeBiometricFailures(3)])
        #expect(second.screen == .biometricFallback(.tooManyBiometricFailures))
    }

    @Test func S16_2_atTheLimitARelaunchFallsBackWithoutAPromptUntilALogin() {
        let context = AuthContext(biometry: Self.face, hasSession: true, deviceKeyEnrolled: true, online: true, biometricFailures: 3)
        var machine = AuthMachine(context: context)
        #expect(machine.handle(.launched(context)) == [], "no prompt")
        #expect(machine.screen == .biometricFallback(.tooManyBiometricFailures))
        _ = machine.handle(.useOtherMethod)
        _ = machine.handle(.methodChosen(.password))
        _ = machine.handle(.browserReturnedCode)
        #expect(machine.handle(.loginCompleted).first == .storeBiometricFailures(0), "a login starts the count over, in storage too")
        #expect(machine.context.biometricFailures == 0)
    }

    @Test func S16_2_anUnlockStartsTheCountOverOnlyWhenThereIsOne() {
        var (machine, _) = Self.launched(session: true, key: true)
        #expect(machine.handle(.unlockSucceeded(offline: true)) == [], "nothing stored when nothing was counted")
        var (missed, _) = Self.launched(session: true, key: true)
        _ = missed.handle(.unlockFailed(.failed))
        _ = missed.handle(.retryUnlock)
        #expect(missed.handle(.unlockSucceeded(offline: false)) == [.storeBiometricFailures(0), .syncOfflineQueue])
    }

    @Test func S6_cancelKeepsTheUnlockScreenAndDoesNotCount() {
        var (machine, _) = Self.launched(session: true, key: true)
        for _ in 0..<5 {
            _ = machine.handle(.unlockFailed(.cancelled))
            #expect(machine.screen == .unlock(nil))
            _ = machine.handle(.retryUnlock)
        }
        #expect(machine.context.biometricFailures == 0)
    }

    @Test func S6_4_afterAFallbackLoginReEnrolmentIsOffered() {
        var (machine, _) = Self.launched(session: true, key: true)
        _ = machine.handle(.unlockFailed(.invalidated))
        _ = machine.handle(.methodChosen(.password))
        _ = machine.handle(.browserReturnedCode)
        _ = machine.handle(.loginCompleted)
        #expect(machine.screen == .enrolmentOffer(.face))
    }

    @Test func S6_5_S13_3_osLockoutGoesToTheFallbackAtOnce() {
        var (machine, _) = Self.launched(session: true, key: true)
        _ = machine.handle(.unlockFailed(.lockout))
        #expect(machine.screen == .biometricFallback(.biometricLockedOut))
        #expect(Self.launched(biometry: .lockedOut, session: true, key: true).0.screen == .biometricFallback(.biometricLockedOut))
    }

    // MARK: S7 settings

    @Test func S7_2_disablingRemovesTheKeyAndTheStoredSessionAtOnce() {
        var (machine, _) = Self.launched(session: true, key: true)
        _ = machine.handle(.unlockSucceeded(offline: false))
        // Once confirmed ("when they confirm the action").
        _ = machine.handle(.settingsDisableRequested)
        #expect(machine.handle(.settingsDisableBiometrics) == [.deleteDeviceKey, .forgetStoredSession])
        #expect(!machine.context.deviceKeyEnrolled && !machine.context.hasSession)
        var next = AuthMachine(context: machine.context)
        _ = next.handle(.launched(machine.context))
        #expect(next.screen == .methodSelection(nil), "later launches go to method selection")
    }

    @Test("S7.2: a question left open in the settings does not outlive the session: after a logout or a lock the key cannot be turned off by a stray confirmation")
    func S7_2_anOpenConfirmationEndsWithTheSession() {
        for ending in [AuthEvent.logout, .sessionExpired, .enteredBackground(.now - .seconds(3600))] {
            var (machine, _) = Self.launched(session: true, key: true)
            _ = machine.handle(.unlockSucceeded(offline: false))
            _ = machine.handle(.settingsDisableRequested)
            #expect(machine.context.confirmingBiometricsOff)
            _ = machine.handle(ending)
            if case .enteredBackground = ending { _ = machine.handle(.returnedToForeground(.now, biometry: Self.face)) }
            #expect(!machine.isUnlocked, "\(ending) left the session")
            #expect(!machine.context.confirmingBiometricsOff, "\(ending) closed the question")
        }
    }

    @Test("S5, S7.4: behind the lock the settings answer nothing: re-enrolling a new face cannot pass the unlock screen")
    func S7_4_settingsWaitForTheBiometricCheck() {
        var (machine, _) = Self.launched(session: true, key: true)
        _ = machine.handle(.unlockFailed(.cancelled))
        #expect(machine.screen == .unlock(nil))
        for event in [AuthEvent.settingsReEnrol, .settingsEnableBiometrics, .settingsDisableRequested, .settingsDisableBiometrics] {
            #expect(machine.handle(event) == [], "\(event) on the unlock screen")
            #expect(machine.screen == .unlock(nil) && machine.context.deviceKeyEnrolled)
        }
    }

    @Test("S6.2, S25.3: a step-up that finds the device key gone ends the session as the unlock does; S5: only an unlocked run may step up")
    func S6_2_aStepUpFindingTheKeyGoneEndsTheSession() {
        var (machine, _) = Self.launched(session: true, key: true)
        #expect(!machine.isUnlocked, "the prompt comes first")
        #expect(machine.handle(.stepUpKeyInvalidated) == [], "not from the unlock screen")
        _ = machine.handle(.unlockSucceeded(offline: false))
        #expect(machine.isUnlocked)
        #expect(machine.handle(.stepUpKeyInvalidated) == [.deleteDeviceKey, .clearSession])
        #expect(machine.screen == .methodSelection(.biometricEnrolmentChanged))
        #expect(!machine.context.deviceKeyEnrolled && !machine.context.hasSession)
    }

    @Test func S7_3_enablingStartsEnrolment() {
        var (machine, _) = Self.launched(session: true, key: false)
        _ = machine.handle(.silentRefreshSucceeded)
        #expect(machine.handle(.settingsEnableBiometrics) == [.enrolDeviceKey])
        #expect(machine.screen == .enrolling)
    }

    @Test func S7_4_reEnrolReplacesTheKey() {
        var (machine, _) = Self.launched(session: true, key: true)
        _ = machine.handle(.unlockSucceeded(offline: false))
        #expect(machine.handle(.settingsReEnrol) == [.enrolDeviceKey], "the key in place goes once the new one may be made (the driver)")
        #expect(machine.context.replacingDeviceKey && machine.context.deviceKeyEnrolled)
    }

    // MARK: S8 sessions, S12 offline, S13 unavailable biometrics

    @Test func S8_3_anExpiredRefreshTokenGoesToLoginWithTheMessage() {
        var (machine, _) = Self.launched(session: true, key: false)
        #expect(machine.handle(.sessionExpired) == [.clearSession])
        #expect(machine.screen == .methodSelection(.sessionExpired))
    }

    @Test func S12_2_offlineTheKeyUnlocksTheCachedSession() {
        var (machine, _) = Self.launched(session: true, key: true, online: false)
        #expect(machine.handle(.unlockSucceeded(offline: true)) == [])
        #expect(machine.screen == .home(.offline))
    }

    @Test func S12_4_backOnlineTheQueueIsSynced() {
        var (machine, _) = Self.launched(session: true, key: true, online: false)
        _ = machine.handle(.unlockSucceeded(offline: true))
        #expect(machine.handle(.networkChanged(online: true)) == [.syncOfflineQueue])
        #expect(machine.handle(.networkChanged(online: true)) == [], "once")
    }

    @Test func S13_1_S13_2_unavailableBiometricsSayWhy() {
        #expect(Self.launched(biometry: .notAvailable, session: true, key: true).0.screen == .biometricFallback(.biometricsNotAvailable))
        #expect(Self.launched(biometry: .notEnrolled, session: true, key: true).0.screen == .biometricFallback(.biometricsNotSetUp))
    }

    @Test("S13.2: Face ID turned off for this app (the hardware is there) says to turn it on in the app's settings, at launch, after a login and in settings")
    func S13_2_faceIDOffForThisAppPointsToItsSettings() {
        #expect(Self.launched(biometry: .offForThisApp, session: true, key: true).0.screen == .biometricFallback(.biometricsOffForThisApp))
        let offered = Self.loggedIn(biometry: .offForThisApp)
        #expect(offered.screen == .enrolmentOffer(nil))
        #expect(ScreenModel(offered, language: .en).message == UserMessage.biometricsOffForThisApp.text(.en))
        #expect(BiometricSettingsModel(offered, language: .nb).status == UserMessage.biometricsOffForThisApp.text(.nb))
        #expect(UserMessage.biometricsOffForThisApp.text(.en).contains("the app's settings"))
        #expect(!UserMessage.biometricsOffForThisApp.text(.en).contains("not available on this device"))
    }

    @Test func S14_1_passwordIsAFirstLoginAndAFallback() {
        var (machine, _) = Self.launched(session: true, key: true)
        _ = machine.handle(.unlockFailed(.lockout))
        _ = machine.handle(.useOtherMethod)
        #expect(machine.handle(.methodChosen(.password)) == [.openBrowser(.password)])
    }

    @Test func S8_1_withinTheSessionReopeningGoesHomeAfterTheCheck() {
        var (machine, effects) = Self.launched(session: true, key: true)
        #expect(effects == [.unlockWithDeviceKey], "enrolled: the check first")
        _ = machine.handle(.unlockSucceeded(offline: false))
        #expect(machine.screen == .home(nil))
        var (plain, refresh) = Self.launched(session: true, key: false)
        #expect(refresh == [.refreshSilently], "not enrolled: straight on, after a silent refresh")
        _ = plain.handle(.silentRefreshSucceeded)
        #expect(plain.screen == .home(nil))
    }

    @Test func S12_2_relaunchingOfflineWithoutAKeyOpensTheCachedSession() {
        var (machine, _) = Self.launched(session: true, key: false, online: false)
        #expect(machine.handle(.silentRefreshUnavailable) == [], "a network error is not a logout")
        #expect(machine.screen == .home(.offline))
        #expect(machine.context.hasSession)
    }

    @Test func S12_3_homeOfflineShowsACalmIndicator() {
        var (machine, _) = Self.launched(session: true, key: true, online: true)
        _ = machine.handle(.unlockSucceeded(offline: false))
        _ = machine.handle(.networkChanged(online: false))
        let screen = ScreenModel(machine, language: .en)
        #expect(screen.banner == UserMessage.offline.text(.en))
        #expect(screen.tone == nil, "not an error")
    }

    @Test func S10_1_everyLoginErrorHasAWayForward() {
        for message in [UserMessage.bankIDCancelled, .vippsCancelled, .loginFailed, .bankIDUnavailable, .vippsUnavailable, .notRegistered] {
            var (machine, _) = Self.launched()
            _ = machine.handle(.methodChosen(.vipps))
            _ = machine.handle(.browserFailed(message))
            let screen = ScreenModel(machine, language: .en)
            #expect(screen.actions.contains { $0.isProminent }, "\(message): a button to go on")
            #expect(screen.kind == .methodSelection)
        }
    }

    @Test func everyMessageHasBothLanguages() {
        for message in UserMessage.allCases {
            #expect(!message.text(.nb).isEmpty && !message.text(.en).isEmpty)
            #expect(message.text(.nb) != message.text(.en), "\(message) is not translated")
        }
    }

    // MARK: S16.3 Trust known before the prompt

    private static func relaunched(key: Bool, sessionEndsAt: Date?, trustEndsAt: Date?, at now: Date) -> (AuthMachine, [AuthEffect]) {
        var context = AuthContext(biometry: face, hasSession: true, deviceKeyEnrolled: key, online: true)
        context.sessionEndsAt = sessionEndsAt
        context.deviceTrustEndsAt = trustEndsAt
        context.launchedAt = now
        context.lastMethod = .vipps
        var machine = AuthMachine(context: context)
        let effects = machine.handle(.launched(context))
        return (machine, effects)
    }

    @Test func S16_3_aLapsedDeviceTrustIsKnownBeforeTheBiometricPrompt() {
        let (machine, effects) = Self.relaunched(key: true, sessionEndsAt: nil, trustEndsAt: Self.start, at: Self.start)
        #expect(machine.screen == .methodSelection(.reauthenticationRequired))
        #expect(effects == [.clearSession], "no prompt that could only lead to a refusal")
        #expect(ScreenModel(machine, language: .en).message?.hasPrefix("It has been a while since you logged in with BankID or Vipps") == true)
        #expect(ScreenModel(machine, language: .en).actions.first?.id == "vipps", "the method used last first")
        let (trusted, prompt) = Self.relaunched(key: true, sessionEndsAt: Self.start, trustEndsAt: Self.start.addingTimeInterval(1), at: Self.start)
        #expect(trusted.screen == .unlocking && prompt == [.unlockWithDeviceKey], "the device key makes a new session: only its trust counts")
    }

    @Test func S16_3_aLapsedSessionIsKnownBeforeTheSilentRefresh() {
        let (machine, effects) = Self.relaunched(key: false, sessionEndsAt: Self.start.addingTimeInterval(-1), trustEndsAt: nil, at: Self.start)
        #expect(machine.screen == .methodSelection(.sessionExpired) && effects == [.clearSession])
        let (unknown, refresh) = Self.relaunched(key: false, sessionEndsAt: nil, trustEndsAt: nil, at: Self.start)
        #expect(unknown.screen == .launching && refresh == [.refreshSilently], "without a known end the refresh decides, as before")
    }

    // MARK: S9.5 The no-nin notice in the app

    @Test func S9_5_aNoticeTheServerTellsOnceIsShownOnTheHomeScreen() {
        var (machine, _) = Self.launched(biometry: .notAvailable)
        _ = machine.handle(.methodChosen(.vipps))
        _ = machine.handle(.browserReturnedCode)
        #expect(machine.handle(.loginCompleted).contains(.fetchNotices), "after a login the app asks what to tell")
        _ = machine.handle(.noticeArrived(.personnummerNotRetrieved))
        #expect(machine.screen == .home(.personnummerNotRetrieved))
        let screen = ScreenModel(machine, language: .en)
        #expect(screen.messageID == "personnummer_not_retrieved" && screen.tone == .information)
        #expect(ScreenModel(machine, language: .nb).message?.hasPrefix("Vi fikk ikke hentet fødselsnummeret ditt") == true)
    }

    @Test func S9_5_aNoticeDuringTheEnrolmentOfferWaitsForTheHomeScreen() {
        var (machine, _) = Self.launched()
        _ = machine.handle(.methodChosen(.vipps))
        _ = machine.handle(.browserReturnedCode)
        _ = machine.handle(.loginCompleted)
        _ = machine.handle(.noticeArrived(.personnummerNotRetrieved))
        #expect(machine.screen == .enrolmentOffer(.face), "the offer is not interrupted")
        _ = machine.handle(.enrolmentDeclined)
        #expect(machine.screen == .home(.personnummerNotRetrieved))
        _ = machine.handle(.noticeArrived(.personnummerNotRetrieved))
        #expect(machine.context.pendingNotice == nil, "shown once")
    }

    @Test func S16_3_theMethodIsRememberedOnceItWorked() {
        var (machine, _) = Self.launched(biometry: .notAvailable)
        _ = machine.handle(.methodChosen(.vipps))
        _ = machine.handle(.browserCancelled)
        #expect(machine.context.lastMethod == nil, "a cancelled Vipps is not the method used last")
        _ = machine.handle(.methodChosen(.bankID))
        _ = machine.handle(.browserReturnedCode)
        #expect(machine.handle(.loginCompleted).contains(.storeLastMethod(.bankID)))
        #expect(machine.context.lastMethod == .bankID)
    }

    @Test func S16_3_aSessionThatEndedWhileAwayIsKnownOnReturn() {
        var context = AuthContext(biometry: Self.face, hasSession: true, deviceKeyEnrolled: true, online: true)
        context.deviceTrustEndsAt = Self.start.addingTimeInterval(3600)
        context.launchedAt = Self.start
        var machine = AuthMachine(context: context)
        _ = machine.handle(.launched(context))
        _ = machine.handle(.unlockSucceeded(offline: false))
        _ = machine.handle(.enteredBackground(Self.t0))
        let effects = machine.handle(.returnedToForeground(Self.t0.advanced(by: .seconds(7200)), biometry: Self.face, at: Self.start.addingTimeInterval(7200)))
        #expect(machine.screen == .methodSelection(.reauthenticationRequired) && effects == [.clearSession], "no prompt after the trust ended while away")
    }

    @Test func S2_4_aStrayCallbackDoesNotDisturbASignedInApp() {
        var machine = Self.loggedIn(biometry: .notAvailable)
        #expect(machine.handle(.browserReturnedCode) == [] && machine.handle(.loginFailed(.loginFailed)) == [])
        #expect(machine.handle(.browserFailed(.loginFailed)) == [])
        #expect(machine.screen == .home(nil))
    }
}
