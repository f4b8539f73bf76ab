import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore

/// The public keys `private_key_jwt` clients publish at their `jwks_uri` (RFC 7591 §2), fetched
/// when first needed and kept for five minutes. An assertion naming a `kid` the kept set lacks
/// fetches again (the client rotated its keys), at most once a minute per client, so that forged
/// assertions cannot make the server hammer the client's host; a set that cannot be fetched
/// again is used for up to a day. A cache of public data, not state: each instance fetches its own.
actor PublishedClientKeys {
    static let lifetime: TimeInterval = 300
    static let refetchAfter: TimeInterval = 60
    static let staleUse: TimeInterval = 86_400
    static let largestSet = 64 * 1024

    /// Why no keys could be had; for the log, never the client.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    private struct Kept {
        var jwks: String
        var kids: Set<String>
        var fetchedAt: Date
        var attemptedAt: Date
    }

    private var kept: [String: Kept] = [:]
    private var fetching: [String: Task<Kept, any Error>] = [:]
    private let timeout: TimeAmount
    private let now: @Sendable () -> Date

    init(timeout: Duration, now: @escaping @Sendable () -> Date) {
        self.timeout = TimeAmount(timeout)
        self.now = now
    }

    /// The usable keys at `uri` (a JWKS as JSON), fetched again if `kid` is not among them.
    func jwks(at uri: String, kid: String?) async throws -> String {
        let now = now()
        if let set = kept[uri] {
            let fresh = now.timeIntervalSince(set.fetchedAt) < Self.lifetime
            let lacksKid = kid.map { !set.kids.contains($0) } ?? false
            let mayTryAgain = now.timeIntervalSince(set.attemptedAt) >= Self.refetchAfter
            if !mayTryAgain || (fresh && !lacksKid) { return set.jwks }
            kept[uri]?.attemptedAt = now
        }
        let task = fetching[uri] ?? Task { try await Self.fetch(uri, timeout: timeout, at: now) }
        fetching[uri] = task
        do {
            let fetched = try await task.value
            fetching[uri] = nil
            kept[uri] = fetched
            return fetched.jwks
        } catch {
            fetching[uri] = nil
            if let set = kept[uri], now.timeIntervalSince(set.fetchedAt) < Self.staleUse { return set.jwks }
            throw error
        }
    }

    private static func fetch(_ uri: String, timeout: TimeAmount, at now: Date) async throws -> Kept {
        var request = HTTPClientRequest(url: uri)
        request.headers.add(name: "Accept", value: "application/jwk-set+json, application/json")
        let body: ByteBuffer
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: timeout)
            guard response.status == .ok else { throw Unavailable(description: "\(uri) answered \(response.status.code)") }
            body = try await response.body.collect(upTo: largestSet)
        } catch let error as Unavailable {
            throw error
        } catch {
            throw Unavailable(description: "\(uri) could not be read (unreachable, too slow, or larger than \(largestSet) bytes)")
        }
        guard let set = try? JSONDecoder().decode(JWKS.self, from: Data(buffer: body)) else {
            throw Unavailable(description: "\(uri) is not a JWK Set")
        }
        let usable = set.keys.filter(AppClient.ClientKeys.isUsableAssertionKey)
        guard !usable.isEmpty, let data = try? JSONEncoder().encode(JWKS(keys: usable)) else {
            throw Unavailable(description: "\(uri) has no usable key (a kid, kty RSA or EC P-256, alg RS256, PS256 or ES256 if any)")
        }
        return Kept(jwks: String(decoding: data, as: UTF8.self), kids: Set(usable.compactMap { $0.keyIdentifier?.string }), fetchedAt: now, attemptedAt: now)
    }
}
