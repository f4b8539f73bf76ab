import Foundation
import Hummingbird
import PortvaktCore

extension Request {
    /// The query string's fields; a malformed or repeated parameter, or a control character, is a 400.
    public func queryFields() throws -> FormFields {
        do {
            return try FormFields.parse(uri.query ?? "")
        } catch {
            throw HTTPError(.badRequest, message: "The query string is refused: \(error.description)")
        }
    }

    /// The form body's fields (at most 64 KiB); anything else is a 400 or 415.
    public func formFields() async throws -> FormFields {
        guard headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
            throw HTTPError(.unsupportedMediaType, message: "Send application/x-www-form-urlencoded.")
        }
        let buffer = try await body.collect(upTo: 64 * 1024)
        do {
            return try FormFields.parse(String(buffer: buffer))
        } catch {
            throw HTTPError(.badRequest, message: "The form is refused: \(error.description)")
        }
    }

    /// The base URL the client reached us at, from the Host header; nil when it is not a plain
    /// host name or address with an optional port.
    public var baseURLFromHost: String? {
        guard let host = head.authority, !host.isEmpty, host.count <= 255,
              host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) })
        else { return nil }
        return "http://\(host)"
    }

    /// The credentials of an `Authorization: Basic` header, form-decoded (RFC 6749 §2.3.1).
    public var basicCredentials: (user: String, password: String)? {
        guard let header = headers[.authorization], header.lowercased().hasPrefix("basic "),
              let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
              let text = String(data: data, encoding: .utf8),
              let colon = text.firstIndex(of: ":")
        else { return nil }
        guard let user = FormFields.decode(text[..<colon]), let password = FormFields.decode(text[text.index(after: colon)...]) else { return nil }
        return (user, password)
    }

    /// The token of an `Authorization: Bearer` header.
    public var bearerToken: String? { authorizationToken(scheme: "Bearer") }

    /// The token of an `Authorization` header with `scheme` (compared without regard to case,
    /// RFC 9110 §11.1): `Bearer`, or `DPoP` (RFC 9449 §7.1).
    public func authorizationToken(scheme: String) -> String? {
        guard let header = headers[.authorization], header.lowercased().hasPrefix(scheme.lowercased() + " ") else { return nil }
        let token = header.dropFirst(scheme.count + 1).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// Whether the caller prefers JSON to HTML.
    public var wantsJSON: Bool {
        headers[.accept]?.contains("application/json") == true
    }
}
