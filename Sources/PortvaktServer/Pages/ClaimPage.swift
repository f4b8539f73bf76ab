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

    static func code(handle: String, language: Language, email: String, error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        var values: [String: Any] = ["handle": handle, "email": email, "sentTo": ClaimText.sent(to: email, language)]
        if let error { values["error"] = error }
        return BrokerPage.response(BrokerPage.render("broker_claim_code", language: language, switchLanguageURL: nil, values: values), status: status)
    }
}
