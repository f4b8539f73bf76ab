import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktDomain

/// Pushed authorization requests (RFC 9126): stored sealed in `login_flows` under the hash of the
/// `request_uri`'s random part, for 60 seconds, and taken once.
extension LoginFlows {
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"
    static let pushedRequestLifetime: TimeInterval = 60
    private static let pushedKind = "par"

    /// Stores a checked request; returns its `request_uri`.
    func push(_ request: AppAuthorizationRequest) async throws -> String {
        let handle = randomToken()
        let now = self.now()
        let data = try JSONEncoder().encode(request)
        _ = try await store.insertLoginFlow(
            kind: Self.pushedKind, stateHash: RefreshTokenSecret.hash(handle), expiresAt: now.addingTimeInterval(Self.pushedRequestLifetime), now: now
        ) { id in try cipher.seal(data, context: "pushed-request:\(id)") }
        return Self.requestURIPrefix + handle
    }

    /// The pushed request of `requestURI` for `clientID`, removed so a second use finds nothing;
    /// nil when it is unknown, used, older than 60 seconds or another client's. Another client's
    /// attempt leaves it for its own (review II, item 9: a wrong client must not burn it).
    func takePushed(_ requestURI: String, clientID: String?) async throws -> AppAuthorizationRequest? {
        guard requestURI.hasPrefix(Self.requestURIPrefix) else { return nil }
        let hash = RefreshTokenSecret.hash(String(requestURI.dropFirst(Self.requestURIPrefix.count)))
        guard let flow = try await store.loginFlow(stateHash: hash, now: now()), flow.kind == Self.pushedKind else { return nil }
        let data = try cipher.open(flow.payload, context: "pushed-request:\(flow.id)")
        let request = try JSONDecoder().decode(AppAuthorizationRequest.self, from: data)
        guard request.clientID == clientID, try await store.takeLoginFlow(stateHash: hash, now: now()) != nil else { return nil }
        return request
    }
}

/// The links of the method and password pages of a pushed request: the request sealed by the
/// server (integrity and confidentiality as PAR gives them), valid as long as a login flow, and
/// opened by any instance. The link may choose the method (`idp_hint`) and the language
/// (`ui_locales`), nothing else.
struct AuthorizationContinuation: Codable {
    let request: AppAuthorizationRequest
    let expiresAt: Date

    static func seal(_ request: AppAuthorizationRequest, flows: LoginFlows) throws -> String {
        var request = request
        request.continuation = nil
        let data = try JSONEncoder().encode(AuthorizationContinuation(request: request, expiresAt: flows.now().addingTimeInterval(flows.lifetimes.loginFlow)))
        let sealed = try flows.cipher.seal(data, context: "authorization-continuation")
        return "\(sealed.keyID).\(sealed.combined.base64URLEncoded())"
    }

    /// The request sealed in `text`, with `continuation` set again for the next page's links;
    /// nil when it is not ours or has expired.
    static func open(_ text: String, flows: LoginFlows) -> AppAuthorizationRequest? {
        guard text.utf8.count <= 8192, let dot = text.lastIndex(of: "."),
              let combined = Data(base64URLEncoded: String(text[text.index(after: dot)...])),
              let data = try? flows.cipher.open(SealedValue(keyID: String(text[..<dot]), combined: combined), context: "authorization-continuation"),
              let continuation = try? JSONDecoder().decode(AuthorizationContinuation.self, from: data),
              continuation.expiresAt > flows.now()
        else { return nil }
        var request = continuation.request
        request.continuation = text
        return request
    }
}
