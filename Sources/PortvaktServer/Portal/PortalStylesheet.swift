import Hummingbird

/// The portal's one stylesheet, served as a static file (`/assets/portvakt.css`): large text,
/// 44 px targets, visible focus, contrast of at least 4.5:1, one column that reflows to 320 px.
enum PortalStylesheet {
    static let path = "/assets/portvakt.css"

    static func register(on router: Router<some RequestContext>) {
        router.get(RouterPath(path)) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(string: css))
            )
        }
    }

    static let css = """
    *, *::before, *::after { box-sizing: border-box; }
    html { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 112.5%; line-height: 1.5; color: #1a1a1a; background: #fff; }
    body { margin: 0; overflow-wrap: anywhere; }
    header, main { max-width: 44rem; margin: 0 auto; padding: 0 1rem; }
    header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; justify-content: space-between; border-bottom: 1px solid #d0d0d0; padding-top: .5rem; padding-bottom: .5rem; }
    header .site { margin: 0; font-weight: 700; font-size: 1.2rem; }
    header ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0; padding: 0; align-items: center; }
    header form { margin: 0; }
    main { padding-top: 1rem; padding-bottom: 3rem; }
    main:focus { outline: none; }
    h1 { font-size: 1.75rem; line-height: 1.25; }
    h2 { font-size: 1.35rem; margin-top: 2rem; }
    h3 { font-size: 1.1rem; margin: 0 0 .25rem; }
    a { color: #0b4f9c; }
    a, button { min-height: 44px; }
    header a, nav a { display: inline-flex; align-items: center; }
    .skip { position: absolute; left: -100vw; top: 0; background: #fff; padding: .5rem 1rem; z-index: 1; }
    .skip:focus { left: 1rem; }
    :focus-visible { outline: 3px solid #b3261e; outline-offset: 2px; }
    .button, button { display: inline-flex; align-items: center; justify-content: center; font: inherit; padding: .5rem 1.25rem; border: 2px solid #0b4f9c;
      border-radius: .25rem; background: #0b4f9c; color: #fff; text-decoration: none; cursor: pointer; margin: .25rem 0; min-width: 44px; }
    .button.secondary, button.secondary { background: #fff; color: #0b4f9c; }
    button.link { background: none; border: none; color: #0b4f9c; text-decoration: underline; padding: 0; margin: 0; }
    .actions, .people, .cards { list-style: none; padding: 0; }
    .actions li { margin: .5rem 0; }
    .people > li, .cards > li { border: 1px solid #8a8a8a; border-radius: .25rem; padding: .75rem 1rem; margin: .75rem 0; }
    .people p, .cards p { margin: .25rem 0; }
    .pair { display: flex; flex-wrap: wrap; gap: .5rem; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 1rem; margin: .25rem 0 .5rem; }
    dt { font-weight: 600; }
    dd { margin: 0; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid #d0d0d0; vertical-align: top; }
    .status { border-left: 6px solid #1e6b34; background: #eef7f0; padding: .5rem .75rem; }
    .error { border-left: 6px solid #b3261e; background: #fdf1f0; padding: .5rem .75rem; }
    code { overflow-wrap: anywhere; }
    .method { display: flex; align-items: center; justify-content: center; text-align: center; padding: .75rem 1rem; margin: .75rem 0; border: 2px solid #1a1a1a;
      border-radius: .25rem; text-decoration: none; color: #1a1a1a; background: #fff; }
    .method.primary { background: #0b4f9c; color: #fff; border-color: #0b4f9c; }
    label { display: block; font-weight: 600; margin-top: 1rem; }
    input { font: inherit; width: 100%; padding: .6rem; border: 2px solid #595959; border-radius: .25rem; min-height: 44px; }
    input[type=hidden] { display: none; }
    .qr svg { width: 100%; max-width: 18rem; height: auto; display: block; }
    select { font: inherit; width: 100%; padding: .5rem; border: 2px solid #595959; border-radius: .25rem; min-height: 44px; background: #fff; color: #1a1a1a; }
    input[type=radio], input[type=checkbox] { width: 24px; min-height: 24px; height: 24px; margin: 0; accent-color: #0b4f9c; }
    .choice { display: flex; gap: .75rem; align-items: center; margin: .5rem 0; }
    .choice label { margin: 0; font-weight: 400; }
    fieldset { border: 1px solid #8a8a8a; border-radius: .25rem; margin: 1rem 0; padding: .5rem 1rem; }
    legend { font-weight: 600; padding: 0 .25rem; }
    .subnav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: 0; margin: 0 0 1rem; border-bottom: 1px solid #d0d0d0; }
    .subnav a[aria-current] { font-weight: 700; text-decoration-thickness: 3px; }
    .filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; margin: 1rem 0; }
    .filters > div { flex: 1 1 10rem; }
    .filters label { margin-top: 0; }
    .filters fieldset { flex: 1 1 100%; }
    .table-scroll { overflow-x: auto; margin: 1rem 0; }
    .table-scroll:focus-visible { outline: 3px solid #b3261e; }
    caption { text-align: left; font-weight: 600; padding: .25rem 0; }
    table form { margin: 0; }
    .counts { list-style: none; padding: 0; display: grid; gap: .75rem; }
    .counts a { display: flex; gap: .75rem; align-items: baseline; border: 1px solid #8a8a8a; border-radius: .25rem; padding: .75rem 1rem; }
    .count { font-size: 1.75rem; font-weight: 700; }
    .notice { border: 2px solid #0b4f9c; border-radius: .25rem; padding: .5rem 1rem; margin: 1rem 0; }
    .notice h2 { margin-top: .5rem; }
    .error-summary { border: 3px solid #b3261e; border-radius: .25rem; padding: .5rem 1rem; margin: 1rem 0; }
    .error-summary h2 { margin-top: .25rem; }
    .verified { border-left: 6px solid #1e6b34; background: #eef7f0; padding: .5rem .75rem; }
    .number { font-variant-numeric: tabular-nums; }
    .pair-columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 0 1.5rem; }
    .paging ul { list-style: none; display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; padding: 0; align-items: center; }
    main.wide, header.wide { max-width: 72rem; }
    @media (max-width: 30rem) { dl { grid-template-columns: 1fr; } }
    """
}
