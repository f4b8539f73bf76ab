import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

/// One run of the CLI: the SDK's parts over the Linux adapters (sealed files, a software key
/// with simulated biometrics), and how results are printed.
struct CLI {
    let options: GlobalOptions
    let language: Language
    let serverURL: URL
    let storage: FileSecureStorage
    let client: PortvaktClient
    let tokens: TokenManager
    let queue: OfflineQueue
    let biometrics: TerminalBiometrics
    let key: SoftwareDeviceKey
    let output: Output

    init(_ options: GlobalOptions, redirectURI: String = "http://127.0.0.1:1/callback") throws {
        self.options = options
        language = options.language
        output = Output(json: options.json, language: language)
        guard let url = URL(string: options.server), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--server must be an http or https address")
        }
        serverURL = url
        storage = FileSecureStorage(directory: options.homeDirectory)
        // Tokens are bound to the proof key (DPoP), sealed in the home directory like the rest.
        client = PortvaktClient(
            configuration: PortvaktConfiguration(baseURL: url, clientID: "portvakt-cli", redirectURI: redirectURI), proofKey: SoftwareProofKey(storage: storage)
        )
        tokens = TokenManager(storage: storage, refresher: client)
        queue = OfflineQueue(storage: storage)
        let biometrics = TerminalBiometrics(script: options.biometric?.outcomes, language: language)
        self.biometrics = biometrics
        key = SoftwareDeviceKey(storage: storage) { reason in await biometrics.check(reason) }
    }

    /// What the device knows at start.
    func context() async -> AuthContext {
        await AuthContext.stored(in: storage, tokens: tokens, biometry: options.biometry.availability, online: true, at: Date())
    }

    func driver(context: AuthContext, browser: any WebAuthenticator = NoBrowser(), opener: any URLOpener = TerminalBankIDApp(serverURL: URL(string: "http://127.0.0.1")!, sandbox: nil, otherDevice: true)) -> AuthDriver {
        let services = AuthServices(
            client: client, storage: storage, tokens: tokens, queue: queue, deviceKey: key, browser: browser, opener: opener,
            deviceName: "portvakt CLI", platform: Self.platform, language: language
        )
        return AuthDriver(context: context, services: services)
    }

    /// The context of a user who has a stored session; otherwise "not logged in" (exit 4).
    func signedInContext() async throws -> AuthContext {
        let context = await context()
        guard context.hasSession else { throw output.fail(.notLoggedIn, exit: .notLoggedIn) }
        return context
    }

    /// A valid access token, or the message and exit code for why not.
    func accessToken() async throws -> String {
        do {
            return try await tokens.accessToken()
        } catch TokenRefreshError.sessionExpired {
            throw output.fail(.sessionExpired, exit: .notLoggedIn)
        } catch {
            throw output.fail(.offline, exit: .offline)
        }
    }

    /// `GET path` with the session's token, decoded as `type`; server refusals become their
    /// message, and so does an answer that is not `type` (the SDK's `bad_response`).
    func get<Answer: Decodable>(_ path: String, as type: Answer.Type, token: String? = nil) async throws -> Answer {
        let access: String
        if let token { access = token } else { access = try await accessToken() }
        do {
            return try await client.get(path, as: type, accessToken: access)
        } catch let error as PortvaktError {
            throw output.fail(error, exit: error.status == 401 ? .notLoggedIn : .refused)
        } catch {
            throw output.fail(.offline, exit: .offline)
        }
    }

    /// `/v1/me`, kept for offline use.
    func me() async throws -> MeResponse {
        try await liveOrCached("v1/me", .profile, as: MeResponse.self, offlineAllowed: false).body
    }

    /// The last `/v1/me` kept on this device.
    func cachedMe() async -> MeResponse? {
        guard let user = await tokens.userID(), let kept = await OfflineCache(storage: storage).read(.profile, for: user) else { return nil }
        return try? JSONDecoder().decode(MeResponse.self, from: kept.body)
    }

    /// S12.3: `GET path` with the session's token, kept (sealed) for this user; offline, the
    /// answer kept last, and `offline` true. Without `offlineAllowed` (a filtered list, the
    /// login's own check) nothing is read from the cache, and only the profile is kept.
    func liveOrCached<Answer: Decodable>(
        _ path: String, _ item: OfflineCache.Item, as type: Answer.Type, offlineAllowed: Bool = true
    ) async throws -> (body: Answer, offline: Bool) {
        let cache = OfflineCache(storage: storage)
        let user = await tokens.userID()
        let data: Data
        do {
            data = try await client.get(path, accessToken: try await tokens.accessToken())
        } catch let error as PortvaktError {
            throw output.fail(error, exit: error.status == 401 ? .notLoggedIn : .refused)
        } catch TokenRefreshError.sessionExpired {
            throw output.fail(.sessionExpired, exit: .notLoggedIn)
        } catch {
            guard offlineAllowed, let user, let kept = await cache.read(item, for: user),
                  let body = try? JSONDecoder().decode(type, from: kept.body)
            else { throw output.fail(.offline, exit: .offline) }
            return (body, true)
        }
        // An answer that is not `type` is refused as the SDK refuses one (`bad_response`), and not kept.
        guard let body = try? JSONDecoder().decode(type, from: data) else { throw output.fail(.loginFailed, exit: .refused) }
        if offlineAllowed || item == .profile, let user { try? await cache.store(data, as: item, for: user) }
        return (body, false)
    }

    static var platform: String {
        #if os(macOS)
        "macos"
        #else
        "linux"
        #endif
    }
}

/// For commands that never open a browser.
struct NoBrowser: WebAuthenticator {
    func authenticate(url: URL, callback: BrowserCallback) async throws -> URL { throw WebAuthenticationError.failed }
}
