import Hummingbird

/// The API's error answers: every ``OAuthFailure`` becomes its JSON body and status.
enum APIResponse {
    static func answer(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let failure as OAuthFailure {
            return try failure.response()
        }
    }
}
