/// The files under `Resources/` (templates, the stylesheet, the OpenAPI description) are compiled
/// into the binary (`.embedInCode` in Package.swift), so a deployment still copies only the executable.
enum EmbeddedFile {
    /// A file's text as written, without the final newline an editor adds.
    static func text(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
