import AsyncHTTPClient
import Foundation
import JWTKit
import PortvaktCore
import PortvaktModels
import PortvaktSandbox
import PortvaktStorage

/// In development, providers without configuration are the in-process sandbox: the broker
/// registers itself there as a confidential client (a client secret for Vipps, `private_key_jwt`
/// for BankID, both generated at start) and then talks to it over HTTP like to the real ones.
enum SandboxUpstreams {
    static func connect(
        _ sandbox: Sandbox, providers: [IdentityProvider], publicURL: String, into directory: UpstreamDirectory,
        http: any OutboundHTTP, timeout: Duration, levels: (UpstreamSettings) -> UpstreamSettings = { $0 }
    ) async throws {
        for provider in providers {
            let simulated: SandboxProvider = provider == .vipps ? .vipps : .bankid
            let clientID = "portvakt-broker"
            let callback = "\(publicURL)/oauth/callback/\(provider.rawValue)"
            let authentication: UpstreamSettings.ClientAuthentication
            if provider == .bankid {
                let key = try SigningKey.generate(.es256, now: Date())
                let jwks = String(decoding: try JSONEncoder().encode(JWKS(keys: [key.publicJWK])), as: UTF8.self)
                await sandbox.register(SandboxClient(provider: simulated, clientID: clientID, jwks: jwks, authMethod: .privateKeyJWT, redirectURIs: [callback]))
                authentication = .privateKey(key)
            } else {
                let secret = randomToken()
                await sandbox.register(SandboxClient(provider: simulated, clientID: clientID, clientSecret: secret, redirectURIs: [callback]))
                authentication = .secret(secret)
            }
            let discovery = publicURL + sandbox.configuration.pathPrefix + simulated.discoveryPath
            let settings = UpstreamSettings(provider: provider, discoveryURL: discovery, clientID: clientID, authentication: authentication)
            await directory.set(UpstreamProvider(settings: levels(settings), http: http, timeout: timeout))
        }
    }

    /// The sandbox's BankID order API, with a generated secret for a client of its own.
    static func connectOrders(
        _ sandbox: Sandbox, publicURL: String, into directory: UpstreamDirectory, http: any OutboundHTTP, timeout: Duration, startTimeout: Duration
    ) async {
        let clientID = "portvakt-broker-orders"
        let secret = randomToken()
        await sandbox.register(SandboxClient(provider: .bankid, clientID: clientID, clientSecret: secret, redirectURIs: []))
        let settings = BankIDOrderSettings(
            baseURL: publicURL + sandbox.configuration.pathPrefix + "/bankid/rp/v6.0", authentication: .basic(clientID: clientID, secret: secret),
            startTimeout: startTimeout
        )
        await directory.setBankIDOrders(BankIDOrderAPI(settings: settings, http: http, timeout: timeout))
    }

    /// The sandbox organisations' simulated member systems, each with a generated secret, for
    /// the organisations that have no member system configured.
    static func connectMemberSystems(_ sandbox: Sandbox, publicURL: String, into directory: MemberSystemDirectory, except configured: Set<String>) async {
        for organisation in TestUsers.organisations where !configured.contains(organisation.slug) {
            let secret = randomToken()
            await sandbox.registerMemberSystem(organisation: organisation.slug, secret: secret)
            await directory.set(MemberSystemSettings(
                organisation: organisation.slug, url: publicURL + sandbox.configuration.pathPrefix + "/members/" + organisation.slug, secret: secret
            ))
        }
    }
}
