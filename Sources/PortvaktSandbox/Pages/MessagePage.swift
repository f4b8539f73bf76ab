import PortvaktCore

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
        var values: [String: Any] = ["title": title, "message": message, "isError": isError]
        if let link { values["link"] = ["url": link.url, "text": link.text] }
        return SandboxPages.shared.render("sandbox_message", language: language, stylesheet: stylesheet, values: values)
    }
}
