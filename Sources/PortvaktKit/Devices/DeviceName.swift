import Foundation

/// What a phone is called in "Remove a phone" (My account, `GET /v1/devices`) and the mail that
/// says a phone was added: what the member typed, with the model beside it, or the model alone.
/// iOS 16 and later tell every app "iPhone" for the device's own name without an entitlement, so
/// the model alone would name every phone the same (issue 61 item 8).
public enum DeviceName {
    /// The server's limit.
    public static let maximumLength = 64

    /// `typed` with its spaces and control characters tidied, then " (model)" unless it names the
    /// model already; the model when nothing was typed. Never more than ``maximumLength`` characters.
    public static func registered(typed: String?, model: String) -> String {
        let model = tidy(model).isEmpty ? "Phone" : tidy(model)
        let typed = tidy(typed ?? "")
        guard !typed.isEmpty else { return String(model.prefix(maximumLength)) }
        if typed.localizedCaseInsensitiveContains(model) { return String(typed.prefix(maximumLength)) }
        let suffix = " (\(model))"
        guard suffix.count < maximumLength / 2 else { return String(typed.prefix(maximumLength)) }
        return String(typed.prefix(maximumLength - suffix.count)).trimmingCharacters(in: .whitespaces) + suffix
    }

    /// One line: control characters out, runs of white space one space, none at the ends.
    static func tidy(_ text: String) -> String {
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
        return visible.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
