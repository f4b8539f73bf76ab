import PortvaktCore
import PortvaktHTTP
import Foundation
import Hummingbird
import JWTKit

/// The sandbox's admin API, behind the admin bearer token: switch faults per provider and register
/// clients. docs/sandbox.md documents each call.
struct SandboxAdminRoutes<Context: SandboxRequestContext>: Sendable {
    let sandbox: Sandbox

    func register(on group: RouterGroup<Context>) {
        group.get("faults") { request, _ in
            try authorize(request)
            return try Responses.json(await sandbox.faults.all())
        }
        group.put("faults/:provider") { request, context in
            try authorize(request)
            let provider = try provider(context)
            let settings = try await request.decode(as: FaultSettings.self, context: context)
            guard settings.slowSeconds >= 0, settings.slowSeconds <= 120 else {
                throw HTTPError(.badRequest, message: "slow_seconds must be between 0 and 120.")
            }
            await sandbox.faults.set(settings, for: provider)
            return try Responses.json(settings)
        }
        group.delete("faults") { request, _ in
            try authorize(request)
            await sandbox.faults.clearAll()
            return Response(status: .noContent)
        }
        group.get("members/:organisation") { request, context in
            try authorize(request)
            return try Responses.json(["received": await sandbox.memberSystem.received(by: context.parameters.get("organisation") ?? "")])
        }
        group.put("members/:organisation") { request, context in
            try authorize(request)
            let setting = try await request.decode(as: MemberSystemFault.self, context: context)
            await sandbox.memberSystem.setFault(setting.fault, for: context.parameters.get("organisation") ?? "")
            return try Responses.json(setting)
        }
        group.get("clients") { request, _ in
            try authorize(request)
            return try Responses.json(await sandbox.clients.all().map(\.summary))
        }
        group.post("clients") { request, context in
            try authorize(request)
            let client = try await request.decode(as: SandboxClient.self, context: context)
            try await Self.validate(client)
            await sandbox.clients.register(client)
            return try Responses.json(client.summary, status: .created)
        }
    }

    private struct MemberSystemFault: Codable {
        let fault: MemberSystem.Fault?
    }

    private func authorize(_ request: Request) throws {
        guard let token = request.bearerToken, constantTimeEqual(token, sandbox.configuration.adminToken) else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: #"Bearer realm="sandbox-admin""#], message: "The sandbox admin token is required.")
        }
    }

    private func provider(_ context: Context) throws -> SandboxProvider {
        guard let name = context.parameters.get("provider"), let provider = SandboxProvider(rawValue: name) else {
            throw HTTPError(.notFound, message: "Providers are vipps and bankid.")
        }
        return provider
    }

    static func validate(_ client: SandboxClient) async throws {
        guard !client.clientID.isEmpty, client.clientID.count <= 200 else { throw HTTPError(.badRequest, message: "client_id is required.") }
        guard !client.redirectURIs.isEmpty, client.redirectURIs.allSatisfy({ URL(string: $0)?.scheme != nil && !$0.contains("#") }) else {
            throw HTTPError(.badRequest, message: "redirect_uris must be absolute URIs without a fragment.")
        }
        switch client.authMethod {
        case .clientSecretBasic, .clientSecretPost:
            guard let secret = client.clientSecret, secret.count >= 16 else {
                throw HTTPError(.badRequest, message: "client_secret of at least 16 characters is required for \(client.authMethod.rawValue).")
            }
        case .privateKeyJWT:
            guard let jwks = client.jwks, (try? await JWTKeyCollection().add(jwksJSON: jwks)) != nil else {
                throw HTTPError(.badRequest, message: "jwks with the client's public keys is required for private_key_jwt.")
            }
        }
    }
}
