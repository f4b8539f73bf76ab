import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage

/// The `Idempotency-Key` header of a write the app may send again (an offline queue replaying):
/// the first request's result is returned for every repeat, and nothing more is written.
struct IdempotencyKey: Sendable {
    let value: String

    /// - Throws: 400 when the header is missing, or not 1–255 visible ASCII characters.
    init(_ request: Request) throws(OAuthFailure) {
        guard let value = request.headers[HTTPField.Name("Idempotency-Key")!],
              (1...255).contains(value.utf8.count), value.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else {
            throw OAuthFailure.invalidRequest("An Idempotency-Key header of 1 to 255 visible ASCII characters is required.")
        }
        self.value = value
    }

    /// A fingerprint of the request's meaning (its decoded body, re-encoded with sorted keys), so a
    /// replay with other whitespace is the same request, and one with other values is not.
    static func requestHash(_ body: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Data(SHA256.hash(data: try encoder.encode(body)))
    }

    /// The domain's key for a write of `body`.
    func writeKey(for body: some Encodable) throws -> WriteKey {
        WriteKey(value: value, requestHash: try Self.requestHash(body))
    }

    /// 201 with the row for the first request and for its repeats (a repeat is marked
    /// `Idempotent-Replayed: true`); 422 when the key came with another request before.
    static func response<Row: Sendable>(_ write: IdempotentWrite<Row>, _ body: (Row) -> some Encodable) throws -> Response {
        switch write {
        case .created(let row):
            return try APIResponse.json(body(row), status: .created)
        case .replayed(let row):
            return try APIResponse.json(body(row), status: .created, headers: [HTTPField.Name("Idempotent-Replayed")!: "true"])
        case .keyReused:
            throw OAuthFailure(
                error: .idempotencyKeyReused, description: "This Idempotency-Key was used with a different request.", status: .unprocessableContent
            )
        }
    }
}
