import Hummingbird
import PortvaktHTTP

/// `GET /openapi.json`: the OpenAPI 3.1 description of every JSON endpoint. Kept true by
/// `scripts/openapi-test.sh` (openapi-spec-validator, and schemathesis against a live server).
struct OpenAPIRoutes {
    func register(on routes: DeclaredRoutes) {
        routes.get("/openapi.json", .anonymous, surface: .json) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json))
            )
        }
    }
}

/// The document itself: `Resources/openapi.json`, the source of truth, compiled into the binary.
enum OpenAPIDocument {
    static let json = EmbeddedFile.text(PackageResources.openapi_json)
}
