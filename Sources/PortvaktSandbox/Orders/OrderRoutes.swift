import PortvaktCore
import PortvaktHTTP
import Foundation
import Hummingbird

/// The BankID order API in the shape of the relying-party API v6: `auth`, `collect`, `cancel`
/// under `/sandbox/bankid/rp/v6.0/`. The relying party authenticates with HTTP Basic as a
/// registered BankID client (the real API uses mutual TLS).
struct OrderRoutes<Context: SandboxRequestContext>: Sendable {
    let sandbox: Sandbox

    func register(on group: RouterGroup<Context>) {
        group.post("/bankid/rp/v6.0/auth") { request, context in
            let client = try await relyingParty(request)
            let body = try await request.decode(as: AuthRequest.self, context: context)
            guard !body.endUserIp.isEmpty, body.endUserIp.count <= 64 else { throw OrderError.invalidParameters("endUserIp is required.") }
            let order = BankIDOrder(clientID: client, endUserIP: body.endUserIp, now: sandbox.now, lifetime: sandbox.configuration.orderLifetime.timeInterval)
            await sandbox.orders.add(order)
            return try Responses.json(AuthResponse(
                orderRef: order.orderRef, autoStartToken: order.autoStartToken, qrStartToken: order.qrStartToken, qrStartSecret: order.qrStartSecret
            ))
        }
        group.post("/bankid/rp/v6.0/collect") { request, context in
            let client = try await relyingParty(request)
            let body = try await request.decode(as: OrderReference.self, context: context)
            let now = sandbox.now
            let order = try await order(body.orderRef, of: client, now: now)
            return try Responses.json(CollectResponse(order: order, status: order.collected(now: now)))
        }
        group.post("/bankid/rp/v6.0/cancel") { request, context in
            let client = try await relyingParty(request)
            let body = try await request.decode(as: OrderReference.self, context: context)
            let now = sandbox.now
            let order = try await order(body.orderRef, of: client, now: now)
            _ = await sandbox.orders.update(ref: order.orderRef) { $0.cancelByRelyingParty(now: now) }
            return try Responses.json([String: String]())
        }
    }

    /// The order, if it exists and the caller started it; another client's order does not exist.
    private func order(_ ref: String, of client: String, now: Date) async throws -> BankIDOrder {
        guard let order = await sandbox.orders.order(ref: ref, now: now), order.clientID == client else {
            throw OrderError.invalidParameters("No such order.")
        }
        return order
    }

    /// The calling relying party's client id.
    private func relyingParty(_ request: Request) async throws -> String {
        guard let credentials = request.basicCredentials,
              let client = await sandbox.clients.client(credentials.user, at: .bankid),
              let secret = client.clientSecret, constantTimeEqual(secret, credentials.password)
        else { throw OrderError.unauthorized }
        return client.clientID
    }
}

/// The API's error shape: `{"errorCode": …, "details": …}`.
enum OrderError: HTTPResponseError {
    case invalidParameters(String)
    case unauthorized

    var status: HTTPResponse.Status {
        switch self {
        case .invalidParameters: .badRequest
        case .unauthorized: .unauthorized
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        switch self {
        case .invalidParameters(let details):
            try Responses.json(["errorCode": "invalidParameters", "details": details], status: status)
        case .unauthorized:
            try Responses.json(["errorCode": "unauthorized", "details": "Authenticate as a registered BankID client."], status: status,
                               headers: [.wwwAuthenticate: #"Basic realm="sandbox""#])
        }
    }
}

struct AuthRequest: Codable {
    let endUserIp: String
}

struct AuthResponse: Codable {
    let orderRef: String
    let autoStartToken: String
    let qrStartToken: String
    let qrStartSecret: String
}

struct OrderReference: Codable {
    let orderRef: String
}

struct CollectResponse: Codable {
    struct CompletionData: Codable {
        struct User: Codable {
            let personalNumber: String
            let name: String
            let givenName: String
            let surname: String
        }

        struct Device: Codable {
            let ipAddress: String
        }

        let user: User
        let device: Device
        let bankIdIssueDate: String
    }

    let orderRef: String
    let status: String
    let hintCode: String?
    let completionData: CompletionData?

    init(order: BankIDOrder, status: BankIDOrder.Status) {
        orderRef = order.orderRef
        switch status {
        case .pending(let hint):
            self.status = "pending"
            hintCode = hint
            completionData = nil
        case .failed(let hint):
            self.status = "failed"
            hintCode = hint
            completionData = nil
        case .complete(let userID):
            self.status = "complete"
            hintCode = nil
            let user = TestUsers.user(id: userID)
            completionData = user.map {
                CompletionData(
                    user: .init(personalNumber: $0.personnummer, name: $0.name, givenName: $0.givenName, surname: $0.familyName),
                    device: .init(ipAddress: order.endUserIP), bankIdIssueDate: "2024-01-02"
                )
            }
        }
    }
}
