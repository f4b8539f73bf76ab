import Hummingbird
import PortvaktCore

/// The two pages of claiming a membership by an emailed code (S15): the email, then the code.
/// Neither has a language switch: the claim is one login, in the app's language.
enum ClaimPage {
    static func email(handle: String, language: Language, email: String = "", error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        var values: [String: Any] = ["handle": handle, "email": email]
        if let error { values["error"] = error }
        return BrokerPage.response(BrokerPage.render("broker_claim_email", language: language, switchLanguageURL: nil, values: values), status: status)
    }

    /// - Parameter email: the address the code went to and its signature (``BrowserBinding``);
    ///   nil when the form did not carry one this server signed: the page then names no address.
    static func code(handle: String, language: Language, email: (address: String, signature: String)?, error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        var values: [String: Any] = ["handle": handle, "sentTo": email.map { ClaimText.sent(to: $0.address, language) } ?? ClaimText.sentToYourAddress.text(language)]
        if let email { values["email"] = ["address": email.address, "signature": email.signature] }
        if let error { values["error"] = error }
        return BrokerPage.response(BrokerPage.render("broker_claim_code", language: language, switchLanguageURL: nil, values: values), status: status)
    }
}
