import Hummingbird
import PortvaktCore
import PortvaktHTTP

/// The sandbox's pages from their templates (`Resources/Templates/*.mustache`, one layout with
/// the banner that says this is not the real BankID or Vipps) and its one stylesheet
/// (`Resources/sandbox.css`), all compiled into the binary, rendered by the one ``PageRenderer``.
struct SandboxPages: Sendable {
    static let shared = SandboxPages()

    let renderer: PageRenderer

    init() {
        renderer = PageRenderer(templates: Self.templates.map { (name: $0.name, text: EmbeddedFile.text($0.bytes)) })
    }

    static let templates: [(name: String, bytes: [UInt8])] = [
        ("sandbox_layout", PackageResources.sandbox_layout_mustache), ("sandbox_login", PackageResources.sandbox_login_mustache),
        ("sandbox_message", PackageResources.sandbox_message_mustache), ("sandbox_bankid_app", PackageResources.sandbox_bankid_app_mustache),
    ]

    /// What `sandbox_layout` reads.
    struct Layout: PageValues {
        let t: [String: String]
        let lang: String
        let stylesheet: String
    }

    /// A page in `language`; `stylesheet` is the sandbox's stylesheet under its path prefix.
    func render(_ template: String, language: Language, stylesheet: String, values: some PageValues) -> String {
        let layout = Layout(t: SandboxText.table(language), lang: language.rawValue, stylesheet: stylesheet)
        return renderer.render(template, values: values, layout: layout)
    }
}

/// `GET {prefix}/assets/sandbox.css`.
enum SandboxStylesheet {
    static let path = "/assets/sandbox.css"
    static let css = EmbeddedFile.text(PackageResources.sandbox_css)

    static func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        group.get(RouterPath(path)) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(string: css))
            )
        }
    }
}
