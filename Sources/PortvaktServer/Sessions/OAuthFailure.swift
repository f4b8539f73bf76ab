import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktProtocol

/// An OAuth error answer (RFC 6749 §5.2) with the message the app shows, if any.
struct OAuthFailure: Error, Sendable {
    let error: OAuthErrorCode
    let description: String
    var message: UserMessage?
    var status: HTTPResponse.Status = .badRequest
    /// Further `WWW-Authenticate` parameters of a 401, already quoted.
    var challengeParameters = ""
    /// The scheme a 401 challenges: `DPoP` (RFC 9449 §7.1) when the token is bound or the request used DPoP.
    var scheme: Scheme = .bearer

    enum Scheme: String, Sendable {
        case bearer = "Bearer"
        case dpop = "DPoP"
        /// A client that tried `Authorization: Basic` at the token endpoint (RFC 6749 §5.2).
        case basic = "Basic"
    }

    static func invalidRequest(_ description: String) -> OAuthFailure {
        OAuthFailure(error: .invalidRequest, description: description)
    }

    static func invalidGrant(_ description: String, message: UserMessage? = nil) -> OAuthFailure {
        OAuthFailure(error: .invalidGrant, description: description, message: message)
    }

    static let sessionExpired = OAuthFailure(
        error: .invalidGrant, description: "The session has ended; log in again.", message: .sessionExpired
    )

    /// RFC 9470: the resource wants a fresh step-up for `action` (biometrics, or the password).
    static func stepUpRequired(_ action: StepUpAction, _ description: String) -> OAuthFailure {
        OAuthFailure(
            error: .insufficientUserAuthentication, description: description, message: .stepUpRequired, status: .unauthorized,
            challengeParameters: #", acr_values="\#(Authentication.stepUpACR) \#(Authentication.passwordStepUpACR)", step_up_action="\#(action.rawValue)""#
        )
    }

    /// The database (or another part Portvakt needs) did not answer: try again; never "logged out".
    static let temporarilyUnavailable = OAuthFailure(
        error: .temporarilyUnavailable, description: "Portvakt cannot answer right now; try again shortly.",
        message: .temporarilyUnavailable, status: .serviceUnavailable
    )

    /// RFC 9470: log in again with BankID or Vipps (`max_age` 300), then repeat the request.
    static let freshLoginRequired = OAuthFailure(
        error: .insufficientUserAuthentication,
        description: "This action needs a BankID or Vipps login within the last 5 minutes; log in again and repeat it.",
        message: .freshLoginRequired, status: .unauthorized, challengeParameters: #", max_age="300""#
    )

    static let notAllowed = OAuthFailure(
        error: .accessDenied, description: "The caller has no role here that allows this.", message: .notAllowed, status: .forbidden
    )

    static func notFound(_ what: String) -> OAuthFailure {
        OAuthFailure(error: .notFound, description: "No \(what) with this id is visible to the caller.", status: .notFound)
    }

    func response() throws -> Response {
        try Responses.oauthError(
            error.rawValue, description, messageID: message?.id, status: status,
            challenge: status == .unauthorized ? challenge : nil
        )
    }

    private var challenge: String {
        if scheme == .basic { return #"Basic realm="portvakt""# }
        let algorithms = scheme == .dpop ? #", algs="ES256""# : ""
        return #"\#(scheme.rawValue) error="\#(error.rawValue)""# + challengeParameters + algorithms
    }
}

/// A failure no route catches still answers, never as a body-less 500: as an OAuth error body
/// for programs, as a page in the person's language for browsers.
extension OAuthFailure: HTTPResponseError {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        guard request.headers[.accept]?.contains("text/html") == true else { return try response() }
        let language = Language(uiLocales: request.uri.queryParameters.get("ui_locales"))
        return BrokerPage.problem(message ?? .loginFailed, reason: description, language: language, status: status)
    }
}

extension OAuthFailure {
    /// A domain refusal as the JSON API answers it: one mapping for every route.
    init(_ refusal: DomainError) {
        switch refusal.kind {
        case .notFound:
            self = OAuthFailure(error: .notFound, description: refusal.description, status: .notFound)
        case .notAllowed where refusal.reason == .notAllowed:
            self = .notAllowed
        case .notAllowed:
            self = OAuthFailure(error: .mergeRefused, description: refusal.description, message: .notAllowed, status: .forbidden)
        case .stepUpRequired:
            // A device-key step-up is asked for by its action (RFC 9470); the rest by a fresh login.
            if let action = refusal.action, !ActionPolicy.of(action).stepUps.contains(.freshElectronicID),
               let stepUp = StepUpAction(rawValue: action.rawValue) {
                self = .stepUpRequired(stepUp, refusal.description)
            } else {
                self = .freshLoginRequired
            }
        case .conflict:
            self = OAuthFailure(error: .conflict, description: refusal.description, status: .conflict)
        case .invalidInput:
            self = .invalidRequest(refusal.description)
        case .throttled:
            self = OAuthFailure(error: .slowDown, description: refusal.description, message: .tooManyAttempts, status: .tooManyRequests)
        }
    }
}

extension OAuthFailure {
    /// A refused grant as the token endpoint answers it (RFC 6749 §5.2, RFC 9449 §5).
    init(_ refusal: GrantRefusal) {
        switch refusal.kind {
        case .invalidGrant:
            self = .invalidGrant(refusal.description, message: refusal.message)
        case .sessionEnded:
            self = .sessionExpired
        case .reauthenticationRequired:
            self = OAuthFailure(error: .reauthenticationRequired, description: refusal.description, message: refusal.message)
        case .proofInvalid:
            self = DPoPCheck.invalid(refusal.description, at: .authorizationServer)
        case .throttled:
            self = OAuthFailure(error: .slowDown, description: refusal.description, message: refusal.message, status: .tooManyRequests)
        case .unavailable:
            self = .temporarilyUnavailable
        }
    }
}
