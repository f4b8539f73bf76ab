import PortvaktCore
import PortvaktHTTP

/// A page that only says something: an error a user cannot be redirected with, or a result.
struct MessagePage {
    let title: String
    let message: String
    let language: Language
    let stylesheet: String
    var isError = false
    /// An optional link onward, for example back to the app.
    var link: (url: String, text: String)? = nil

    func render() -> String {
        let values = SandboxMessageView(title: title, message: message, isError: isError, link: link.map { SandboxMessageView.Link(url: $0.url, text: $0.text) })
        return SandboxPages.shared.render("sandbox_message", language: language, stylesheet: stylesheet, values: values)
    }
}

/// What `sandbox_message` reads.
struct SandboxMessageView: PageValues {
    let title: String
    let message: String
    let isError: Bool
    /// nil: no link.
    let link: Link?

    struct Link: PageValues {
        let url: String
        let text: String
    }
}
