import Hummingbird

/// A file of the build served as it is (`/assets/…`), cached an hour.
struct StaticAsset: Sendable {
    let path: String
    let contentType: String
    let text: String

    func register(on routes: DeclaredRoutes) {
        let (contentType, text) = (contentType, text)
        routes.get(RouterPath(path), .anonymous, surface: .json) { _, _ in
            Response(
                status: .ok, headers: [.contentType: contentType, .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(string: text))
            )
        }
    }
}
