import PortvaktHTTP

/// The passkey pages' one script (`Resources/passkey.js`), served as a static file
/// (`/assets/passkey.js`) under `script-src 'self'`: it asks the server for a ceremony's options,
/// calls the browser's WebAuthn API, puts the answer in the page's form and sends it. Every step
/// is announced once in the page's live region; the forms stay keyboard-operable.
enum PasskeyScript {
    static let path = "/assets/passkey.js"
    static let source = EmbeddedFile.text(PackageResources.passkey_js)
    static let asset = StaticAsset(path: path, contentType: "text/javascript; charset=utf-8", text: source)
}
