import AsyncHTTPClient
import NIOCore

/// How Portvakt calls other servers: the identity providers, BankID's order API, the member
/// systems and a client's `jwks_uri`. Production sends over the network (``NetworkHTTP``); a
/// test may answer in process instead, so a login can be tested without a socket (issue 48 item 2).
protocol OutboundHTTP: Sendable {
    func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse
}

/// Over the network with AsyncHTTPClient (``HTTPClientService``'s client: no redirects).
struct NetworkHTTP: OutboundHTTP {
    let client: HTTPClient

    func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
        try await client.execute(request, timeout: timeout)
    }
}
