import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore
import PortvaktHTTP

/// The public keys `private_key_jwt` clients publish at their `jwks_uri` (RFC 7591 §2), fetched
/// when first needed and kept for five minutes. A fetch (or a failed one) is not repeated within
/// a minute, so that forged assertions with unknown `kid`s cannot make the server hammer the
/// client's host; within that minute the kept set answers, or the last failure. A set that
/// cannot be fetched again serves for a day at most. A cache of public data, not state: each
/// instance fetches its own.
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
        let jwks: String
        let kids: Set<String>
        let fetchedAt: Date
    }

    private var kept: [String: Kept] = [:]
    private var attempted: [String: Date] = [:]
    private var failed: [String: Unavailable] = [:]
    private var fetching: [String: Task<Kept, any Error>] = [:]
    /// The broker's client: no redirects (an https `jwks_uri` cannot hand over to http or to an
    /// internal host); nil where nothing authenticates clients (operator commands).
    private let http: (any OutboundHTTP)?
    private let deadline: Duration
    private let now: @Sendable () -> Date

    init(http: (any OutboundHTTP)?, timeout: Duration, now: @escaping @Sendable () -> Date) {
        self.http = http
        self.deadline = timeout
        self.now = now
    }

    /// The usable keys at `uri` (a JWKS as JSON), fetched again if `kid` is not among them.
    func jwks(at uri: String, kid: String?) async throws -> String {
        let now = now()
        let usable = kept[uri].flatMap { now.timeIntervalSince($0.fetchedAt) < Self.staleUse ? $0 : nil }
        if let usable, now.timeIntervalSince(usable.fetchedAt) < Self.lifetime, kid.map(usable.kids.contains) ?? true {
            return usable.jwks
        }
        if let last = attempted[uri], now.timeIntervalSince(last) < Self.refetchAfter {
            if let usable { return usable.jwks }
            throw failed[uri] ?? Unavailable(description: "\(uri) is being fetched")
        }
        attempted[uri] = now
        let task = fetching[uri] ?? Task { [http, deadline] in try await Self.fetch(uri, with: http, within: deadline, at: now) }
        fetching[uri] = task
        defer { if fetching[uri] == task { fetching[uri] = nil } }
        do {
            let fetched = try await task.value
            if fetched.fetchedAt >= kept[uri]?.fetchedAt ?? .distantPast { kept[uri] = fetched }
            failed[uri] = nil
            return fetched.jwks
        } catch {
            failed[uri] = error as? Unavailable ?? Unavailable(description: "\(uri) could not be read")
            if let usable { return usable.jwks }
            throw failed[uri]!
        }
    }

    /// One GET, the whole of it (headers and body) within `deadline`.
    private static func fetch(_ uri: String, with http: (any OutboundHTTP)?, within deadline: Duration, at now: Date) async throws -> Kept {
        guard let http else { throw Unavailable(description: "no HTTP client here") }
        let body = try await withThrowingTaskGroup(of: ByteBuffer.self) { group in
            group.addTask {
                var request = HTTPClientRequest(url: uri)
                request.headers.add(name: "Accept", value: "application/jwk-set+json, application/json")
                let response = try await http.execute(request, timeout: TimeAmount(deadline))
                guard response.status == .ok else { throw Unavailable(description: "\(uri) answered \(response.status.code)") }
                return try await response.body.collect(upTo: largestSet)
            }
            group.addTask {
                try await Task.sleep(for: deadline)
                throw Unavailable(description: "\(uri) took longer than \(deadline.components.seconds) s")
            }
            defer { group.cancelAll() }
            do {
                return try await group.next()!
            } catch let error as Unavailable {
                throw error
            } catch {
                throw Unavailable(description: "\(uri) could not be read (unreachable, or larger than \(largestSet) bytes)")
            }
        }
        let keys = try await usableKeys(in: Data(buffer: body))
        guard !keys.isEmpty, let data = try? JSONEncoder().encode(JWKS(keys: keys)) else {
            throw Unavailable(description: "\(uri) has no usable signing key (a kid, kty RSA or EC P-256, alg RS256, PS256 or ES256 if any)")
        }
        return Kept(jwks: String(decoding: data, as: UTF8.self), kids: Set(keys.compactMap { $0.keyIdentifier?.string }), fetchedAt: now)
    }

    /// The set's signing keys this server can check assertions with; the others (encryption
    /// keys, curves or types jwt-kit does not know) are passed over, as RFC 7517 §5 says.
    static func usableKeys(in data: Data) async throws -> [JWK] {
        guard case .object(let set)? = try? JSONDecoder().decode(JSONValue.self, from: data), case .array(let entries)? = set["keys"] else {
            throw Unavailable(description: "the document is not a JWK Set")
        }
        var keys: [JWK] = []
        for case .object(let fields) in entries {
            if let use = fields["use"], use != .string("sig") { continue }
            guard let encoded = try? JSONEncoder().encode(JSONValue.object(fields)), let key = try? JSONDecoder().decode(JWK.self, from: encoded),
                  AppClient.ClientKeys.isUsableAssertionKey(key), let kid = key.keyIdentifier
            else { continue }
            // jwt-kit builds a key when it is first asked for: ask now, so a bad point or modulus is passed over here.
            let alg = key.algorithm?.rawValue ?? (key.keyType == .rsa ? "RS256" : "ES256")
            guard (try? await JWTKeyCollection().add(jwk: key).getKey(for: kid, alg: alg)) != nil else { continue }
            keys.append(key)
        }
        return keys
    }
}
