/// Who reads a route's answers: a program (JSON) or a person in a browser (a page). Declared with
/// each route (``DeclaredRoutes``); ``ErrorAnswerMiddleware`` answers a refusal in its shape.
enum Surface: Sendable, Equatable {
    case json, page
}
