import Hummingbird
import PortvaktCore
import PortvaktHTTP

/// The two pages of claiming a membership by an emailed code (S15): the email, then the code.
/// Neither has a language switch: the claim is one login, in the app's language.
enum ClaimPage {
    /// - Parameter brand: the organisation of the client the login is for, when it has one.
    static func email(handle: String, language: Language, brand: BrandView?, email: String = "", error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        let values = ClaimEmailView(handle: handle, email: email, error: error)
        return BrokerPage.response(BrokerPage.render("broker_claim_email", language: language, switchLanguage: nil, brand: brand, values: values), status: status)
    }

    /// - Parameter email: the address the code went to and its signature (``BrowserBinding``);
    ///   nil when the form did not carry one this server signed: the page then names no address.
    static func code(
        handle: String, language: Language, brand: BrandView?, email: (address: String, signature: String)?, error: String? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
        let values = ClaimCodeView(
            handle: handle, sentTo: email.map { ClaimText.sent(to: $0.address, language) } ?? ClaimText.sentToYourAddress.text(language),
            email: email.map { ClaimCodeView.SignedEmail(address: $0.address, signature: $0.signature) }, error: error
        )
        return BrokerPage.response(BrokerPage.render("broker_claim_code", language: language, switchLanguage: nil, brand: brand, values: values), status: status)
    }
}

/// What `broker_claim_email` reads.
struct ClaimEmailView: PageValues {
    /// The claim's handle, which each form posts back.
    let handle: String
    /// The address typed, kept when it was refused.
    let email: String
    /// nil: no error to show.
    let error: String?
}

/// What `broker_claim_code` reads.
struct ClaimCodeView: PageValues {
    let handle: String
    /// Where the code went, in words.
    let sentTo: String
    /// nil: the form carried no address this server signed.
    let email: SignedEmail?
    let error: String?

    /// The address and its signature (``BrowserBinding``), carried by the forms.
    struct SignedEmail: PageValues {
        let address: String
        let signature: String
    }
}
