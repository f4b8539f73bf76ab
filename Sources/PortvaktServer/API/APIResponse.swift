import Hummingbird
import PortvaktDomain
import PortvaktHTTP

/// The app API's answers: bodies with `snake_case` keys, and every ``OAuthFailure`` as its
/// JSON body and status.
enum APIResponse {
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        try Responses.json(value, status: status, headers: headers, encoder: Responses.snakeCaseEncoder)
    }

    static func answer(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let failure as OAuthFailure {
            return try failure.response()
        } catch let refusal as DomainError {
            return try OAuthFailure(refusal).response()
        }
    }
}
