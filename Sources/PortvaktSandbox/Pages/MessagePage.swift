import PortvaktCore
/// A page that only says something: an error a user cannot be redirected with, or a result.
struct MessagePage {
    let title: String
    let message: String
    let language: Language
    var isError = false
    /// An optional link onward, for example back to the app.
    var link: (url: String, text: String)? = nil

    func render() -> String {
        var body = "<h1>\(HTML.escape(title))</h1>\n<p\(isError ? " class=\"error\" role=\"alert\"" : "")>\(HTML.escape(message))</p>"
        if let link {
            body += "\n<p><a href=\"\(HTML.escape(link.url))\">\(HTML.escape(link.text))</a></p>"
        }
        return HTML.page(title: title, language: language, body: body)
    }
}
