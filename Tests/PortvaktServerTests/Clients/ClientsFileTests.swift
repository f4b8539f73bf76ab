import Foundation
import PortvaktCore
import Testing
@testable import PortvaktServer

/// Issue 46 item 1: relying parties from `PORTVAKT_CLIENTS_FILE`, RFC 7591 names, checked at start.
@Suite("Clients from configuration")
struct ClientsFileTests {
    static let secret = "s3cret-0123456789-abcdefghijklmnop"

    static let file = """
    {"clients": [
      {"client_id": "no.nhf.app", "client_name": "NHF", "token_endpoint_auth_method": "none",
       "redirect_uris": ["no.nhf.app:/oauth/callback", "https://app.nhf.no/oauth/callback"],
       "post_logout_redirect_uris": ["no.nhf.app:/oauth/logout"], "bankid_return_url": "https://app.nhf.no/bankid/return",
       "dpop_bound_access_tokens": true, "require_pushed_authorization_requests": true, "id_token_signed_response_alg": "ES256",
       "portvakt_api": true},
      {"client_id": "cli", "token_endpoint_auth_method": "none", "redirect_uris": ["http://127.0.0.1/callback", "http://[::1]:8123/callback"]},
      {"client_id": "medlemsportal", "redirect_uris": ["https://portal.nhf.no/cb"], "client_secret": "\(secret)", "scope": "openid profile"}
    ]}
    """

    static func parse(_ text: String, _ environment: ServerConfiguration.Environment = .production, directory: String = "/nonexistent") throws(ConfigurationError) -> [AppClient] {
        try ClientsFile.parse(Data(text.utf8), directory: directory, environment: environment)
    }

    @Test("A file of a native app, a loopback CLI and a confidential web client reads as registered; RS256 and client_secret_basic are the defaults (RFC 7591 §2)")
    func reads() throws {
        let clients = try Self.parse(Self.file)
        #expect(clients.map(\.id) == ["no.nhf.app", "cli", "medlemsportal"])
        let app = clients[0]
        #expect(app.name == "NHF" && app.authentication == .none && app.idTokenAlgorithm == .es256)
        #expect(app.requiresDPoP && app.requiresPushedRequests && app.portvaktAPI && app.allowsBankIDReturn("https://app.nhf.no/bankid/return"))
        #expect(app.allowsRedirect("https://app.nhf.no/oauth/callback") && !app.allowsRedirect("https://app.nhf.no/oauth/callback/x"))
        let cli = clients[1]
        #expect(cli.allowsRedirect("http://127.0.0.1:50123/callback") && cli.allowsRedirect("http://[::1]:9/callback"), "RFC 8252 §7.3: any port")
        #expect(!cli.allowsRedirect("http://localhost:50123/callback"))
        let web = clients[2]
        #expect(web.authentication == .clientSecretBasic(secretDigest: AppClient.Authentication.digest(Self.secret)))
        #expect(web.idTokenAlgorithm == .rs256 && !web.requiresDPoP && !web.portvaktAPI && web.scopes == ["openid", "profile"])
        #expect(web.allowsScopes(["openid"]) && !web.allowsScopes(["openid", "offline_access"]))
    }

    @Test("Issue 46 done-when: an unknown field, a duplicate client_id, an http redirect for a confidential client in production, a missing secret, jwks and jwks_uri both or jwks_uri over http: each one line naming the client and the field, never the secret", arguments: [
        (#"{"client_id": "a", "token_endpoint_auth_method": "none", "redirect_uris": ["a.b:/c"], "grant_types": ["x"]}"#, ["client a", "grant_types"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "none", "redirect_uris": ["a.b:/c"]}, {"client_id": "a", "token_endpoint_auth_method": "none", "redirect_uris": ["a.b:/d"]}"#, ["client a", "client_id", "twice"]),
        (#"{"client_id": "web", "client_secret": "SECRET-0123456789-0123456789-0123", "redirect_uris": ["http://127.0.0.1/cb"]}"#, ["client web", "redirect_uris", "https"]),
        (#"{"client_id": "web", "redirect_uris": ["https://w.example/cb"]}"#, ["client web", "client_secret", "missing"]),
        (#"{"client_id": "web", "client_secret": "SECRET-short", "redirect_uris": ["https://w.example/cb"]}"#, ["client web", "client_secret", "32"]),
        (#"{"client_id": "web", "client_secret_file": "/nonexistent/secret", "redirect_uris": ["https://w.example/cb"]}"#, ["client web", "client_secret_file"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "none", "redirect_uris": ["http://localhost:8080/cb"]}"#, ["client a", "redirect_uris", "loopback"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "none", "redirect_uris": ["myapp:/cb"]}"#, ["client a", "redirect_uris", "reverse domain"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "none", "redirect_uris": ["https://a.example/cb#x"]}"#, ["client a", "redirect_uris", "fragment"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "none", "redirect_uris": []}"#, ["client a", "redirect_uris"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "none", "redirect_uris": ["a.b:/c"], "id_token_signed_response_alg": "none"}"#, ["client a", "id_token_signed_response_alg"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "none", "redirect_uris": ["a.b:/c"], "dpop_bound_access_tokens": "yes"}"#, ["client a", "dpop_bound_access_tokens"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "none", "redirect_uris": ["a.b:/c"], "scope": "openid admin"}"#, ["client a", "scope"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "none", "client_secret": "SECRET-0123456789-0123456789-0123", "redirect_uris": ["a.b:/c"]}"#, ["client a", "client_secret", "public"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "private_key_jwt", "redirect_uris": ["https://a.example/cb"]}"#, ["client a", "jwks"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "private_key_jwt", "redirect_uris": ["https://a.example/cb"], "jwks": {"keys": [{"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}}"#, ["client a", "jwks", "kid"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "private_key_jwt", "redirect_uris": ["https://a.example/cb"], "jwks_uri": "https://a.example/jwks", "jwks": {"keys": []}}"#, ["client a", "jwks", "both"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "private_key_jwt", "redirect_uris": ["https://a.example/cb"], "jwks_uri": "http://a.example/jwks"}"#, ["client a", "jwks_uri", "https"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "private_key_jwt", "redirect_uris": ["https://a.example/cb"], "jwks_uri": "http://127.0.0.1:9/jwks"}"#, ["client a", "jwks_uri", "development"]),
        (#"{"client_id": "a", "client_secret": "SECRET-0123456789-0123456789-0123", "redirect_uris": ["https://a.example/cb"], "jwks_uri": "https://a.example/jwks"}"#, ["client a", "jwks_uri", "only for"]),
        (#"{"client_id": "a b", "token_endpoint_auth_method": "none", "redirect_uris": ["a.b:/c"]}"#, ["client_id", "printable"]),
        ("{\"client_id\": \"a\\u0000b\", \"token_endpoint_auth_method\": \"none\", \"redirect_uris\": [\"a.b:/c\"]}", ["client_id", "printable"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "tls_client_auth", "redirect_uris": ["https://a.example/cb"]}"#, ["client a", "token_endpoint_auth_method"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "client_secret_basic", "client_secret_credential": "../../etc/shadow", "redirect_uris": ["https://a.example/cb"]}"#, ["client a", "client_secret_credential", "name, not a path"]),
        (#"{"client_id": "portvakt-portal", "token_endpoint_auth_method": "none", "redirect_uris": ["a.b:/c"]}"#, ["client_id"]),
        (#"{"token_endpoint_auth_method": "none", "redirect_uris": ["a.b:/c"]}"#, ["client 1", "client_id"]),
        (#"{"client_id": "a", "token_endpoint_auth_method": "none", "redirect_uris": ["a.b:/c"], "bankid_return_url": "http://a.example/r"}"#, ["client a", "bankid_return_url"]),
    ])
    func refusals(entries: String, words: [String]) throws {
        let error = try #require(throws: ConfigurationError.self) { try Self.parse(#"{"clients": [\#(entries)]}"#) }
        for word in words + ["PORTVAKT_CLIENTS_FILE"] { #expect(error.description.contains(word), "\(error.description) should name \(word)") }
        #expect(!error.description.contains("SECRET"), "the secret is never repeated: \(error.description)")
        #expect(!error.description.contains("\n"))
    }

    @Test("deploy/clients.example.json reads in production, its web client's secret from the systemd credential it names (refused without CREDENTIALS_DIRECTORY)")
    func example() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let credentials = FileManager.default.temporaryDirectory.appendingPathComponent("credentials-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: credentials, withIntermediateDirectories: true)
        try Self.secret.write(to: credentials.appendingPathComponent("medlemsportal-secret"), atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: credentials) }
        let text = try String(contentsOf: root.appendingPathComponent("deploy/clients.example.json"), encoding: .utf8)
        let refused = try #require(throws: ConfigurationError.self) { try Self.parse(text) }
        #expect(refused.description.contains("client_secret_credential needs CREDENTIALS_DIRECTORY"))
        let clients = try ClientsFile.parse(Data(text.utf8), directory: "/nonexistent", environment: .production, credentials: credentials.path)
        #expect(clients.map(\.id) == ["no.nhf.likeperson", "medlemsportal"])
        #expect(clients[1].isConfidential && clients[0].requiresDPoP && clients[0].portvaktAPI && !clients[1].portvaktAPI)
    }

    @Test("Not an object with clients, or another top-level field, is refused")
    func shape() {
        for text in ["[]", #"{"client": []}"#, #"{"clients": [], "extra": 1}"#, #"{"clients": ["a"]}"#, "not json"] {
            #expect(throws: ConfigurationError.self) { try Self.parse(text) }
        }
    }

    @Test("In development a confidential client may use a loopback http redirect; a secret file beside the clients file is read, one line end taken off (\\r\\n too)")
    func developmentAndSecretFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clients-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try (Self.secret + "\r\n").write(to: directory.appendingPathComponent("web.secret"), atomically: true, encoding: .utf8)
        let clients = try Self.parse(
            #"{"clients": [{"client_id": "web", "client_secret_file": "web.secret", "token_endpoint_auth_method": "client_secret_post", "redirect_uris": ["http://127.0.0.1:9000/cb"]}]}"#,
            .development, directory: directory.path
        )
        #expect(clients[0].authentication == .clientSecretPost(secretDigest: AppClient.Authentication.digest(Self.secret)))
    }

    @Test("The settings: development without a file has the development clients, production refuses to start; with a file exactly its clients; PORTVAKT_LEGACY_CLIENTS names only a client that requires PAR or DPoP")
    func settings() throws {
        let development = try ServerConfiguration.load(.development, from: ["PORTVAKT_DATA_DIR": "/tmp/x"])
        #expect(development.clients.map(\.id) == ["no.portvakt.app", "portvakt-cli"])
        #expect(!development.clients.contains { $0.bankIDReturnURLs.contains { $0.hasPrefix("https://") } }, "no product URL is built in")
        let production = try #require(throws: ConfigurationError.self) {
            try ServerConfiguration.load(.production, from: ConfigurationTests.productionSettings.filter { $0.key != "PORTVAKT_CLIENTS_FILE" })
        }
        #expect(production.description.contains("PORTVAKT_CLIENTS_FILE"), "production without its clients does not start")

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("clients-\(UUID().uuidString).json").path
        try Self.file.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configured = try ServerConfiguration.load(.production, from: ConfigurationTests.productionSettings.merging(["PORTVAKT_CLIENTS_FILE": path, "PORTVAKT_LEGACY_CLIENTS": "no.nhf.app"]) { $1 })
        #expect(configured.clients.map(\.id) == ["no.nhf.app", "cli", "medlemsportal"])
        #expect(configured.clients.filter(\.legacy).map(\.id) == ["no.nhf.app"])
        let error = try #require(throws: ConfigurationError.self) {
            try ServerConfiguration.load(.production, from: ConfigurationTests.productionSettings.merging(["PORTVAKT_CLIENTS_FILE": path, "PORTVAKT_LEGACY_CLIENTS": "medlemsportal"]) { $1 })
        }
        #expect(error.description.contains("PORTVAKT_LEGACY_CLIENTS"))
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.load(.production, from: ConfigurationTests.productionSettings.merging(["PORTVAKT_CLIENTS_FILE": "/nonexistent.json"]) { $1 })
        }
    }
}
