import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktDomain

/// The clients the broker knows: the app, the CLI (relaxed by `PORTVAKT_LEGACY_CLIENTS` where
/// listed) and the portal, whose callback is under the issuer.
struct AppClients: Sendable {
    let legacy: Set<String>
    let address: PublicAddress

    var all: [AppClient] { AppClient.builtIn(legacy: legacy) + [PortalClient.client(issuer: address.current)] }

    func client(_ id: String) -> AppClient? {
        all.first { $0.id == id }
    }

    /// The form of a token endpoint's request and the public client it names.
    func fields(of request: Request) async throws -> (FormFields, AppClient) {
        let fields: FormFields
        do {
            fields = try await request.formFields()
        } catch let error as HTTPError {
            throw OAuthFailure(error: "invalid_request", description: error.body ?? "Send a form.", status: error.status == .unsupportedMediaType ? .unsupportedMediaType : .badRequest)
        }
        // The portal's codes are redeemed inside the server only: it is a confidential client without a secret to leak.
        guard let id = fields["client_id"], id != PortalClient.id, let client = client(id) else {
            throw OAuthFailure(error: "invalid_client", description: "client_id is missing or unknown.", status: .unauthorized)
        }
        return (fields, client)
    }
}
