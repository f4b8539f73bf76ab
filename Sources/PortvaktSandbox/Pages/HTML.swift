import PortvaktCore

/// Minimal HTML building: escaping and the page frame every sandbox page shares.
enum HTML {
    static func escape(_ text: String) -> String {
        text.htmlEscaped
    }

    /// A complete page with the sandbox banner, in `language`. `body` is trusted HTML.
    static func page(title: String, language: Language, body: String) -> String {
        """
        <!doctype html>
        <html lang="\(language.rawValue)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title)) – \(language.pick("Sandkasse", "Sandbox"))</title>
        <style>
        body { font-family: system-ui, sans-serif; font-size: 1.125rem; line-height: 1.5; max-width: 40rem; margin: 0 auto; padding: 0 1rem 2rem; color: #1a1a1a; background: #fff; overflow-wrap: anywhere; }
        .banner { background: #ffd400; color: #1a1a1a; border: 3px solid #1a1a1a; padding: .75rem 1rem; margin: 1rem 0; font-weight: 700; }
        fieldset { border: 2px solid #595959; padding: .5rem 1rem; margin: 1rem 0; }
        legend { font-weight: 700; padding: 0 .25rem; }
        label { display: block; padding: .35rem 0; }
        input[type=text] { font-size: 1rem; width: 100%; padding: .5rem; border: 2px solid #595959; box-sizing: border-box; }
        button { font-size: 1.125rem; padding: .6rem 1.4rem; margin: .5rem .75rem .5rem 0; border: 2px solid #1a1a1a; border-radius: .25rem; cursor: pointer; min-height: 44px; }
        button.primary { background: #0b4f9c; color: #fff; border-color: #0b4f9c; }
        button.secondary { background: #fff; color: #1a1a1a; }
        a { color: #0b4f9c; }
        :focus-visible { outline: 3px solid #b3261e; outline-offset: 2px; }
        .error { border-left: 6px solid #b3261e; padding-left: .75rem; }
        code { background: #f0f0f0; padding: 0 .2rem; overflow-wrap: anywhere; }
        </style>
        </head>
        <body>
        <header><p class="banner" role="note">\(language.pick(
            "SANDKASSE – dette er ikke ekte BankID eller Vipps. Bare syntetiske testpersoner.",
            "SANDBOX – this is not the real BankID or Vipps. Synthetic test people only."))</p></header>
        <main>
        \(body)
        </main>
        </body>
        </html>
        """
    }
}
