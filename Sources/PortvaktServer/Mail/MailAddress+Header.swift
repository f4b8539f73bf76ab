import Foundation
import PortvaktDomain

extension MailAddress: CustomStringConvertible {
    /// The header value: the display name quoted, or as RFC 2047 encoded words when it is not ASCII.
    var headerValue: String {
        guard let displayName else { return address }
        let name = displayName.unicodeScalars.allSatisfy({ $0.isASCII })
            ? "\"" + displayName.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            : EncodedWord.encode(displayName)
        return "\(name) <\(address)>"
    }

    public var description: String { headerValue }
}
