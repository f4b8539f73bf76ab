import Hummingbird

/// The page the start-up message points to: what this server is, in Norwegian and English.
struct HomePage {
    let sandboxEnabled: Bool

    func register(on router: Router<some RequestContext>) {
        let html = Self.html(sandboxEnabled: sandboxEnabled)
        router.get("/") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: html))
            )
        }
    }

    static func html(sandboxEnabled: Bool) -> String {
        let sandbox = sandboxEnabled
            ? #"<p>Sandkassen er på: BankID og Vipps er simulert. <span lang="en">The sandbox is on: BankID and Vipps are simulated.</span></p>"#
            : ""
        return """
        <!doctype html>
        <html lang="nb">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Portvakt</title>
        <style>
        body { font-family: system-ui, sans-serif; font-size: 1.125rem; line-height: 1.5; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; background: #fff; }
        a { color: #0b4f9c; }
        a:focus-visible { outline: 3px solid #0b4f9c; outline-offset: 2px; }
        </style>
        </head>
        <body>
        <main>
        <h1>Portvakt kjører</h1>
        <p>Innlogging for likepersoner, koordinatorer og administratorer i NHF, Blindeforbundet og HLF.</p>
        <p lang="en">Portvakt is running: sign-in for peer mentors, coordinators and administrators.</p>
        \(sandbox)
        <ul>
        <li><a href="/health/ready">Helsesjekk <span lang="en">(health check)</span></a></li>
        <li><a href="/.well-known/jwks.json">Offentlige nøkler <span lang="en">(public signing keys)</span></a></li>
        </ul>
        </main>
        </body>
        </html>
        """
    }
}
