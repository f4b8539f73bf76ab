import PortvaktHTTP

/// The portal's one stylesheet (`Resources/portvakt.css`), served as a static file (`/assets/portvakt.css`): large text,
/// 44 px targets, visible focus, contrast of at least 4.5:1, one column that reflows to 320 px.
enum PortalStylesheet {
    static let path = "/assets/portvakt.css"
    static let css = EmbeddedFile.text(PackageResources.portvakt_css)
    static let asset = StaticAsset(path: path, contentType: "text/css; charset=utf-8", text: css)
}
