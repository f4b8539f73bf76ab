import Hummingbird
import PortvaktCore
import PortvaktHTTP

/// An OAuth error answer (RFC 6749 §5.2) with the message the app shows, if any.
struct OAuthFailure: Error, Sendable {
    let error: String
    let description: String
    var message: UserMessage?
    var status: HTTPResponse.Status = .badRequest

    static func invalidRequest(_ description: String) -> OAuthFailure {
        OAuthFailure(error: "invalid_request", description: description)
    }

    static func invalidGrant(_ description: String, message: UserMessage? = nil) -> OAuthFailure {
        OAuthFailure(error: "invalid_grant", description: description, message: message)
    }

    static let sessionExpired = OAuthFailure(
        error: "invalid_grant", description: "The session has ended; log in again.", message: .sessionExpired
    )

    func response() throws -> Response {
        try Responses.oauthError(
            error, description, messageID: message?.id, status: status,
            challenge: status == .unauthorized ? #"Bearer error="\#(error)""# : nil
        )
    }
}
