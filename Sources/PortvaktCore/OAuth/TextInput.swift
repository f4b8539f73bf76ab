/// The rule for text that enters from outside: no control characters (Unicode category Cc: NUL,
/// line breaks, escape, DEL, C1) and no line or paragraph separators, except where a field is
/// free text of several lines, which may hold line breaks and tabs.
public enum TextInput {
    public static func hasControlCharacters(_ text: some StringProtocol, allowingLineBreaks: Bool = false) -> Bool {
        text.unicodeScalars.contains { scalar in
            if allowingLineBreaks, scalar == "\n" || scalar == "\r" || scalar == "\t" { return false }
            return isControl(scalar)
        }
    }

    /// Category Cc, or a line or paragraph separator.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII's Cc is U+0000–U+001F and U+007F; the Unicode tables are asked only beyond it
        // (they showed in profiles of every form post).
        if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
        return scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
