import Foundation
import Hummingbird
import JWTKit
import PortvaktDomain

/// The public keys that verify Portvakt's tokens (RFC 7517 JWK Set).
struct KeyRoutes {
    let keys: SigningKeyCache

    func register(on routes: DeclaredRoutes) {
        routes.get("/.well-known/jwks.json", .anonymous, surface: .json) { _, _ in
            let jwks = try await keys.current().jwks
            var headers = HTTPFields()
            headers[.contentType] = "application/jwk-set+json"
            headers[.cacheControl] = "public, max-age=300"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: try JSONEncoder().encode(jwks))))
        }
    }
}
