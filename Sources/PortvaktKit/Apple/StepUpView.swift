#if canImport(SwiftUI)
import SwiftUI

/// Draws a ``StepUpScreenModel`` (S11): the message, the password field when the model asks for
/// it (a `SecureField`, labelled, submitted with the keyboard's return key too) and the buttons.
/// The typed password stays in this view; the gate never holds it.
public struct StepUpView: View {
    public let model: StepUpScreenModel
    public let send: (StepUpGate.Event, _ password: String?) -> Void
    @State private var password = ""

    public init(model: StepUpScreenModel, send: @escaping (StepUpGate.Event, _ password: String?) -> Void) {
        self.model = model
        self.send = send
    }

    public var body: some View {
        VStack(spacing: 16) {
            Text(model.title)
                .font(.title2)
                .accessibilityAddTraits(.isHeader)
            if let message = model.message {
                MessageText(text: message, isError: true)
            }
            if let label = model.passwordField {
                SecureField(label, text: $password)
                    .textContentType(.password)
                    .submitLabel(.done)
                    .onSubmit(submit)
                    .accessibilityLabel(label)
                    .padding(8)
                    .overlay(RoundedRectangle(cornerRadius: 8).stroke(Color.secondary))
            }
            if model.showsSpinner {
                ProgressView().accessibilityLabel(model.title)
            }
            ForEach(model.actions) { action in
                Button(action.label) {
                    action.event == .passwordSubmitted ? submit() : send(action.event, nil)
                }
                .buttonStyle(.borderedProminent)
                .tint(action.isProminent ? .accentColor : .secondary)
                .accessibilityHint(action.accessibilityHint)
                .frame(minHeight: 44)
            }
        }
        .padding()
    }

    private func submit() {
        guard !password.isEmpty else { return }
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
                Button(action.label) { send(action.event) }
                    .buttonStyle(.bordered)
                    .tint(action.isProminent ? .accentColor : .secondary)
                    .accessibilityHint(action.accessibilityHint)
                    .frame(minHeight: 44)
            }
        }
        .accessibilityElement(children: .contain)
    }
}
#endif
