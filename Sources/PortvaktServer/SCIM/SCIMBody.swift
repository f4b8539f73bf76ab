import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP

/// Reads a SCIM request's body: at most 1 MiB of `application/scim+json` (or `application/json`)
/// holding one JSON object with no control characters in its strings. Each failure is a SCIM
/// 4xx that says what to send.
enum SCIMBody {
    static let limit = 1024 * 1024

    static func object(of request: Request) async throws -> [String: JSONValue] {
        if let contentType = request.headers[.contentType] {
            let media = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            guard media == SCIMResponse.scimMediaType || media == "application/json" else { throw SCIMError.unsupportedMediaType }
        }
        // A declared length over the limit is refused before a byte is read.
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw SCIMError.tooLarge }
        let data: Data
        do {
            let buffer = try await request.body.collect(upTo: limit)
            data = Data(buffer: buffer)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw SCIMError.tooLarge
        } catch {
            throw SCIMError.invalidSyntax("The body could not be read: it is framed wrongly.")
        }
        guard !data.isEmpty else { throw SCIMError.invalidSyntax("Send a JSON object in the body.") }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw SCIMError.invalidSyntax("The body is not valid JSON.")
        }
        guard case .object(let object) = value else { throw SCIMError.invalidSyntax("The body must be a JSON object.") }
        // A NUL would reach SQL, a line break a log (as on the app's API).
        if let field = JSONText.fieldWithControlCharacters(in: data, multiline: []) {
            throw SCIMError.invalidValue("The attribute \"\(field)\" contains control characters.")
        }
        return object
    }
}

/// `startIndex` and `count` of a list (RFC 7644 §3.4.2.4), as the RFC bounds them: a
/// `startIndex` below 1 is 1, a negative `count` is 0, and a `count` over 1000 is 1000. A
/// `startIndex` past a billion is a billion (no organisation has that many members), so no
/// arithmetic on it can overflow.
struct SCIMPage: Sendable, Equatable {
    static let maximum = 1000
    static let defaultCount = 100
    static let lastStartIndex = 1_000_000_000

    let startIndex: Int
    let count: Int

    init(startIndex: String?, count: String?) throws {
        let start = try Self.number(startIndex, named: "startIndex") ?? 1
        let size = try Self.number(count, named: "count") ?? Self.defaultCount
        self.startIndex = min(Self.lastStartIndex, max(1, start))
        self.count = min(Self.maximum, max(0, size))
    }

    /// The whole number in `text` (one too large for an `Int` as the largest or smallest there is).
    private static func number(_ text: String?, named name: String) throws -> Int? {
        guard let text else { return nil }
        let digits = text.trimmingCharacters(in: .whitespaces)
        if let value = Int(digits) { return value }
        let unsigned = digits.hasPrefix("-") || digits.hasPrefix("+") ? digits.dropFirst() : Substring(digits)
        guard !unsigned.isEmpty, unsigned.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw SCIMError.invalidValue("\(name) is a whole number, such as \(name)=1.")
        }
        return digits.hasPrefix("-") ? Int.min : Int.max
    }
}
