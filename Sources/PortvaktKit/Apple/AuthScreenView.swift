#if canImport(SwiftUI)
import SwiftUI

/// Draws a ``ScreenModel``: title, message, banner, spinner and buttons, with VoiceOver labels
/// and hints from the model and system fonts (so Dynamic Type applies). Every decision is in
/// the model; this view only lays it out.
public struct AuthScreenView: View {
    public let model: ScreenModel
    public let send: (AuthEvent) -> Void

    public init(model: ScreenModel, send: @escaping (AuthEvent) -> Void) {
        self.model = model
        self.send = send
    }

    public var body: some View {
        VStack(spacing: 16) {
            Text(model.title)
                .font(.title)
                .accessibilityAddTraits(.isHeader)
            if let message = model.message {
                Text(message)
                    .font(.body)
                    .foregroundStyle(model.tone == .error ? Color.red : Color.primary)
            }
            if let banner = model.banner {
                Text(banner)
                    .font(.callout)
                    .padding()
                    .background(Color.secondary.opacity(0.15), in: RoundedRectangle(cornerRadius: 8))
            }
            if model.showsSpinner {
                ProgressView().accessibilityLabel(model.title)
            }
            ForEach(model.actions) { action in
                Button(action.label) { send(action.event) }
                    .buttonStyle(.borderedProminent)
                    .tint(action.isProminent ? .accentColor : .secondary)
                    .accessibilityHint(action.accessibilityHint)
                    .frame(minHeight: 44)
            }
        }
        .padding()
        .accessibilityElement(children: .contain)
    }
}
#endif
