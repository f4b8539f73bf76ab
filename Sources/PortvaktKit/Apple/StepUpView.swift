#if canImport(SwiftUI)
import SwiftUI

/// Draws a ``StepUpScreenModel`` (S11): the message, the password field when the model asks for
/// it (a `SecureField`, labelled, submitted with the keyboard's return key too) and the buttons.
/// The typed password stays in this view; the gate never holds it.
public struct StepUpView: View {
    public let model: StepUpScreenModel
    public let send: (StepUpGate.Event, _ password: String?) -> Void
    @State private var password = ""
    @State private var passwordMissing = false

    public init(model: StepUpScreenModel, send: @escaping (StepUpGate.Event, _ password: String?) -> Void) {
        self.model = model
        self.send = send
    }

    public var body: some View {
        ScrollView {
            VStack(spacing: 16) {
                ScreenTitle(text: model.title, font: .title2)
                if let message = model.message {
                    MessageText(text: message, isError: !model.showsContent)
                }
                if let label = model.passwordField {
                    SecureField(label, text: $password)
                        .textContentType(.password)
                        .submitLabel(.done)
                        .onSubmit(submit)
                        .accessibilityLabel(label)
                        .padding(8)
                        .overlay(RoundedRectangle(cornerRadius: 8).stroke(Color.secondary))
                    if passwordMissing, let why = model.passwordMissing {
                        MessageText(text: why, isError: true)
                    }
                }
                if model.showsSpinner {
                    ProgressView().accessibilityLabel(model.title)
                }
                ForEach(model.actions) { action in
                    ActionButton(label: action.label, hint: action.accessibilityHint, isProminent: action.isProminent) {
                        action.event == .passwordSubmitted ? submit() : send(action.event, nil)
                    }
                }
            }
            .padding()
        }
        // Each status change once (a wrong password; the content about to hide, said first).
        .onChange(of: model) { previous, current in announce(current.announcement(after: previous)) }
        // While the content shows, the gate hears the time, so it hides at the token's expiry
        // and says so shortly before.
        .task(id: model.showsContent) {
            while model.showsContent {
                do { try await Task.sleep(for: .seconds(1)) } catch { return }
                send(.tick(Date()), nil)
            }
        }
        .onChange(of: model.passwordField) {
            password = ""
            passwordMissing = false
        }
    }

    private func submit() {
        passwordMissing = password.isEmpty
        guard !password.isEmpty else { return announce(model.passwordMissing) }
        send(.passwordSubmitted, password)
        password = ""
    }
}

/// Draws a ``BiometricSettingsModel`` (S7): the status and its buttons. Turning biometric login
/// off is a confirmation the model asks for (its status becomes the question), so the same
/// words reach VoiceOver and the CLI.
public struct BiometricSettingsView: View {
    public let model: BiometricSettingsModel
    public let send: (AuthEvent) -> Void

    public init(model: BiometricSettingsModel, send: @escaping (AuthEvent) -> Void) {
        self.model = model
        self.send = send
    }

    public var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            Text(model.status)
                .font(.body)
            ForEach(model.actions) { action in
                ActionButton(label: action.label, hint: action.accessibilityHint, isProminent: action.isProminent, isDestructive: action.isDestructive) {
                    send(action.event)
                }
            }
        }
        .accessibilityElement(children: .contain)
        // The question "Turn off Face ID?" and the answer are heard when they appear.
        .onChange(of: model.status) { announce(model.status) }
    }
}
#endif
