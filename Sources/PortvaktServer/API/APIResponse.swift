import Hummingbird
import PortvaktHTTP

/// The app API's answers: bodies with `snake_case` keys. Refusals are thrown and answered by
/// ``ErrorAnswerMiddleware``.
enum APIResponse {
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        try Responses.json(value, status: status, headers: headers, encoder: Responses.snakeCaseEncoder)
    }
}
