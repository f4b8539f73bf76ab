import Foundation
import Hummingbird
import PortvaktCore
import PortvaktProtocol

/// Response builders shared by the broker and the sandbox: JSON, HTML pages, redirects, OAuth errors.
public enum Responses {
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `snake_case` keys from camelCase properties, as the app's API (`/v1/…`) writes them.
    public static let snakeCaseEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()

    public static func json(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:], encoder: JSONEncoder = encoder
    ) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: try encoder.encode(value))))
    }

    public static func html(_ page: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; style-src 'self'; form-action 'self' http: https:; frame-ancestors 'none'",
            ],
            body: .init(byteBuffer: ByteBuffer(string: page))
        )
    }

    public static func redirect(to location: String, status: HTTPResponse.Status = .found) -> Response {
        Response(status: status, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// An OAuth 2.0 error body (RFC 6749 §5.2), with Portvakt's `message_id` when the user is
    /// to see a message, and a `WWW-Authenticate` challenge for 401s.
    public static func oauthError(
        _ error: String, _ description: String, messageID: String? = nil, status: HTTPResponse.Status = .badRequest, challenge: String? = nil
    ) throws -> Response {
        var headers: HTTPFields = [:]
        if let challenge { headers[.wwwAuthenticate] = challenge }
        return try json(ErrorResponse(error: error, errorDescription: description, messageID: messageID), status: status, headers: headers)
    }
}
