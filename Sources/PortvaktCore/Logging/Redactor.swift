/// Removes what must never reach a log: anything shaped like a personnummer, bearer tokens and
/// JWTs in free text, and the whole value of metadata keys that name a secret.
public enum Redactor {
    public static let placeholder = "[redacted]"

    /// Metadata keys whose values are always replaced, matched case-insensitively as substrings.
    static let secretKeyFragments = [
        "personnummer", "nin", "nnin", "ssn", "token", "secret", "password", "passwd", "code", "verifier",
        "authorization", "cookie", "session_ref", "sessionref", "assertion", "key",
    ]

    /// Whether a metadata key names a secret.
    public static func isSecretKey(_ key: String) -> Bool {
        let lowered = key.lowercased()
        return secretKeyFragments.contains { lowered.contains($0) }
    }

    /// `text` redacted, then with every control character written as an escape (`\n`, `\u{7F}`),
    /// so that no value can start a forged log line or hide in a terminal.
    public static func sanitize(_ text: String) -> String {
        escapingControlCharacters(redact(text))
    }

    /// Line breaks and other control characters (Unicode category Cc, and the line and paragraph
    /// separators) as visible escapes; everything else as it is.
    public static func escapingControlCharacters(_ text: String) -> String {
        guard TextInput.hasControlCharacters(text) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where TextInput.isControl(scalar): output += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// `text` with every run of eleven digits (spaces and a hyphen allowed between them, as a
    /// personnummer may be typed), every JWT and every bearer credential replaced.
    public static func redact(_ text: String) -> String {
        guard text.contains(where: { $0.isASCII && ($0.isNumber || $0 == ".") }) else { return text }
        var output = ""
        var scalars = Array(text.unicodeScalars)[...]
        // A JWT cannot start before this index: the last `eyJ` scanned ran to here without a dot,
        // and so would every start inside that run (checked once, not at each start: linear time).
        var noJWTBefore = scalars.startIndex
        while let first = scalars.first {
            if let length = uuidLength(scalars) {
                // Ids in audit details and logs stay whole: a UUID's digits are not a number typed.
                output.unicodeScalars.append(contentsOf: scalars.prefix(length))
                scalars = scalars.dropFirst(length)
            } else if let length = digitRunLength(scalars), length > 0 {
                output += placeholder
                scalars = scalars.dropFirst(length)
            } else if scalars.startIndex >= noJWTBefore, let length = jwtLength(scalars, noneBefore: &noJWTBefore) {
                output += placeholder
                scalars = scalars.dropFirst(length)
            } else {
                output.unicodeScalars.append(first)
                scalars = scalars.dropFirst()
            }
        }
        return output
    }

    /// The length of a run of 11 or more digits (with spaces or hyphens between) at the start
    /// of `scalars`, when it is not part of a longer word.
    private static func digitRunLength(_ scalars: ArraySlice<Unicode.Scalar>) -> Int? {
        var digits = 0
        var length = 0
        var lastDigitEnd = 0
        for scalar in scalars {
            if isDigit(scalar) {
                digits += 1
                length += 1
                lastDigitEnd = length
            } else if (scalar == " " || scalar == "-") && digits > 0 && digits < 11 {
                length += 1
            } else {
                break
            }
        }
        return digits >= 11 ? lastDigitEnd : nil
    }

    /// 36 when `scalars` start with a UUID (8-4-4-4-12 hexadecimal digits).
    private static func uuidLength(_ scalars: ArraySlice<Unicode.Scalar>) -> Int? {
        let groups = [8, 4, 4, 4, 12]
        var index = scalars.startIndex
        for (number, count) in groups.enumerated() {
            for _ in 0..<count {
                guard index < scalars.endIndex, isHex(scalars[index]) else { return nil }
                index += 1
            }
            if number < groups.count - 1 {
                guard index < scalars.endIndex, scalars[index] == "-" else { return nil }
                index += 1
            }
        }
        if index < scalars.endIndex, isHex(scalars[index]) || scalars[index] == "-" { return nil }
        return 36
    }

    private static func isHex(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
    }

    /// The length of a compact JWS/JWT (`eyJ….….…`) at the start of `scalars`. When its run of
    /// base64url has no dot, `noneBefore` moves to the run's end.
    private static func jwtLength(_ scalars: ArraySlice<Unicode.Scalar>, noneBefore: inout Int) -> Int? {
        guard scalars.starts(with: "eyJ".unicodeScalars) else { return nil }
        var length = 0
        var dots = 0
        for scalar in scalars {
            if scalar == "." { dots += 1 } else if !isBase64URL(scalar) { break }
            length += 1
        }
        guard dots >= 1 else {
            noneBefore = scalars.startIndex + length
            return nil
        }
        return length
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    private static func isBase64URL(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || isDigit(scalar) || scalar == "-" || scalar == "_"
    }
}
