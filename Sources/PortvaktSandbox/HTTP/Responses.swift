import Foundation
import Hummingbird

enum Responses {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: try encoder.encode(value))))
    }

    static func html(_ page: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
            ],
            body: .init(byteBuffer: ByteBuffer(string: page))
        )
    }

    static func redirect(to location: String, status: HTTPResponse.Status = .found) -> Response {
        Response(status: status, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// An OAuth 2.0 error body (RFC 6749 §5.2).
    static func oauthError(_ error: String, _ description: String, status: HTTPResponse.Status = .badRequest) throws -> Response {
        var headers: HTTPFields = [:]
        if status == .unauthorized { headers[.wwwAuthenticate] = #"Basic realm="sandbox""# }
        return try json(["error": error, "error_description": description], status: status, headers: headers)
    }
}

extension URLComponents {
    /// `uri` with `fields` appended to its query, each value percent-encoded.
    static func appending(_ fields: [(String, String)], to uri: String) -> String {
        let query = fields.map { "\($0.0)=\(FormFields.encode($0.1))" }.joined(separator: "&")
        return uri + (uri.contains("?") ? "&" : "?") + query
    }
}
