import PortvaktHTTP
import PortvaktCore
import Foundation
import Hummingbird

/// `/sandbox/bankid/app`: plays the user's BankID app. Opened by the deep link's autostart token
/// or by the QR code's text; the form (or a script posting `autostarttoken` or `qr`, `user` and
/// `action`) approves or cancels. Answers JSON when asked for it.
struct BankIDAppRoutes<Context: SandboxRequestContext>: Sendable {
    let sandbox: Sandbox
    static var path: String { "/bankid/app" }

    func register(on group: RouterGroup<Context>) {
        group.get(RouterPath(Self.path)) { request, _ in
            let query = try request.queryFields()
            let language = SandboxCatalog.language(uiLocales: query["ui_locales"])
            let action = try sandbox.baseURL(for: request) + Self.path
            guard let token = query["autostarttoken"] else {
                return Responses.html(BankIDAppPage(autoStartToken: nil, redirect: nil, formAction: action, language: language, stylesheet: sandbox.stylesheetPath).render())
            }
            let now = sandbox.now
            guard let order = await sandbox.orders.order(autoStartToken: token), !order.isFinished, order.collected(now: now) == order.status else {
                return page(SandboxPhrase.noActiveOrder.text(language),
                            SandboxPhrase.theOrderDoesNotExistHas.text(language),
                            language, status: .notFound)
            }
            let faults = await sandbox.faults.settings(for: .bankid)
            _ = await sandbox.orders.update(ref: order.orderRef) { $0.open(now: now, faults: faults) }
            return Responses.html(BankIDAppPage(autoStartToken: token, redirect: query["redirect"], formAction: action, language: language, stylesheet: sandbox.stylesheetPath).render())
        }
        group.post(RouterPath(Self.path)) { request, _ in
            try await decide(request)
        }
    }

    private func decide(_ request: Request) async throws -> Response {
        let form = try await request.formFields()
        let language = SandboxCatalog.language(uiLocales: form["ui_locales"])
        let now = sandbox.now
        let found: BankIDOrder?
        if let token = form["autostarttoken"] {
            found = await sandbox.orders.order(autoStartToken: token)
        } else if let qr = form["qr"] {
            found = await sandbox.orders.order(qrCode: qr, now: now)
        } else {
            found = nil
        }
        guard let order = found else {
            return try answer(request, nil, SandboxPhrase.orderNotFound.text(language),
                              SandboxPhrase.theAutostartTokenOrQrCode.text(language), language, status: .notFound)
        }
        let faults = await sandbox.faults.settings(for: .bankid)
        let user = form["user"].flatMap(TestUsers.user(id:))
        let updated = await sandbox.orders.update(ref: order.orderRef) { order in
            if case .pending("outstandingTransaction") = order.status { order.open(now: now, faults: faults) }
            switch form["action"] {
            case "approve":
                if let user { order.approve(as: user, now: now, faults: faults) }
            case "cancel":
                order.cancelByUser(now: now)
            default:
                break
            }
        }
        guard let updated else { throw HTTPError(.notFound) }
        let status = updated.collected(now: now)
        let link = form["redirect"].flatMap { Self.isSafeLink($0) ? $0 : nil }.map { (url: $0, text: SandboxPhrase.backToTheApp.text(language)) }
        switch status {
        case .complete:
            return try answer(request, status, SandboxPhrase.identified.text(language),
                              SandboxPhrase.youAreIdentifiedReturnToThe.text(language), language, link: link)
        case .failed(let hint):
            return try answer(request, status, SandboxPhrase.notCompleted.text(language),
                              SandboxPhrase.theOrderEndedHint.text(language, ["hint": hint]), language, link: link)
        case .pending:
            guard user != nil || form["action"] != "approve" else {
                return try answer(request, status, SandboxPhrase.unknownTestPerson.text(language),
                                  SandboxPhrase.chooseOneOfTheTestPeople.text(language), language, status: .badRequest)
            }
            return try answer(request, status, SandboxPhrase.waiting.text(language),
                              SandboxPhrase.theOrderIsWaitingForYou.text(language), language)
        }
    }

    /// The app returns to the relying party's redirect; a script URL must not become a link.
    static func isSafeLink(_ text: String) -> Bool {
        guard let scheme = URL(string: text)?.scheme?.lowercased() else { return false }
        return !["javascript", "data", "vbscript", "file"].contains(scheme)
    }

    private func answer(
        _ request: Request, _ status: BankIDOrder.Status?, _ title: String, _ message: String, _ language: Language,
        status code: HTTPResponse.Status = .ok, link: (url: String, text: String)? = nil
    ) throws -> Response {
        if request.wantsJSON {
            var body = ["message": message]
            switch status {
            case .pending(let hint)?: body["status"] = "pending"; body["hintCode"] = hint
            case .failed(let hint)?: body["status"] = "failed"; body["hintCode"] = hint
            case .complete?: body["status"] = "complete"
            case nil: body["status"] = "not_found"
            }
            return try Responses.json(body, status: code)
        }
        return page(title, message, language, status: code, link: link)
    }

    private func page(_ title: String, _ message: String, _ language: Language, status: HTTPResponse.Status, link: (url: String, text: String)? = nil) -> Response {
        Responses.html(MessagePage(title: title, message: message, language: language, stylesheet: sandbox.stylesheetPath, isError: status.code >= 400, link: link).render(), status: status)
    }
}
