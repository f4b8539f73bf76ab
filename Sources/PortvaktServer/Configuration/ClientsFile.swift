import Foundation
import JWTKit
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP

/// `PORTVAKT_CLIENTS_FILE`: the relying parties, as JSON `{"clients": [...]}` whose entries use
/// RFC 7591 client metadata names (and Portvakt's `bankid_return_url`). Every mistake is one
/// line naming the client and the field; nothing unknown is passed over.
enum ClientsFile {
    static let setting = "PORTVAKT_CLIENTS_FILE"

    static let fields: Set<String> = [
        "client_id", "client_name", "redirect_uris", "post_logout_redirect_uris", "token_endpoint_auth_method", "client_secret",
        "client_secret_file", "client_secret_credential", "jwks", "jwks_uri", "id_token_signed_response_alg", "dpop_bound_access_tokens",
        "require_pushed_authorization_requests", "scope", "bankid_return_url", "portvakt_api", "require_pkce", "first_party",
        "organisations", "brand", "backchannel_logout_uri", "backchannel_logout_session_required",
    ]

    /// The clients of the file at `path`; a relative `client_secret_file` is read beside it, a
    /// `client_secret_credential` in `credentials` (systemd's `$CREDENTIALS_DIRECTORY`).
    static func load(path: String, environment: ServerConfiguration.Environment, credentials: String? = nil) throws(ConfigurationError) -> [AppClient] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("\(setting): cannot read \(path)")
        }
        return try parse(data, directory: (path as NSString).deletingLastPathComponent, environment: environment, credentials: credentials)
    }

    static func parse(
        _ data: Data, directory: String, environment: ServerConfiguration.Environment, credentials: String? = nil
    ) throws(ConfigurationError) -> [AppClient] {
        guard case .object(let root)? = try? JSONDecoder().decode(JSONValue.self, from: data), case .array(let entries)? = root["clients"] else {
            throw ConfigurationError(#"\#(setting) must be a JSON object {"clients": [...]}"#)
        }
        if let unknown = root.keys.sorted().first(where: { $0 != "clients" }) {
            throw ConfigurationError("\(setting): unknown field \(unknown) (only clients)")
        }
        var clients: [AppClient] = []
        for (index, entry) in entries.enumerated() {
            guard case .object(let fields) = entry else { throw ConfigurationError("\(setting): client \(index + 1) is not a JSON object") }
            let client = try Entry(fields: fields, index: index, directory: directory, credentials: credentials, environment: environment).client()
            guard !clients.contains(where: { $0.id == client.id }) else {
                throw ConfigurationError("\(setting): client \(client.id): client_id is registered twice")
            }
            clients.append(client)
        }
        return clients
    }

    /// One client's metadata, read field by field.
    private struct Entry {
        let fields: [String: JSONValue]
        let index: Int
        let directory: String
        /// `$CREDENTIALS_DIRECTORY`, where `client_secret_credential` names a file.
        let credentials: String?
        let environment: ServerConfiguration.Environment
        var name: String { fields["client_id"]?.stringValue.map { "client \($0)" } ?? "client \(index + 1)" }

        func problem(_ field: String, _ text: String) -> ConfigurationError {
            ConfigurationError("\(ClientsFile.setting): \(name): \(field) \(text)")
        }

        func client() throws(ConfigurationError) -> AppClient {
            if let unknown = fields.keys.sorted().first(where: { !ClientsFile.fields.contains($0) }) {
                throw problem(unknown, "is not a field Portvakt knows (RFC 7591 names: \(ClientsFile.fields.sorted().joined(separator: ", ")))")
            }
            guard let id = try string("client_id"), (1...128).contains(id.unicodeScalars.count),
                  id.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }), id != PortalClient.id
            else { throw problem("client_id", "must be 1 to 128 printable ASCII characters (and not \(PortalClient.id))") }
            let authentication = try self.authentication()
            var redirects: [String] = []
            var loopbackPaths: [String] = []
            for uri in try strings("redirect_uris") ?? [] {
                switch try RedirectURI(uri, field: "redirect_uris", entry: self) {
                case .exact: redirects.append(uri)
                case .loopback(let path): loopbackPaths.append(path)
                }
                if authentication != .none, environment == .production, uri.lowercased().hasPrefix("http:") {
                    throw problem("redirect_uris", "has \(uri): a confidential client's redirect must be https in production")
                }
            }
            guard !redirects.isEmpty || !loopbackPaths.isEmpty else { throw problem("redirect_uris", "must name at least one redirect URI") }
            let logoutRedirects = try strings("post_logout_redirect_uris") ?? []
            for uri in logoutRedirects {
                if case .loopback = try RedirectURI(uri, field: "post_logout_redirect_uris", entry: self) {
                    try loopbackWithPort(uri, field: "post_logout_redirect_uris")
                }
            }
            var client = AppClient(
                id: id, name: try string("client_name"), redirectURIs: redirects, loopbackPaths: loopbackPaths,
                postLogoutRedirectURIs: logoutRedirects, bankIDReturnURLs: try bankIDReturnURLs(), authentication: authentication
            )
            if let alg = try string("id_token_signed_response_alg") {
                guard let algorithm = SigningKey.Algorithm(rawValue: alg) else { throw problem("id_token_signed_response_alg", "must be RS256 or ES256") }
                client.idTokenAlgorithm = algorithm
            }
            client.requiresDPoP = try bool("dpop_bound_access_tokens") ?? false
            client.requiresPushedRequests = try bool("require_pushed_authorization_requests") ?? false
            client.portvaktAPI = try bool("portvakt_api") ?? false
            client.requiresPKCE = try bool("require_pkce") ?? false
            // Portvakt's own app is the organisations' own service.
            client.firstParty = try bool("first_party") ?? client.portvaktAPI
            // Its logins and unlocks make no browser sign-in, where a consent page would be asked from.
            if client.portvaktAPI, !client.firstParty {
                throw problem("first_party", "cannot be false for a portvakt_api client (Portvakt's own app asks no consent)")
            }
            client.organisations = try organisationSlugs()
            // The unlock grant opens a session without a login: nothing there checks an organisation.
            if client.portvaktAPI, !client.organisations.isEmpty {
                throw problem("organisations", "is not for a portvakt_api client (its device unlock signs in without a login to check it against)")
            }
            client.brand = try brand(of: client)
            client.backchannelLogoutURI = try backchannelLogoutURI()
            if try bool("backchannel_logout_session_required") == false {
                throw problem("backchannel_logout_session_required", "cannot be false: every logout_token names its session (sid)")
            }
            if let scope = try string("scope") {
                let scopes = Set(scope.split(separator: " ").map(String.init))
                guard !scopes.isEmpty, scopes.isSubset(of: AppAuthorizationRequest.supportedScopes) else {
                    throw problem("scope", "must be some of \(AppAuthorizationRequest.supportedScopes.sorted().joined(separator: " "))")
                }
                client.scopes = scopes
            }
            return client
        }

        /// `token_endpoint_auth_method` (RFC 7591 §2: client_secret_basic when not given) and its secret or keys.
        private func authentication() throws(ConfigurationError) -> AppClient.Authentication {
            let method = try string("token_endpoint_auth_method") ?? "client_secret_basic"
            let secret = try self.secret()
            let jwks = fields["jwks"]
            let jwksURI = try string("jwks_uri")
            if method != "private_key_jwt", jwks != nil { throw problem("jwks", "is only for token_endpoint_auth_method private_key_jwt") }
            if method != "private_key_jwt", jwksURI != nil { throw problem("jwks_uri", "is only for token_endpoint_auth_method private_key_jwt") }
            switch method {
            case "none":
                guard secret == nil else { throw problem("client_secret", "is given, but token_endpoint_auth_method is none (a public client has no secret)") }
                return .none
            case "client_secret_basic", "client_secret_post":
                guard let secret else {
                    throw problem("client_secret", "is missing: token_endpoint_auth_method \(method) needs client_secret or client_secret_file (or say none for a public client)")
                }
                guard secret.utf8.count >= 32 else { throw problem("client_secret", "must be at least 32 characters (a random secret, e.g. `openssl rand -hex 32`)") }
                let digest = AppClient.Authentication.digest(secret)
                return method == "client_secret_basic" ? .clientSecretBasic(secretDigest: digest) : .clientSecretPost(secretDigest: digest)
            case "private_key_jwt":
                guard secret == nil else { throw problem("client_secret", "is given, but private_key_jwt authenticates with a key") }
                if let jwksURI {
                    guard jwks == nil else { throw problem("jwks", "and jwks_uri are both given: give one (RFC 7591 §2)") }
                    return .privateKeyJWT(.published(uri: try publishedKeysURI(jwksURI)))
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                guard case .object? = jwks, let data = try? encoder.encode(jwks), let set = try? JSONDecoder().decode(JWKS.self, from: data), !set.keys.isEmpty,
                      set.keys.allSatisfy(AppClient.ClientKeys.isUsableAssertionKey)
                else {
                    throw problem("jwks", "must be a JWK Set {\"keys\": [...]} of the client's public keys, each with a kid, kty RSA or EC, and alg RS256, PS256 or ES256 if any (or give jwks_uri)")
                }
                return .privateKeyJWT(.inline(jwks: String(decoding: data, as: UTF8.self)))
            default:
                throw problem("token_endpoint_auth_method", "must be none, client_secret_basic, client_secret_post or private_key_jwt")
            }
        }

        /// An https `jwks_uri`; plain http only on the loopback address and only in development.
        private func publishedKeysURI(_ uri: String) throws(ConfigurationError) -> String {
            guard let components = URLComponents(string: uri), let host = components.host, !host.isEmpty, components.user == nil, components.fragment == nil else {
                throw problem("jwks_uri", "has \(uri): not an absolute URL")
            }
            switch components.scheme?.lowercased() {
            case "https": return uri
            case "http" where AppClient.loopbackHosts.contains(host) && environment == .development: return uri
            default: throw problem("jwks_uri", "has \(uri): it must be https (plain http only on the loopback address in development)")
            }
        }

        /// A sign-out's return on the loopback address is compared exactly, so it names its port;
        /// plain http there is for trying a web application out (development only).
        private func loopbackWithPort(_ uri: String, field: String) throws(ConfigurationError) {
            guard environment == .development else {
                throw problem(field, "has \(uri): plain http is only for development; use https")
            }
            guard URLComponents(string: uri)?.port != nil else {
                throw problem(field, "has \(uri): a loopback address needs its port, like http://127.0.0.1:8080/signed-out (compared exactly)")
            }
        }

        /// `organisations`: organisations' slugs (one that no organisation has admits nobody).
        private func organisationSlugs() throws(ConfigurationError) -> [String] {
            let slugs = try strings("organisations") ?? []
            for slug in slugs where slug.isEmpty || !slug.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) {
                throw problem("organisations", "has \"\(slug)\": an organisation's slug, like hlf")
            }
            return slugs
        }

        /// `brand`: an organisation's slug, one of `organisations` (Portvakt's own app, which has
        /// none, may name any); by default the one organisation a client is bound to. A third
        /// party never speaks in an organisation's name.
        private func brand(of client: AppClient) throws(ConfigurationError) -> String? {
            guard let slug = try string("brand") else {
                return client.firstParty && client.organisations.count == 1 ? client.organisations[0] : nil
            }
            guard OrganisationSlug.isValid(slug) else { throw problem("brand", "has \"\(slug)\": an organisation's slug, like hlf") }
            guard client.firstParty else {
                throw problem("brand", "is not for a third party (first_party false): its pages never speak in an organisation's name")
            }
            // A web client of every organisation would show one organisation's name to members of all.
            guard client.portvaktAPI || client.organisations.contains(slug) else {
                throw problem("brand", "is \(slug), which is not among its organisations (\(client.organisations.joined(separator: ", ")); a web client shows only the brand of an organisation it is bound to)")
            }
            return slug
        }

        /// `backchannel_logout_uri`: https, or http on the loopback address in development; no
        /// fragment (OIDC Back-Channel Logout 1.0 §2.2).
        private func backchannelLogoutURI() throws(ConfigurationError) -> String? {
            guard let uri = try string("backchannel_logout_uri") else { return nil }
            guard let components = URLComponents(string: uri), let host = components.host, !host.isEmpty, components.fragment == nil, components.user == nil else {
                throw problem("backchannel_logout_uri", "has \(uri): an absolute URL without a fragment")
            }
            switch components.scheme?.lowercased() {
            case "https": return uri
            case "http" where AppClient.loopbackHosts.contains(host) && environment == .development: return uri
            default: throw problem("backchannel_logout_uri", "has \(uri): it must be https (plain http only on the loopback address in development)")
            }
        }

        /// `client_secret`, the file `client_secret_file` names, or the systemd credential
        /// `client_secret_credential` names (a file's one line end taken off). The credential is
        /// found wherever `$CREDENTIALS_DIRECTORY` is: in the service's own folder under the unit,
        /// in /etc/portvakt/credentials for the operator's commands (docs/operations.md).
        private func secret() throws(ConfigurationError) -> String? {
            let given = try string("client_secret")
            let file = try string("client_secret_file"), credential = try string("client_secret_credential")
            guard [given, file, credential].compactMap({ $0 }).count <= 1 else {
                throw problem("client_secret", "is given more than one way (client_secret, client_secret_file, client_secret_credential): give one")
            }
            let field: String, full: String
            if let file {
                (field, full) = ("client_secret_file", file.hasPrefix("/") ? file : (directory as NSString).appendingPathComponent(file))
            } else if let credential {
                guard !credential.contains("/"), credential != "..", credential != "." else { throw problem("client_secret_credential", "must be a credential's name, not a path") }
                guard let credentials, !credentials.isEmpty else {
                    throw problem("client_secret_credential", "needs CREDENTIALS_DIRECTORY (systemd's LoadCredential=\(credential):…, or the operator's /etc/portvakt/credentials)")
                }
                (field, full) = ("client_secret_credential", (credentials as NSString).appendingPathComponent(credential))
            } else {
                return given
            }
            guard let text = SettingsSource.secretFileText(at: full) else { throw problem(field, "cannot be read: \(full)") }
            guard !text.isEmpty else { throw problem(field, "is empty: \(full)") }
            return text
        }

        private func bankIDReturnURLs() throws(ConfigurationError) -> [String] {
            let urls: [String]
            if let one = fields["bankid_return_url"]?.stringValue { urls = [one] } else { urls = try strings("bankid_return_url") ?? [] }
            for url in urls {
                guard let scheme = URLComponents(string: url)?.scheme?.lowercased(), scheme != "http", url.contains(":") else {
                    throw problem("bankid_return_url", "has \(url): the app's own scheme or an https link, never http")
                }
            }
            return urls
        }

        func string(_ field: String) throws(ConfigurationError) -> String? {
            guard let value = fields[field] else { return nil }
            guard case .string(let text) = value else { throw problem(field, "must be a string") }
            return text
        }

        func strings(_ field: String) throws(ConfigurationError) -> [String]? {
            guard let value = fields[field] else { return nil }
            guard case .array(let list) = value, case let texts = list.compactMap(\.stringValue), texts.count == list.count else {
                throw problem(field, "must be a list of strings")
            }
            return texts
        }

        func bool(_ field: String) throws(ConfigurationError) -> Bool? {
            guard let value = fields[field] else { return nil }
            guard case .bool(let flag) = value else { throw problem(field, "must be true or false") }
            return flag
        }
    }

    /// A redirect URI as RFC 8252 allows it: a private-use scheme in reverse-domain form (§7.1),
    /// https (§7.2), or the loopback interface with any port (§7.3, never `localhost`, §8.3).
    private enum RedirectURI {
        case exact
        case loopback(path: String)

        init(_ uri: String, field: String, entry: Entry) throws(ConfigurationError) {
            guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(), components.fragment == nil else {
                throw entry.problem(field, "has \(uri): not an absolute URI without a fragment")
            }
            switch scheme {
            case "https":
                guard components.host?.isEmpty == false else { throw entry.problem(field, "has \(uri): an https URI needs a host") }
                self = .exact
            case "http":
                guard let host = components.host, AppClient.loopbackHosts.contains(host), components.query == nil else {
                    throw entry.problem(field, "has \(uri): plain http only on the loopback address, http://127.0.0.1 or http://[::1] (RFC 8252 §7.3; not localhost)")
                }
                self = .loopback(path: components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
            default:
                guard scheme.contains("."), components.host == nil || components.host == "" else {
                    throw entry.problem(field, "has \(uri): a private-use scheme must be a reverse domain name like no.example.app:/callback (RFC 8252 §7.1)")
                }
                self = .exact
            }
        }
    }
}
