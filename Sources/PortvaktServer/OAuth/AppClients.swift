import Foundation
import Hummingbird
import Logging
import PortvaktCore
import PortvaktHTTP
import PortvaktDomain
import PortvaktProtocol
import PortvaktStorage

/// The clients the broker knows: the registered ones (``ServerConfiguration/clients``) and the
/// portal, whose callback is under the issuer.
struct AppClients: Sendable {
    let registered: [AppClient]
    let address: PublicAddress
    /// Where a client assertion's `jti` is recorded once (RFC 7523 §3, item 7).
    let store: PortvaktStore
    let logger: Logger
    let now: @Sendable () -> Date
    /// The keys `private_key_jwt` clients publish at their `jwks_uri`.
    let publishedKeys: PublishedClientKeys

    var all: [AppClient] { registered + [PortalClient.client(issuer: address.current)] }

    func client(_ id: String) -> AppClient? {
        all.first { $0.id == id }
    }

    /// The form of a request to the token, revocation, introspection or PAR endpoint, and the
    /// client it names, authenticated as that client registered (``ClientAuthentication``).
    func authenticate(_ request: Request) async throws -> (FormFields, AppClient) {
        let fields: FormFields
        do {
            fields = try await request.formFields()
        } catch let error as HTTPError {
            throw OAuthFailure(error: .invalidRequest, description: error.body ?? "Send a form.", status: error.status == .unsupportedMediaType ? .unsupportedMediaType : .badRequest)
        }
        let presented = try ClientAuthentication.Presented(request, fields: fields)
        // The portal's codes are redeemed inside the server only: it has no secret to leak.
        guard let id = presented.clientID, id != PortalClient.id, let client = client(id) else {
            throw ClientAuthentication.refused("Client authentication failed.", basic: presented.usedBasic)
        }
        try await ClientAuthentication(address: address, store: store, publishedKeys: publishedKeys, logger: logger, now: now).check(presented, of: client)
        return (fields.setting("client_id", to: id), client)
    }
}
