import Foundation
import Hummingbird

extension Request {
    /// A JSON body of at most `limit` bytes; anything else is a 400, 413 or 415 that says what to send.
    func decodeJSON<T: Decodable>(_ type: T.Type, limit: Int = 16 * 1024) async throws(OAuthFailure) -> T {
        guard headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw OAuthFailure(error: "invalid_request", description: "Send a JSON body (Content-Type: application/json).", status: .unsupportedMediaType)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: limit)
        } catch {
            throw OAuthFailure(error: "invalid_request", description: "The body is larger than \(limit / 1024) KiB.", status: .contentTooLarge)
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch {
            throw OAuthFailure.invalidRequest("The body is not the JSON object this endpoint expects.")
        }
    }
}
