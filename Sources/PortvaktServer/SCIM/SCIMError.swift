import Foundation
import Hummingbird
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// A SCIM refusal (RFC 7644 §3.12): `{"schemas": [Error], "status": "400", "scimType": …,
/// "detail": …}`, never the API's OAuth JSON. The detail says what to send instead and never
/// repeats a personnummer or a token. The SCIM routes answer every failure with one of these
/// (``SCIMRoutes``); it is an `HTTPResponseError` too, so one that escaped would still answer in
/// SCIM's shape.
struct SCIMError: Error, Sendable, HTTPResponseError {
    /// RFC 7644 §3.12's `scimType` keywords Portvakt uses.
    enum Kind: String, Sendable {
        case invalidFilter, tooMany, uniqueness, mutability, invalidSyntax, invalidPath, noTarget, invalidValue
    }

    let status: HTTPResponse.Status
    let kind: Kind?
    let detail: String
    var headers: HTTPFields = [:]

    static let errorSchema = "urn:ietf:params:scim:api:messages:2.0:Error"

    static func invalidValue(_ detail: String) -> SCIMError { SCIMError(status: .badRequest, kind: .invalidValue, detail: detail) }
    static func invalidSyntax(_ detail: String) -> SCIMError { SCIMError(status: .badRequest, kind: .invalidSyntax, detail: detail) }
    static func invalidPath(_ detail: String) -> SCIMError { SCIMError(status: .badRequest, kind: .invalidPath, detail: detail) }
    static func noTarget(_ detail: String) -> SCIMError { SCIMError(status: .badRequest, kind: .noTarget, detail: detail) }
    static func invalidFilter(_ detail: String) -> SCIMError { SCIMError(status: .badRequest, kind: .invalidFilter, detail: detail) }
    static func mutability(_ detail: String) -> SCIMError { SCIMError(status: .badRequest, kind: .mutability, detail: detail) }

    /// No token, or one that is unknown or revoked: the same answer for each (RFC 6750 §3).
    static let unauthorized = SCIMError(
        status: .unauthorized, kind: nil,
        detail: "Send the member system's token: Authorization: Bearer <token> (portvakt-server scim-token create).",
        headers: [.wwwAuthenticate: #"Bearer realm="Portvakt SCIM""#]
    )
    /// An unknown id and another organisation's record alike: a token never learns what another organisation has.
    static let notFound = SCIMError(status: .notFound, kind: nil, detail: "No user with this id in the token's organisation.")
    static let tooLarge = SCIMError(
        status: .contentTooLarge, kind: nil, detail: "The body is larger than \(SCIMBody.limit / 1024 / 1024) MiB; send one user per request."
    )
    static let unsupportedMediaType = SCIMError(
        status: .unsupportedMediaType, kind: nil, detail: "Send the body as application/scim+json (or application/json)."
    )
    static let unavailable = SCIMError(status: .serviceUnavailable, kind: nil, detail: "Portvakt cannot answer right now; try again shortly.")
    static let unexpected = SCIMError(status: .internalServerError, kind: nil, detail: "Something went wrong in Portvakt; try again.")

    /// 412: the record's version is not the one `If-Match` named (RFC 7644 §3.14).
    static func preconditionFailed(current version: Int) -> SCIMError {
        SCIMError(
            status: .preconditionFailed, kind: nil,
            detail: "The user changed: it is at version \(SCIMVersion.tag(version)); read it again and repeat the change."
        )
    }

    /// The directory's refusal, with its field and reason.
    init(_ refusal: DirectoryError) {
        let detail = refusal.field.map { "\($0): \(refusal.reason)" } ?? refusal.reason
        switch refusal.kind {
        case .notFound: self = .notFound
        case .versionMismatch:
            self = SCIMError(status: .preconditionFailed, kind: nil, detail: "The user changed since the version If-Match named; read it again and repeat the change.")
        case .uniqueness: self = SCIMError(status: .conflict, kind: .uniqueness, detail: detail)
        case .invalidValue: self = .invalidValue(detail)
        }
    }

    /// The refusal `error` stands for on a SCIM route (``ErrorAnswerMiddleware``); nil when it is
    /// none, and ``UnexpectedErrorMiddleware`` answers it.
    init?(answering error: any Error) {
        switch error {
        case let refusal as SCIMError: self = refusal
        case let refusal as DirectoryError: self.init(refusal)
        case let error as HTTPError where error.status == .notFound:
            // The router's own 404 has no message: no route at this address.
            self.init(
                status: .notFound, kind: nil,
                detail: error.body ?? "Portvakt serves SCIM at \(SCIMDiscovery.base): /Users, /ServiceProviderConfig, /ResourceTypes and /Schemas."
            )
        case let error as HTTPError where error.status.code < 500:
            // The query string's parser (a repeated or malformed field).
            self.init(status: error.status, kind: .invalidValue, detail: error.body ?? "The request is malformed.")
        case let error as StoreError where error.isDuplicate:
            self.init(status: .conflict, kind: .uniqueness, detail: "Another user of the organisation has this value.")
        // No SCIM route throws these; one that did is still answered in SCIM's shape, never as OAuth JSON or a page.
        case let failure as OAuthFailure: self.init(failure)
        case let error as any HTTPResponseError: self.init(failing: error.status, kind: nil, detail: "The request was refused (\(error.status.code)).")
        default: return nil
        }
    }

    /// A failure no refusal explains, in SCIM's shape: its status and description.
    init(_ failure: OAuthFailure) {
        self.init(failing: failure.status, kind: failure.status == .badRequest ? .invalidSyntax : nil, detail: failure.description)
    }

    /// An answer of `status` that is no SCIM refusal: a server's failure in Portvakt's own words
    /// (503 "try again", any other 5xx "something went wrong"), never the failure's; else `detail`.
    private init(failing status: HTTPResponse.Status, kind: Kind?, detail: String) {
        switch status.code {
        case 503: self = .unavailable
        case 500...: self = .unexpected
        default: self.init(status: status, kind: kind, detail: detail)
        }
    }

    init(status: HTTPResponse.Status, kind: Kind?, detail: String, headers: HTTPFields = [:]) {
        self.status = status
        self.kind = kind
        self.detail = detail
        self.headers = headers
    }

    /// A name or value from the request, short enough to quote in a detail.
    static func shown(_ text: String) -> String {
        text.count > 64 ? String(text.prefix(64)) + "…" : text
    }

    var body: JSONValue {
        var members: [String: JSONValue] = [
            "schemas": .array([.string(Self.errorSchema)]), "status": .string(String(status.code)), "detail": .string(detail),
        ]
        if let kind { members["scimType"] = .string(kind.rawValue) }
        return .object(members)
    }

    /// The error's answer, in the media type the client asked for.
    func response(for request: Request) -> Response {
        SCIMResponse.json(body, status: status, headers: headers, for: request)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        response(for: request)
    }
}
