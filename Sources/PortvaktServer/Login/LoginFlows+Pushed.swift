import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktDomain
import PortvaktModels

/// Pushed authorization requests (RFC 9126): stored sealed in `login_flows` under the hash of the
/// `request_uri`'s random part, for 60 seconds, and taken once.
extension LoginFlows {
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"
    static let pushedRequestLifetime: TimeInterval = 60
    private static let pushedKind = SealingContext.LoginFlowKind.pushedRequest

    /// Stores a checked request; returns its `request_uri`.
    func push(_ request: AppAuthorizationRequest) async throws -> String {
        let handle = randomToken()
        let now = self.now()
        let data = try JSONEncoder().encode(request)
        _ = try await store.insertLoginFlow(
            kind: Self.pushedKind, stateHash: RefreshTokenSecret.hash(handle), expiresAt: now.addingTimeInterval(Self.pushedRequestLifetime), now: now
        ) { id in try cipher.seal(data, context: SealingContext.loginFlow(kind: Self.pushedKind, id: id)) }
        return Self.requestURIPrefix + handle
    }

    /// The pushed request of `requestURI` for `clientID`, removed so a second use finds nothing;
    /// nil when it is unknown, used, older than 60 seconds or another client's. Another client's
    /// attempt leaves it for its own (review II, item 9: a wrong client must not burn it).
    func takePushed(_ requestURI: String, clientID: String?) async throws -> AppAuthorizationRequest? {
        guard requestURI.hasPrefix(Self.requestURIPrefix) else { return nil }
        let hash = RefreshTokenSecret.hash(String(requestURI.dropFirst(Self.requestURIPrefix.count)))
        guard let flow = try await store.loginFlow(stateHash: hash, now: now()), flow.kind == Self.pushedKind else { return nil }
        let data = try cipher.open(flow.payload, context: SealingContext.loginFlow(kind: flow.kind, id: flow.id))
        let request = try JSONDecoder().decode(AppAuthorizationRequest.self, from: data)
        guard request.clientID == clientID, try await store.takeLoginFlow(stateHash: hash, now: now()) != nil else { return nil }
        return request
    }
}

/// The links of the method and password pages of a pushed request (`continuation`): the request
/// stored sealed in `login_flows` under the hash of a random handle, until the pushed request's
/// login would have expired, and read by any instance. A page's link may choose the method
/// (`idp_hint`) and the language (`ui_locales`), nothing else. The step that starts a login with
/// it takes it out, so a link someone else saw starts nothing once used (review IV, item 5); that
/// step's page gets a new handle for its own links ("back to the methods", the language).
extension LoginFlows {
    private static let continuationKind = SealingContext.LoginFlowKind.continuation

    struct Continued {
        let request: AppAuthorizationRequest
        let expiresAt: Date
    }

    /// Stores `request` for its pages' links until `expiresAt`; returns the handle they carry.
    func continuation(for request: AppAuthorizationRequest, expiresAt: Date) async throws -> String {
        var request = request
        request.continuation = nil
        let handle = randomToken()
        let data = try JSONEncoder().encode(request)
        _ = try await store.insertLoginFlow(kind: Self.continuationKind, stateHash: RefreshTokenSecret.hash(handle), expiresAt: expiresAt, now: now()) { id in
            try cipher.seal(data, context: SealingContext.loginFlow(kind: Self.continuationKind, id: id))
        }
        return handle
    }

    /// The request behind a page's link for `clientID`; with `take`, removed so the link starts
    /// one login only. Nil when it is unknown, used, expired or another client's (which leaves it).
    func continued(_ handle: String, clientID: String?, take: Bool) async throws -> Continued? {
        guard handle.utf8.count <= 128 else { return nil }
        let hash = RefreshTokenSecret.hash(handle)
        guard let flow = try await store.loginFlow(stateHash: hash, now: now()), flow.kind == Self.continuationKind else { return nil }
        let data = try cipher.open(flow.payload, context: SealingContext.loginFlow(kind: flow.kind, id: flow.id))
        let request = try JSONDecoder().decode(AppAuthorizationRequest.self, from: data)
        guard request.clientID == clientID else { return nil }
        if take, try await store.takeLoginFlow(stateHash: hash, now: now()) == nil { return nil }
        return Continued(request: request, expiresAt: Date(millisecondsSince1970: flow.expiresAt))
    }
}
