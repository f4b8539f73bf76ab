#if canImport(SwiftUI)
import Accessibility
import SwiftUI

/// A button drawn in ``Palette``'s tested colours (4.5:1 for its text), at least 44 points high
/// inside its label so the whole height takes the tap, with the destructive role where it deletes.
struct ActionButton: View {
    let label: String
    let hint: String
    let isProminent: Bool
    var isDestructive = false
    let perform: () -> Void
    @Environment(\.colorScheme) private var colorScheme

    var body: some View {
        let colours = Palette.button(prominent: isProminent, dark: colorScheme == .dark)
        Button(role: isDestructive ? .destructive : nil, action: perform) {
            Text(label)
                .font(.body.weight(isProminent ? .semibold : .regular))
                .multilineTextAlignment(.center)
                .frame(maxWidth: .infinity, minHeight: 44)
                .padding(.horizontal, 12)
                .foregroundStyle(Color(colours.text))
                .background(colours.fill.map { Color($0) } ?? .clear, in: RoundedRectangle(cornerRadius: 10))
                .overlay(RoundedRectangle(cornerRadius: 10).stroke(Color(colours.border), lineWidth: 1))
                .contentShape(RoundedRectangle(cornerRadius: 10))
        }
        .buttonStyle(.plain)
        .accessibilityHint(hint)
    }
}

/// A screen's title: a header, and where VoiceOver's focus goes when the screen is new.
struct ScreenTitle: View {
    let text: String
    var font: Font = .title
    @AccessibilityFocusState private var focused: Bool

    var body: some View {
        Text(text)
            .font(font)
            .accessibilityAddTraits(.isHeader)
            .accessibilityFocused($focused)
            .onAppear { focused = true }
            .onChange(of: text) { focused = true }
    }
}

/// Says `text` to VoiceOver once (the models decide what changed, ``ScreenModel/announcement(after:)``).
@MainActor func announce(_ text: String?) {
    guard let text else { return }
    AccessibilityNotification.Announcement(text).post()
}
#endif
