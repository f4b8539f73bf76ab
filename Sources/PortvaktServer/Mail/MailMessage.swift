import Foundation
import PortvaktDomain

/// One plain-text email as RFC 5322 and MIME (RFC 2045) write it: `Date`, `From`, `To`, `Subject`
/// (RFC 2047 encoded words when it is not ASCII), `Message-ID`, `MIME-Version`, UTF-8 text in
/// quoted-printable, so every line is short ASCII whatever the server offers (no 8BITMIME needed).
struct MailMessage: Sendable {
    let from: MailAddress
    let to: MailAddress
    let subject: String
    let body: String
    /// The outbox id: the Message-ID is made of it, so a message sent twice (its answer lost on
    /// the way) is recognisably one message.
    let id: String
    let date: Date

    /// The message with CRLF line ends, not yet dot-stuffed.
    /// - Throws: ``SMTPError`` when the subject holds a line break or control character (header
    ///   injection) or is longer than 200 characters.
    func rendered() throws(SMTPError) -> String {
        guard subject.count <= 200, subject.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control }) else {
            throw SMTPError(.invalidMessage, "the subject holds a line break or control character, or is longer than 200 characters")
        }
        let subjectValue = subject.unicodeScalars.allSatisfy(\.isASCII) ? subject : EncodedWord.encode(subject)
        let localPart = id.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        let headers = [
            "Date: \(Self.dateHeader(date))",
            "From: \(from.headerValue)",
            "To: \(to.address)",
            "Subject: \(subjectValue)",
            "Message-ID: <\(localPart.isEmpty ? UUID().uuidString.lowercased() : localPart)@\(from.domain)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            // RFC 3834: no out-of-office replies to a notice.
            "Auto-Submitted: auto-generated",
        ]
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + Self.quotedPrintable(body) + "\r\n"
    }

    /// RFC 5322 §3.3 in UTC: `Tue, 01 Dec 2026 09:05:00 +0000`.
    static func dateHeader(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int?) -> String { let n = n ?? 0; return n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[((c.weekday ?? 1) - 1) % 7]), \(two(c.day)) \(months[((c.month ?? 1) - 1) % 12]) \(c.year ?? 1970) "
            + "\(two(c.hour)):\(two(c.minute)):\(two(c.second)) +0000"
    }

    /// RFC 2045 §6.7: lines of at most 76 characters, a soft break `=` where a line is cut,
    /// `=XX` for '=', every byte outside printable ASCII, and a space or tab that ends a line.
    static func quotedPrintable(_ text: String) -> String {
        var physical: [String] = []
        // By bytes: Swift takes CR LF for one Character, which a split on "\n" would not cut.
        for line in Array(text.utf8).split(separator: 10, omittingEmptySubsequences: false) {
            let bytes = Array(line.last == 13 ? line.dropLast() : line[...])
            var current = ""
            for (index, byte) in bytes.enumerated() {
                let literal = (33...126).contains(byte) && byte != 61 || ((byte == 32 || byte == 9) && index < bytes.count - 1)
                let piece = literal ? String(UnicodeScalar(byte)) : "=" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                if current.utf8.count + piece.utf8.count > 75 {
                    physical.append(current + "=")
                    current = ""
                }
                current += piece
            }
            physical.append(current)
        }
        return physical.joined(separator: "\r\n")
    }
}

/// RFC 2047 encoded words (`=?UTF-8?B?…?=`) for header text that is not ASCII, each at most 64
/// characters and never splitting a character, folded onto continuation lines.
enum EncodedWord {
    static func encode(_ text: String) -> String {
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            // 39 bytes are 52 base64 characters, 64 with `=?UTF-8?B?` and `?=`: with `Subject: `
            // in front the line stays within RFC 5322's 78.
            if chunk.count + bytes.count > 39, !chunk.isEmpty {
                words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=") }
        return words.joined(separator: "\r\n ")
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
