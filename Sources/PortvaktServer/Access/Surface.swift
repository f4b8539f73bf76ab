/// Who reads a route's answers: a program reading the API's OAuth JSON, a person in a browser (a
/// page), or a member system speaking SCIM (RFC 7644's error shape). Declared with each route
/// (``DeclaredRoutes``); ``ErrorAnswerMiddleware`` and ``UnexpectedErrorMiddleware`` answer a
/// refusal or a failure in its shape.
enum Surface: Sendable, Equatable {
    case json, page, scim
}
