import Foundation

/// An email address as SMTP and a header carry it: ASCII `local@domain`, no space, no control
/// character, no angle bracket. That keeps CR and LF (header and command injection) out of
/// `MAIL FROM`, `RCPT TO`, `From` and `To`. Internationalised addresses (SMTPUTF8) are refused.
public struct MailAddress: Sendable, Hashable {
    public let address: String
    /// Shown before the address in `From` (`Portvakt <noreply@example.org>`).
    public let displayName: String?

    /// - Throws: ``MailAddressError`` saying what is wrong.
    public init(_ address: String, displayName: String? = nil) throws(MailAddressError) {
        guard address.utf8.count <= 254 else { throw MailAddressError("is longer than 254 characters") }
        guard address.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 }) else {
            throw MailAddressError("may hold only ASCII letters, digits and punctuation, no spaces or line breaks")
        }
        guard !address.contains(where: { "<>()[],;:\\\"".contains($0) }) else {
            throw MailAddressError("may not hold < > ( ) [ ] , ; : \\ or \"")
        }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64, parts[1].contains("."),
              !parts[1].hasPrefix("."), !parts[1].hasSuffix(".")
        else { throw MailAddressError("must look like name@example.org") }
        if let displayName {
            guard displayName.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control }), displayName.count <= 100 else {
                throw MailAddressError("has a display name with a line break or control character, or longer than 100 characters")
            }
        }
        self.address = address
        self.displayName = displayName.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `Name <local@domain>` or `local@domain`, as `PORTVAKT_MAIL_FROM` may be written.
    public init(parsing text: String) throws(MailAddressError) {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard text.hasSuffix(">"), let open = text.lastIndex(of: "<") else {
            try self.init(text)
            return
        }
        var name = text[..<open].trimmingCharacters(in: .whitespaces)
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        try self.init(String(text[text.index(after: open)..<text.index(before: text.endIndex)]), displayName: name)
    }

    public var domain: String { String(address[address.index(after: address.lastIndex(of: "@")!)...]) }

}

/// Why a text is not a usable email address; says nothing of the address itself.
public struct MailAddressError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ problem: String) { description = "the email address \(problem)" }
}
