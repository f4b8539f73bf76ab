import PortvaktDomain
import Foundation
import Hummingbird
import Logging
import PortvaktCore
import PortvaktProtocol
import PortvaktHTTP
import QRCode

/// The order flow for the app: `POST /bankid/orders` starts an order, then `collect`, `qr` and
/// `cancel` under it take the session id in a JSON body. Errors are RFC 6749-style JSON with a
/// `message_id`.
struct BankIDOrderRoutes {
    let flow: BankIDOrderFlow
    let clients: AppClients
    let now: @Sendable () -> Date
    static let pollInterval = 2

    func register(on routes: DeclaredRoutes) {
        routes.post("/bankid/orders", .anonymous, surface: .json) { request, context in
            try await answer(context.logger) { try await start(request, endUserIP: context.clientAddress) }
        }
        routes.post("/bankid/orders/collect", .anonymous, surface: .json) { request, context in
            try await answer(context.logger) {
                let order = try await order(request)
                return try Responses.json(BankIDOrderState(try await flow.collect(order), language: order.payload.request.language, now: now()))
            }
        }
        routes.post("/bankid/orders/qr", .anonymous, surface: .json) { request, context in
            try await answer(context.logger) { try await qr(request) }
        }
        routes.post("/bankid/orders/cancel", .anonymous, surface: .json) { request, context in
            try await answer(context.logger) {
                let order = try await order(request)
                return try Responses.json(BankIDOrderState(try await flow.cancel(order), language: order.payload.request.language, now: now()))
            }
        }
    }

    private func start(_ request: Request, endUserIP: String) async throws -> Response {
        let body = try await request.decodeJSON(BankIDOrderStartRequest.self)
        let (appRequest, client) = try AppAuthorizationRequest.forOrder(body, clients: clients.all)
        if let returnURL = body.returnURL, !client.allowsBankIDReturn(returnURL) {
            throw OAuthFailure.invalidRequest("return_url is not on this client's allow-list (plain http is never allowed).")
        }
        let started = try await flow.start(appRequest, returnURL: body.returnURL, endUserIP: endUserIP)
        let now = self.now()
        return try Responses.json(BankIDOrderStarted(
            sessionId: started.sessionID, autoStartToken: started.autoStartToken, launchURL: started.launchURL,
            qrCodeUri: clients.address.current + "/bankid/orders/qr", expiresAt: started.expiresAt.formatted(.iso8601),
            expiresIn: Int(started.expiresAt.timeIntervalSince(now).rounded()), pollInterval: Self.pollInterval
        ), status: .created)
    }

    private func qr(_ request: Request) async throws -> Response {
        let handle = try await request.decodeJSON(BankIDOrderHandle.self)
        guard let order = try await flow.order(sessionID: handle.sessionId) else { throw Self.unknownOrder }
        let format = handle.format ?? "data"
        guard ["data", "svg", "text"].contains(format) else { throw OAuthFailure.invalidRequest("format must be data, svg or text.") }
        guard let frame = try await flow.qrData(order) else {
            throw OAuthFailure(error: .invalidRequest, description: "The order has ended; collect its result.", status: .gone)
        }
        let code = format == "data" ? nil : try QRCode(text: frame.text)
        return try Responses.json(BankIDQRFrame(
            qrData: frame.text, seconds: frame.seconds,
            svg: format == "svg" ? code?.bankIDSVG(language: order.payload.request.language) : nil, text: format == "text" ? code?.halfBlocks() : nil
        ))
    }

    private func order(_ request: Request) async throws -> BankIDOrderFlow.Order {
        let handle = try await request.decodeJSON(BankIDOrderHandle.self)
        guard let order = try await flow.order(sessionID: handle.sessionId) else { throw Self.unknownOrder }
        return order
    }

    static let unknownOrder = OAuthFailure(
        error: .invalidRequest, description: "No order has this session id (it may have ended long ago).",
        message: .bankIDOrderNotFound, status: .notFound
    )

    /// Maps provider trouble to the message contract: unavailable → 503, too slow → 504, both
    /// `temporarily_unavailable` + `bankid_unavailable`; a refusal → 502 `login_failed`.
    private func answer(_ logger: Logger, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as UpstreamError {
            logger.notice("BankID order API failed", metadata: ["error": "\(error)"])
            let failure: OAuthFailure
            switch error {
            case .unavailable:
                failure = OAuthFailure(error: .temporarilyUnavailable, description: "BankID is unavailable.", message: .bankIDUnavailable, status: .serviceUnavailable)
            case .timedOut:
                failure = OAuthFailure(error: .temporarilyUnavailable, description: "BankID did not answer in time.", message: .bankIDUnavailable, status: .gatewayTimeout)
            case .rejected:
                failure = OAuthFailure(error: .serverError, description: "BankID refused the request.", message: .loginFailed, status: .badGateway)
            }
            throw failure
        }
    }
}
