import Foundation

/// The client data the browser signed over (WebAuthn L3 §5.8.1): its type, the challenge
/// (base64url) and the origin of the page that called the API.
public struct ClientData: Sendable, Decodable {
    public let type: String
    public let challenge: String
    public let origin: String
    public let crossOrigin: Bool?
    public let topOrigin: String?

    /// Client data is a few hundred bytes; far more is not a browser's.
    static let maximumLength = 4096

    public static func parse(_ json: [UInt8]) throws(WebAuthnError) -> ClientData {
        guard json.count <= maximumLength else { throw .malformed("client data too long") }
        do {
            return try JSONDecoder().decode(ClientData.self, from: Data(json))
        } catch {
            throw .malformed("client data is not the expected JSON")
        }
    }
}
