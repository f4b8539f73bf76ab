import Foundation
import Hummingbird
import PortvaktDomain
import PortvaktHTTP

/// The SCIM routes' answers: `application/scim+json` (RFC 7644 §8.1), or `application/json` to a
/// client that accepts only that, never cached.
enum SCIMResponse {
    static let scimMediaType = "application/scim+json"
    static let listSchema = "urn:ietf:params:scim:api:messages:2.0:ListResponse"

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The media type to answer `request` with: SCIM's own unless the client accepts only plain JSON.
    static func mediaType(for request: Request) -> String {
        let accept = request.headers[.accept]?.lowercased() ?? ""
        let wantsPlainJSON = accept.contains("application/json") && !accept.contains("application/scim+json") && !accept.contains("*/*")
        return wantsPlainJSON ? "application/json" : scimMediaType
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:], for request: Request) -> Response {
        var headers: HTTPFields = [.contentType: mediaType(for: request), .cacheControl: "no-store"]
        headers.append(contentsOf: extra)
        // Encoding fails only for a number that is not finite, which no answer carries.
        let data = (try? encoder.encode(value)) ?? Data(#"{"schemas":["urn:ietf:params:scim:api:messages:2.0:Error"],"status":"500"}"#.utf8)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: data)))
    }

    /// One user, with its `ETag` (and its `Location` when it was just created, RFC 7644 §3.3).
    static func user(_ member: DirectoryMember, status: HTTPResponse.Status = .ok, baseURL: String, for request: Request) -> Response {
        var headers: HTTPFields = [.eTag: SCIMVersion.tag(member.version)]
        if status == .created { headers[.location] = SCIMUser.location(of: member.id, baseURL: baseURL) }
        return json(SCIMUser.resource(member, baseURL: baseURL), status: status, headers: headers, for: request)
    }

    /// A ListResponse (RFC 7644 §3.4.2): `Resources` always present, empty for a page past the end.
    static func list(_ resources: [JSONValue], total: Int, startIndex: Int, for request: Request) -> Response {
        json(.object([
            "schemas": .array([.string(listSchema)]), "totalResults": .integer(total), "startIndex": .integer(startIndex),
            "itemsPerPage": .integer(resources.count), "Resources": .array(resources),
        ]), for: request)
    }

    /// 304: the version `If-None-Match` named is the current one.
    static func notModified(_ member: DirectoryMember) -> Response {
        Response(status: .notModified, headers: [.eTag: SCIMVersion.tag(member.version), .cacheControl: "no-store"])
    }

    static var noContent: Response { Response(status: .noContent, headers: [.cacheControl: "no-store"]) }
}
