/// One SMTP reply (RFC 5321 §4.2): a three-digit code and its lines of text; `250-…` lines
/// continue, the line with a space (or nothing) after the code ends it.
struct SMTPReply: Sendable, Equatable {
    let code: Int
    let lines: [String]

    /// The extensions an EHLO reply announces (RFC 5321 §4.1.1.1), by upper-case keyword, with
    /// their upper-case parameters: `AUTH PLAIN LOGIN` is `["AUTH": ["PLAIN", "LOGIN"]]`.
    var extensions: [String: [String]] {
        var found: [String: [String]] = [:]
        for line in lines.dropFirst() {
            let words = line.uppercased().split(separator: " ").map(String.init)
            if let keyword = words.first { found[keyword] = Array(words.dropFirst()) }
        }
        return found
    }
}

/// Cuts the bytes a server sends into replies, however the network splits them. Bounded, so a
/// hostile server cannot make it hold much: a line of at most 2,048 bytes, a reply of at most
/// 100 lines. A bare LF ends a line too.
struct SMTPReplyParser {
    static let maximumLineLength = 2048
    static let maximumLines = 100

    private var line: [UInt8] = []
    private var lines: [String] = []
    private var code: Int?

    /// Whether part of a reply is waiting for its end.
    var isIdle: Bool { line.isEmpty && lines.isEmpty }

    /// Adds bytes and returns the replies they complete, in order.
    /// - Throws: ``SMTPError`` (`protocolViolation`) for anything that is not an SMTP reply.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(SMTPError) -> [SMTPReply] {
        var replies: [SMTPReply] = []
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                line.append(byte)
                guard line.count <= Self.maximumLineLength else { throw SMTPError(.protocolViolation, "the SMTP server sent a line longer than \(Self.maximumLineLength) bytes") }
                continue
            }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            let text = String(decoding: line, as: UTF8.self)
            line = []
            if let reply = try take(text) { replies.append(reply) }
        }
        return replies
    }

    private mutating func take(_ text: String) throws(SMTPError) -> SMTPReply? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 3, utf8.prefix(3).allSatisfy({ (48...57).contains($0) }), let value = Int(String(text.prefix(3))),
              (200...599).contains(value), utf8.count == 3 || utf8[3] == UInt8(ascii: " ") || utf8[3] == UInt8(ascii: "-")
        else { throw SMTPError(.protocolViolation, "the SMTP server sent something that is not a reply") }
        guard code == nil || code == value else { throw SMTPError(.protocolViolation, "the SMTP server changed the code inside one reply") }
        code = value
        lines.append(utf8.count > 4 ? String(text.dropFirst(4)) : "")
        guard lines.count <= Self.maximumLines else { throw SMTPError(.protocolViolation, "the SMTP server sent a reply longer than \(Self.maximumLines) lines") }
        guard utf8.count == 3 || utf8[3] == UInt8(ascii: " ") else { return nil }
        defer { lines = []; code = nil }
        return SMTPReply(code: value, lines: lines)
    }
}
