import Foundation
import Observation
import PortvaktProtocol

/// ``Portvakt``'s state for SwiftUI: an `@Observable` model on the main actor, redrawn on every
/// transition. Views read ``screen`` (texts, VoiceOver labels and buttons decided by
/// ``ScreenModel``) and ``biometricSettings``, and send the user's actions with ``send(_:)``.
@MainActor
@Observable
public final class PortvaktModel {
    public private(set) var machine: AuthMachine
    public private(set) var screen: ScreenModel
    public private(set) var biometricSettings: BiometricSettingsModel
    /// A status to announce to VoiceOver (each change once): the screen's message when it changed.
    public private(set) var announcement: String?

    @ObservationIgnored public let portvakt: Portvakt
    /// The user's actions, delivered one at a time in the order they happened.
    @ObservationIgnored private let actions: AsyncStream<Action>.Continuation

    /// A tap, or the name typed for this phone just before the tap that enrols it.
    private enum Action: Sendable {
        case event(AuthEvent)
        case deviceName(String)
    }

    public init(_ portvakt: Portvakt) {
        self.portvakt = portvakt
        let machine = AuthMachine(context: AuthContext(biometry: .notAvailable, hasSession: false, deviceKeyEnrolled: false, online: true))
        self.machine = machine
        screen = ScreenModel(machine, language: portvakt.language)
        biometricSettings = BiometricSettingsModel(machine, language: portvakt.language)
        let (stream, actions) = AsyncStream.makeStream(of: Action.self)
        self.actions = actions
        Task { [portvakt] in
            for await action in stream {
                switch action {
                case .event(let event): await portvakt.submit(event)
                case .deviceName(let name): await portvakt.nameThisDevice(name)
                }
            }
        }
    }

    deinit {
        actions.finish()
    }

    /// Follows the journey while the calling task runs (call it from the root view's `.task {}`).
    public func follow() async {
        for await machine in portvakt.states() {
            update(machine)
        }
    }

    /// A user's action (a tap): it reaches the journey after the ones before it.
    public func send(_ event: AuthEvent) {
        actions.yield(.event(event))
    }

    /// What the member calls this phone, for the enrolment that follows (`AuthScreenView`'s `nameDevice`).
    public func nameThisDevice(_ name: String) {
        actions.yield(.deviceName(name))
    }

    /// The password typed at the enrolment's confirmation (S7.3), for `AuthScreenView`'s `submitPassword`.
    public func confirmEnrolment(password: String) {
        let portvakt = portvakt
        Task { await portvakt.confirmEnrolment(password: password) }
    }

    func update(_ machine: AuthMachine) {
        let next = ScreenModel(machine, language: portvakt.language)
        announcement = next.announcement(after: screen)
        self.machine = machine
        screen = next
        biometricSettings = BiometricSettingsModel(machine, language: portvakt.language)
    }
}
