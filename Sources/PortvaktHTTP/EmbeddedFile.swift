/// The files under a module's `Resources/` (templates, stylesheets, the OpenAPI description) are
/// compiled into the binary (`.embedInCode` in Package.swift), so a deployment still copies only the executable.
public enum EmbeddedFile {
    /// A file's text as written, without the final newline an editor adds.
    public static func text(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
