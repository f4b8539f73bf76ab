import Foundation
import NIOHTTP1
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Every route the router serves (listed from the router, so a new route cannot be forgotten)
/// gets malformed JSON, wrong types, wrong content types, an oversized body, control characters
/// and Unicode edge cases in the path, the query, the form and the JSON, without a token, with a
/// member's token and with the sandbox admin's: the answer is never a 5xx and the server stays up.
@Suite("Hostile input on every route")
struct RouteWalkTests {
    /// Field names the JSON and form endpoints read, so that hostile values reach past "missing field".
    static let fieldNames = [
        "client_id", "redirect_uri", "code_challenge", "code_challenge_method", "return_url", "scope", "nonce", "ui_locales",
        "sessionId", "session", "personalNumber", "kind", "note", "occurred_at", "duration_minutes", "organisation", "contact_id",
        "display_name", "assigned_to", "amount_ore", "description", "public_key", "name", "biometric_kind", "assertion", "action",
        "keep", "remove", "resolution", "device_id", "purpose", "faults", "slow_seconds", "email", "password", "grant_type",
        "code", "code_verifier", "refresh_token", "token", "state", "status", "outcome", "user", "fault", "id_token_hint",
    ]

    struct Case {
        let name: String
        let query: String
        let body: (contentType: String, body: Data)?
    }

    static func cases(_ texts: inout HostileText) -> [Case] {
        func object(_ value: Any) -> Data {
            (try? JSONSerialization.data(withJSONObject: Dictionary(uniqueKeysWithValues: fieldNames.map { ($0, value) }))) ?? Data()
        }
        let hostile = texts.next()
        let controls = "a\u{0}b\nc\u{1B}d\u{85}e\u{2028}"
        let form = fieldNames.map { "\($0)=\(FormFields.encode(controls))" }.joined(separator: "&")
        let hostileForm = fieldNames.map { "\($0)=\(FormFields.encode(texts.next()))" }.joined(separator: "&")
        let rawQuery = fieldNames.prefix(12).map { "\($0)=\(texts.next(maxPieces: 6).addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? "%")" }.joined(separator: "&")
        return [
            Case(name: "nothing", query: "", body: nil),
            Case(name: "truncated JSON", query: "", body: ("application/json", Data("{".utf8))),
            Case(name: "empty JSON body", query: "", body: ("application/json", Data())),
            Case(name: "JSON array", query: "", body: ("application/json", Data("[]".utf8))),
            Case(name: "wrong types", query: "", body: ("application/json", object([1, [2]]))),
            Case(name: "numbers for strings", query: "", body: ("application/json", object(12345))),
            Case(name: "control characters in JSON", query: "", body: ("application/json", object(controls))),
            Case(name: "hostile Unicode in JSON", query: "", body: ("application/json", object(hostile))),
            Case(name: "control characters in a form", query: "", body: ("application/x-www-form-urlencoded", Data(form.utf8))),
            Case(name: "hostile Unicode in a form", query: "", body: ("application/x-www-form-urlencoded", Data(hostileForm.utf8))),
            Case(name: "broken percent-encoding in a form", query: "", body: ("application/x-www-form-urlencoded", Data("email=%ZZ&password=%&a=%C3".utf8))),
            Case(name: "wrong content type", query: "", body: ("text/plain", Data("hello".utf8))),
            Case(name: "oversized body", query: "", body: ("application/json", Data(("{\"note\":\"" + String(repeating: "x", count: 1_100_000) + "\"}").utf8))),
            Case(name: "control characters in the query", query: form, body: nil),
            Case(name: "hostile query", query: rawQuery, body: nil),
            Case(name: "repeated query fields", query: "status=a&status=b&organisation=nhf&organisation=hlf", body: nil),
        ]
    }

    @Test("S-robustness: no route answers hostile input with a 5xx, on either database", arguments: TestDatabase.kinds)
    func everyRoute(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let tokens = try await broker.tokens(provider: "bankid", user: "ingrid")
            let accessToken = try #require(tokens["access_token"] as? String)
            #expect(broker.routes.count >= 40, "the router lists its routes: \(broker.routes)")
            var texts = HostileText(seed: kind == .sqlite ? 1 : 2)
            var failures: [String] = []
            var sent = 0
            for route in broker.routes {
                let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
                let method = HTTPMethod(rawValue: parts[0])
                for (index, testCase) in Self.cases(&texts).enumerated() {
                    let parameter = [
                        "x", "%00", FormFields.encode(texts.next()), "00000000-0000-0000-0000-000000000000", "nhf",
                    ][index % 5]
                    let path = Self.fill(parts[1], with: parameter)
                    let url = path + (testCase.query.isEmpty ? "" : "?" + testCase.query)
                    for bearer in [nil, accessToken, LiveBroker.adminToken] {
                        var headers = [("Accept", index % 2 == 0 ? "application/json" : "text/html"), ("Idempotency-Key", "walk-\(sent)")]
                        if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
                        let reply = try await broker.send(url, method: method, raw: testCase.body, headers: headers)
                        sent += 1
                        if reply.status >= 500 {
                            failures.append("\(route) [\(testCase.name), \(bearer == nil ? "no token" : "token")] → \(reply.status) \(reply.body.prefix(160))")
                        }
                    }
                }
            }
            #expect(failures.isEmpty, "\(failures.count) of \(sent) requests answered 5xx:\n\(failures.prefix(40).joined(separator: "\n"))")
            let alive = try await broker.send("/health/live")
            #expect(alive.status == 200)
            #expect(sent > 1_500)
        }
    }

    /// The route's template with every `{parameter}` and wildcard replaced by `value`.
    static func fill(_ template: String, with value: String) -> String {
        "/" + template.split(separator: "/").map { segment in
            segment.contains("{") || segment.contains("*") ? value : String(segment)
        }.joined(separator: "/")
    }
}
