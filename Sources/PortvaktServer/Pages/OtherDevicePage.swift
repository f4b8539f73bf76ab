import Foundation
import PortvaktCore

/// "BankID on another device" for a desktop browser: the animated QR code, the status in a live
/// region, the time left and a cancel button. The script (``OtherDeviceScript``) swaps the QR
/// frame every second and collects every two; without it, a button checks the status.
enum OtherDevicePage {
    /// - Parameter methodsURL: the login's method choice, for choosing another way.
    static func render(sessionID: String, qrSVG: String, message: UserMessage, expiresAt: Date, now: Date, language: Language, methodsURL: String) -> String {
        let seconds = max(0, Int(expiresAt.timeIntervalSince(now).rounded(.up)))
        let body = """
        <h1>\(language.pick("BankID på en annen enhet", "BankID on another device"))</h1>
        <ol>
        <li>\(language.pick("Åpne BankID-appen på mobilen din.", "Open the BankID app on your phone."))</li>
        <li>\(language.pick("Velg «Skann QR-kode» og skann koden under.", "Choose “Scan QR code” and scan the code below."))</li>
        <li>\(language.pick("Følg instruksjonene i appen.", "Follow the instructions in the app."))</li>
        </ol>
        <div id="bankid-order" data-session="\(sessionID.htmlEscaped)" data-expires-at="\(Int(expiresAt.timeIntervalSince1970 * 1000))" \
        data-one-minute="\(language.pick("Ett minutt igjen.", "One minute left.").htmlEscaped)">
        <div id="qr" class="qr">\(qrSVG)</div>
        <p id="status" role="status" aria-live="polite">\(message.text(language).htmlEscaped)</p>
        <p>\(language.pick("Tid igjen", "Time left")): <span id="time-left">\(Self.clock(seconds))</span></p>
        <p id="time-warning" aria-live="assertive"></p>
        </div>
        <noscript><p>\(language.pick(
            "QR-koden skifter ikke uten JavaScript og virker bare i ca. 30 sekunder. Virker ikke skanningen, last inn siden på nytt.",
            "Without JavaScript the QR code does not change and works for about 30 seconds only. If scanning fails, reload the page."))</p>
        <form method="post" action="\(OtherDeviceRoutes.path)/collect">
        <input type="hidden" name="session" value="\(sessionID.htmlEscaped)">
        <button type="submit">\(language.pick("Jeg har identifisert meg – fortsett", "I have identified myself – continue"))</button>
        </form></noscript>
        <form method="post" action="\(OtherDeviceRoutes.path)/cancel">
        <input type="hidden" name="session" value="\(sessionID.htmlEscaped)">
        <button type="submit" class="secondary">\(language.pick("Avbryt", "Cancel"))</button>
        </form>
        <p><a href="\(methodsURL.htmlEscaped)">\(language.pick("Velg en annen måte å logge inn på", "Choose another way to log in"))</a></p>
        <script src="\(OtherDeviceRoutes.path).js"></script>
        """
        return BrokerPage.render(
            title: language.pick("BankID på en annen enhet", "BankID on another device"), language: language, switchLanguageURL: nil, body: body
        )
    }

    /// `m:ss`
    static func clock(_ seconds: Int) -> String {
        let remainder = seconds % 60
        return "\(seconds / 60):\(remainder < 10 ? "0" : "")\(remainder)"
    }
}

/// The other-device page's script: plain, no framework, same-origin requests only.
enum OtherDeviceScript {
    static let source = """
    (function () {
      "use strict";
      var root = document.getElementById("bankid-order");
      if (!root) { return; }
      var session = root.getAttribute("data-session");
      var expiresAt = Number(root.getAttribute("data-expires-at"));
      var qr = document.getElementById("qr");
      var status = document.getElementById("status");
      var timeLeft = document.getElementById("time-left");
      var warning = document.getElementById("time-warning");
      var warned = false;
      var ended = false;

      function post(path, body) {
        return fetch(path, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "Accept": "application/json" },
          body: JSON.stringify(body)
        }).then(function (response) { return response.json(); });
      }
      function say(text) {
        if (text && status.textContent !== text) { status.textContent = text; }
      }
      function frame() {
        if (ended) { return; }
        post("/bankid/orders/qr", { sessionId: session, format: "svg" }).then(function (answer) {
          if (answer.svg) { qr.innerHTML = answer.svg; }
        }).catch(function () {});
      }
      function collect() {
        if (ended) { return; }
        post("\(OtherDeviceRoutes.path)/collect", { sessionId: session }).then(function (answer) {
          say(answer.message);
          if (answer.redirect) {
            ended = true;
            window.location.assign(answer.redirect);
          }
        }).catch(function () {});
      }
      function tick() {
        var seconds = Math.max(0, Math.ceil((expiresAt - Date.now()) / 1000));
        var rest = seconds % 60;
        timeLeft.textContent = Math.floor(seconds / 60) + ":" + (rest < 10 ? "0" : "") + rest;
        if (seconds <= 60 && !warned) { warned = true; warning.textContent = root.getAttribute("data-one-minute"); }
      }
      setInterval(frame, 1000);
      setInterval(collect, 2000);
      setInterval(tick, 1000);
    })();
    """
}
