import Foundation
import Hummingbird
import PortvaktCore
import PortvaktProtocol

extension Request {
    /// A JSON body of at most `limit` bytes; anything else is a 400, 413 or 415 that says what to send.
    ///
    /// No string in the body may carry a control character (a NUL would reach SQL, a line break a
    /// log), except line breaks and tabs in the fields named by `multiline` (free text).
    func decodeJSON<T: Decodable>(_ type: T.Type, limit: Int = 16 * 1024, multiline: Set<String> = []) async throws(OAuthFailure) -> T {
        guard headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw OAuthFailure(error: .invalidRequest, description: "Send a JSON body (Content-Type: application/json).", status: .unsupportedMediaType)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: limit)
        } catch {
            throw OAuthFailure(error: .invalidRequest, description: "The body is larger than \(limit / 1024) KiB.", status: .contentTooLarge)
        }
        let data = Data(buffer: buffer)
        let value: T
        do {
            value = try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw OAuthFailure.invalidRequest("The body is not the JSON object this endpoint expects.")
        }
        if let field = JSONText.fieldWithControlCharacters(in: data, multiline: multiline) {
            throw OAuthFailure.invalidRequest("The field \"\(field)\" contains control characters.")
        }
        return value
    }
}

/// Finds control characters in the strings of a JSON document.
enum JSONText {
    /// The name of the first member (or `body` for the document itself) whose name or string
    /// value holds a control character; nil when there is none.
    static func fieldWithControlCharacters(in data: Data, multiline: Set<String>) -> String? {
        // Raw C0 controls are invalid JSON already; the rest arrive escaped (a backslash), as
        // DEL (7F), or as C1 controls and separators (UTF-8 lead bytes C2 and E2).
        guard data.contains(where: { $0 == UInt8(ascii: "\\") || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }),
              let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return nil }
        return find(in: object, name: "body", multiline: multiline)
    }

    private static func find(in value: Any, name: String, multiline: Set<String>) -> String? {
        switch value {
        case let text as String:
            return TextInput.hasControlCharacters(text, allowingLineBreaks: multiline.contains(name)) ? name : nil
        case let array as [Any]:
            return array.lazy.compactMap { find(in: $0, name: name, multiline: multiline) }.first
        case let object as [String: Any]:
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                if TextInput.hasControlCharacters(key) { return "(unreadable)" }
                if let field = find(in: member, name: key, multiline: multiline) { return field }
            }
            return nil
        default:
            return nil
        }
    }
}
