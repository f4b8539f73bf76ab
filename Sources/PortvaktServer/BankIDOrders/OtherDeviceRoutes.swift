import PortvaktDomain
import Foundation
import Hummingbird
import PortvaktCore
import PortvaktProtocol
import PortvaktHTTP
import QRCode

/// BankID on another device for a desktop browser, reached from the method page with the
/// app's authorization request: the page starts an order and shows its QR code; when the order
/// ends, the browser goes to the app's redirect URI with the code (or the error), `state` and `iss`,
/// as after any other login.
struct OtherDeviceRoutes {
    let requests: AuthorizationRequests
    let flow: BankIDOrderFlow
    let brands: Brands
    let now: @Sendable () -> Date
    static let path = "/oauth/bankid/other-device"

    func register(on routes: DeclaredRoutes) {
        routes.get(RouterPath(Self.path), .anonymous, surface: .page) { request, context in
            try await page(request, endUserIP: context.clientAddress)
        }
        routes.get(RouterPath(Self.path + ".js"), .anonymous, surface: .json) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(string: OtherDeviceScript.source))
            )
        }
        // A refusal answers the page's script in JSON; the handler answers a form sent without the script with a page itself.
        routes.post(RouterPath(Self.path + "/collect"), .loginForm, surface: .json) { request, _ in
            let (order, wantsJSON) = try await order(request)
            guard let order else { return try notFound(wantsJSON: wantsJSON) }
            let outcome = try await flow.collect(order)
            return try await answer(outcome, for: order, wantsJSON: wantsJSON)
        }
        routes.post(RouterPath(Self.path + "/cancel"), .loginForm, surface: .json) { request, _ in
            let (order, wantsJSON) = try await order(request)
            guard let order else { return try notFound(wantsJSON: wantsJSON) }
            return try await answer(try await flow.cancel(order), for: order, wantsJSON: wantsJSON)
        }
    }

    private func page(_ httpRequest: Request, endUserIP: String) async throws -> Response {
        let request: AppAuthorizationRequest
        switch try await requests.check(httpRequest, startingLogin: true) {
        case .request(let checked): request = checked
        case .refused(let response): return response
        }
        // An order's code comes without the browser's sign-in, so without a third party's consent page.
        guard flow.completion.policy(of: request.clientID).firstParty else {
            return BrokerPage.problem(
                .invalidLoginRequest, reason: "BankID on another device is for the organisations' own services: choose BankID instead", language: request.language
            )
        }
        let started: BankIDOrderFlow.Started
        do {
            started = try await flow.start(request, returnURL: nil, endUserIP: endUserIP)
        } catch let refusal as DomainError where refusal.kind == .throttled {
            return BrokerPage.problem(.tooManyAttempts, reason: "too many BankID orders from this address", language: request.language, status: .tooManyRequests)
        } catch let error as UpstreamError {
            let location = try await flow.completion.fail(
                PendingLogin(request: request, method: .bankid), error: .temporarilyUnavailable, message: .bankIDUnavailable, reason: error.description
            )
            return Responses.redirect(to: location, status: .seeOther)
        }
        return try await render(started.order, message: .bankIDStartApp)
    }

    private func render(_ order: BankIDOrderFlow.Order, message: UserMessage) async throws -> Response {
        let language = order.payload.request.language
        let svg = try await flow.qrData(order).map { try QRCode(text: $0.text).bankIDSVG(language: language) } ?? ""
        let html = OtherDevicePage.render(
            sessionID: order.sessionID, qrSVG: svg, message: message, expiresAt: order.record.expiresDate, now: now(), language: language,
            methodsURL: order.payload.request.authorizeURL(method: nil), brand: await brands.view(for: flow.completion.policy(of: order.payload.request.clientID))
        )
        return BrokerPage.response(html, script: true)
    }

    /// The order named by a JSON `sessionId` (the script) or a form field `session` (no script).
    private func order(_ request: Request) async throws -> (BankIDOrderFlow.Order?, wantsJSON: Bool) {
        if request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true {
            let handle = try await request.decodeJSON(BankIDOrderHandle.self)
            return (try await flow.order(sessionID: handle.sessionId), true)
        }
        let form = try await request.formFields()
        guard let session = form["session"] else { return (nil, false) }
        return (try await flow.order(sessionID: session), false)
    }

    private func answer(_ outcome: BankIDOrderOutcome, for order: BankIDOrderFlow.Order, wantsJSON: Bool) async throws -> Response {
        let request = order.payload.request
        let language = request.language
        let redirect: String?
        let message: UserMessage?
        switch outcome {
        case .pending(_, let pending, _):
            redirect = nil
            message = pending
        case .failed(_, let failure, let error):
            message = failure
            redirect = flow.completion.appRedirect(request, [("error", error.rawValue), ("error_description", failure.text(.en)), ("message_id", failure.id)])
        case .complete(let code):
            message = nil
            redirect = flow.completion.appRedirect(request, [("code", code)])
        }
        if wantsJSON {
            return try Responses.json(PageStatus(message: message?.text(language), redirect: redirect))
        }
        if let redirect { return Responses.redirect(to: redirect, status: .seeOther) }
        return try await render(order, message: message ?? .bankIDWaiting)
    }

    private func notFound(wantsJSON: Bool) throws -> Response {
        if wantsJSON { return try BankIDOrderRoutes.unknownOrder.response() }
        return BrokerPage.problem(.bankIDOrderNotFound, reason: "unknown order", language: .nb, status: .notFound)
    }

    private struct PageStatus: Encodable {
        let message: String?
        let redirect: String?
    }
}
