import Foundation
import PortvaktProtocol

/// What a phone is called in "Remove a phone" (My account, `GET /v1/devices`) and the mail that
/// says a phone was added: what the member typed, with the model beside it, or the model alone.
/// iOS 16 and later tell every app "iPhone" for the device's own name without an entitlement, so
/// the model alone would name every phone the same (issue 61 item 8).
public enum DeviceName {
    /// The server's limit.
    public static let maximumLength = DeviceRegistration.nameLimit

    /// `typed` with its spaces and control characters tidied, then " (model)" unless it names the
    /// model already; the model when nothing was typed. Never more than ``maximumLength`` characters.
    public static func registered(typed: String?, model: String) -> String {
        let model = tidy(model).isEmpty ? "Phone" : tidy(model)
        let typed = tidy(typed ?? "")
        guard !typed.isEmpty else { return limited(model) }
        if typed.localizedCaseInsensitiveContains(model) { return limited(typed) }
        let suffix = " (\(model))"
        guard suffix.unicodeScalars.count < maximumLength / 2 else { return limited(typed) }
        var name = limited(typed)
        while name.unicodeScalars.count + suffix.unicodeScalars.count > maximumLength { name.removeLast() }
        return name.trimmingCharacters(in: .whitespaces) + suffix
    }

    /// One line: control and format characters (direction overrides, zero-width marks) and line
    /// and paragraph separators out, runs of white space one space, none at the ends; then at most
    /// ``maximumLength`` scalars, so no count of characters anywhere finds more.
    static func tidy(_ text: String) -> String {
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.map { DeviceRegistration.mayNameDevice($0) ? $0 : " " }))
        return visible.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The longest start of `text` of at most ``maximumLength`` scalars, whole characters only.
    static func limited(_ text: String) -> String {
        var kept = ""
        for character in text {
            guard kept.unicodeScalars.count + character.unicodeScalars.count <= maximumLength else { break }
            kept.append(character)
        }
        return kept
    }
}
