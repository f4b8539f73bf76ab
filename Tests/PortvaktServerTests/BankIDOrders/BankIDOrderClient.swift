import Foundation
import PortvaktCore
import Testing

/// The app's side of the BankID order flow, over HTTP against a ``LiveBroker``.
extension LiveBroker {
    /// `POST /bankid/orders` for `login`'s PKCE challenge; `extra` adds or overrides fields.
    func startOrder(_ login: AppLogin, extra: [String: Any] = [:]) async throws -> Reply {
        let body: [String: Any] = [
            "client_id": login.clientID, "redirect_uri": login.redirectURI,
            "code_challenge": PKCE.challenge(for: login.verifier), "code_challenge_method": "S256", "scope": login.scope,
        ]
        return try await postJSON("/bankid/orders", body.merging(extra) { $1 })
    }

    /// A started order's session id and autostart token.
    func startedOrder(_ login: AppLogin, extra: [String: Any] = [:]) async throws -> (session: String, autoStartToken: String) {
        let reply = try await startOrder(login, extra: extra)
        #expect(reply.status == 201, "order start answered \(reply.status): \(reply.body)")
        let session = try #require(reply.string("sessionId"))
        let token = try #require(reply.string("autoStartToken"))
        return (session, token)
    }

    func collect(_ session: String) async throws -> Reply {
        try await postJSON("/bankid/orders/collect", ["sessionId": session])
    }

    func cancelOrder(_ session: String) async throws -> Reply {
        try await postJSON("/bankid/orders/cancel", ["sessionId": session])
    }

    func qrFrame(_ session: String, format: String = "data") async throws -> Reply {
        try await postJSON("/bankid/orders/qr", ["sessionId": session, "format": format])
    }

    /// The user's BankID app (the sandbox's) acting on the order it opened by autostart token or QR code.
    func bankIDApp(autoStartToken: String? = nil, qr: String? = nil, user: String = "magnus", action: String) async throws -> Reply {
        var form = [("user", user), ("action", action)]
        if let autoStartToken { form.append(("autostarttoken", autoStartToken)) }
        if let qr { form.append(("qr", qr)) }
        return try await send("/sandbox/bankid/app", method: .POST, form: form, headers: [("Accept", "application/json")])
    }
}
