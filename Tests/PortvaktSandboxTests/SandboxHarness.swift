import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import PortvaktCore
@testable import PortvaktSandbox

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)

    var now: Date { lock.withLock { current } }

    func advance(seconds: TimeInterval) {
        lock.withLock { current += seconds }
    }
}

/// A sandbox on an in-process router with one registered client per provider.
struct SandboxHarness {
    static let adminToken = "test-admin-token-0123456789"
    static let redirectURI = "https://broker.example/callback"
    static let clientSecret = "client-secret-0123456789"

    let sandbox: Sandbox
    let clock: TestClock
    let app: Application<RouterResponder<StandaloneSandboxContext>>

    init(faults: [SandboxProvider: FaultSettings] = [:], personnummerApproved: Bool = true) throws {
        let clock = TestClock()
        sandbox = try Sandbox(configuration: SandboxConfiguration(
            adminToken: Self.adminToken, faults: faults,
            clients: SandboxProvider.allCases.map {
                SandboxClient(provider: $0, clientID: "broker", clientSecret: Self.clientSecret, redirectURIs: [Self.redirectURI],
                              personnummerApproved: personnummerApproved)
            },
            now: { clock.now }
        ))
        self.clock = clock
        let router = Router(context: StandaloneSandboxContext.self)
        sandbox.addRoutes(to: router)
        app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// Runs `body` with an in-process client.
    func run<Value: Sendable>(_ mode: TestingSetup = .router, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await app.test(mode) { client in try await body(client) }
    }
}

/// One authorization request's parameters, valid by default.
struct AuthorizationRequest: Sendable {
    var provider: SandboxProvider
    var clientID = "broker"
    var redirectURI = SandboxHarness.redirectURI
    var scope: String
    var state = "state-0123456789"
    var nonce = "nonce-0123456789"
    var verifier: String? = "verifier-" + String(repeating: "v", count: 40)
    var method = "S256"
    var user = "kari"
    var action: String? = "approve"
    var extra: [(String, String)] = []

    init(_ provider: SandboxProvider, scope: String? = nil) {
        self.provider = provider
        self.scope = scope ?? (provider == .vipps ? "openid name phoneNumber birthDate email nin" : "openid profile nnin_altsub nnin")
    }

    var challenge: String? {
        verifier.map { Data(SHA256.hash(data: Data($0.utf8))).base64URLEncoded() }
    }

    var uri: String {
        var fields = [("client_id", clientID), ("redirect_uri", redirectURI), ("response_type", "code"), ("scope", scope),
                      ("state", state), ("nonce", nonce)]
        if let challenge { fields += [("code_challenge", challenge), ("code_challenge_method", method)] }
        if let action { fields += [("sandbox_user", user), ("sandbox_action", action)] }
        fields += extra
        return URLComponents.appending(fields, to: "/sandbox" + provider.authorizationPath)
    }
}

extension TestClientProtocol {
    /// The query fields of the redirect an authorization request answers with.
    func authorize(_ request: AuthorizationRequest) async throws -> [String: String] {
        let response = try await execute(uri: request.uri, method: .get)
        guard response.status == .found, let location = response.headers[.location] else {
            throw HarnessError("authorize answered \(response.status), not a redirect")
        }
        return try location.queryFields(expectedPrefix: request.redirectURI)
    }

    func token(
        _ provider: SandboxProvider, code: String, verifier: String?, redirectURI: String = SandboxHarness.redirectURI,
        clientID: String = "broker", secret: String = SandboxHarness.clientSecret, extra: [(String, String)] = []
    ) async throws -> TestResponse {
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI)]
        if let verifier { fields.append(("code_verifier", verifier)) }
        fields += extra
        let basic = Data("\(clientID):\(secret)".utf8).base64EncodedString()
        return try await execute(
            uri: "/sandbox" + provider.tokenPath, method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded", .authorization: "Basic \(basic)"],
            body: ByteBuffer(string: URLComponents.appending(fields, to: "").dropFirst().description)
        )
    }

    /// Logs in and exchanges the code: the token response's JSON.
    func login(_ request: AuthorizationRequest) async throws -> [String: Any] {
        let redirect = try await authorize(request)
        guard let code = redirect["code"] else { throw HarnessError("no code in \(redirect)") }
        let response = try await token(request.provider, code: code, verifier: request.verifier)
        guard response.status == .ok else { throw HarnessError("token answered \(response.status): \(String(buffer: response.body))") }
        return try response.json()
    }

    func json(_ uri: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:], body: String? = nil) async throws -> (HTTPResponse.Status, [String: Any]) {
        let response = try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (response.status, (try? response.json()) ?? [:])
    }
}

extension TestResponse {
    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] else {
            throw HarnessError("not a JSON object")
        }
        return object
    }
}

extension String {
    func queryFields(expectedPrefix: String) throws -> [String: String] {
        guard hasPrefix(expectedPrefix + "?"), let components = URLComponents(string: self) else {
            throw HarnessError("redirected to \(self), not to \(expectedPrefix)")
        }
        return Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The ID token claims a relying party checks.
struct VerifiedIDToken: JWTPayload {
    let iss: IssuerClaim
    let sub: SubjectClaim
    let aud: AudienceClaim
    let exp: ExpirationClaim
    let iat: IssuedAtClaim
    let nonce: String?
    let acr: String?
    let amr: [String]?
    let nnin_altsub: String?
    let nin: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension TestClientProtocol {
    /// Verifies an ID token against the provider's published JWKS, as a relying party would.
    func verifyIDToken(_ token: String, provider: SandboxProvider) async throws -> VerifiedIDToken {
        let jwks = try await execute(uri: "/sandbox" + provider.jwksPath, method: .get)
        let keys = JWTKeyCollection()
        try await keys.add(jwksJSON: String(buffer: jwks.body))
        return try await keys.verify(token, as: VerifiedIDToken.self)
    }
}
