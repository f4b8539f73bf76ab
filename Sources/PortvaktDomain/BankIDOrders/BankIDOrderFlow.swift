import Foundation
import Logging
import Personnummer
import PortvaktCore
import PortvaktModels
import PortvaktProtocol

/// A BankID order's row: started, read by its session, finished once.
public protocol BankIDOrderStore: Sendable {
    func insertBankIDOrder(
        sessionHash: Data, clientID: String, startedAt: Date, expiresAt: Date, payload seal: (_ orderID: String) throws -> SealedValue
    ) async throws -> BankIDOrderRecord
    func bankIDOrder(sessionHash: Data) async throws -> BankIDOrderRecord?
    func finishBankIDOrder(id: String, status: BankIDOrderRecord.Status, hintCode: String?, userID: String?, now: Date) async throws -> BankIDOrderRecord?
}

/// The BankID order flow on the server: start an order at the provider, report its progress,
/// draw its QR frames, cancel it, and turn a completed order into a Portvakt login. Orders end
/// after three minutes whatever the client does; the session id the app holds is the only
/// handle, and only its hash is stored.
public struct BankIDOrderFlow: Sendable {
    let store: any BankIDOrderStore
    let throttle: LoginThrottle
    let cipher: FieldCipher
    let linker: IdentityLinker
    public let completion: LoginCompletion
    /// The provider's order API as configured now; nil when none is.
    let orderAPI: @Sendable () async -> (any BankIDOrderService)?
    let refreshSecret: RefreshTokenSecret
    /// How long an order may take (three minutes).
    let orderLifetime: TimeInterval
    /// Synthetic (test) personnummer are accepted only when the sandbox is on.
    let personnummerContext: Personnummer.Context
    let logger: Logger
    public let now: @Sendable () -> Date

    public init(
        store: any BankIDOrderStore, throttle: LoginThrottle, cipher: FieldCipher, linker: IdentityLinker, completion: LoginCompletion,
        orderAPI: @escaping @Sendable () async -> (any BankIDOrderService)?, refreshSecret: RefreshTokenSecret, orderLifetime: TimeInterval,
        personnummerContext: Personnummer.Context, logger: Logger, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.throttle = throttle
        self.cipher = cipher
        self.linker = linker
        self.completion = completion
        self.orderAPI = orderAPI
        self.refreshSecret = refreshSecret
        self.orderLifetime = orderLifetime
        self.personnummerContext = personnummerContext
        self.logger = logger
        self.now = now
    }

    /// Portvakt's own hint codes for failures BankID does not know about.
    public static let notRegistered = "notRegistered"
    public static let invalidPersonnummer = "invalidPersonnummer"
    /// An operator disabled the account (issue 45 item 5).
    public static let accountDisabled = "accountDisabled"

    public struct Started: Sendable {
        public let sessionID: String
        public let autoStartToken: String
        public let launchURL: String
        public let expiresAt: Date
        public let order: Order
    }

    /// An order found by its session id, with its payload opened.
    public struct Order: Sendable {
        public let sessionID: String
        public let record: BankIDOrderRecord
        public let payload: BankIDOrderPayload
    }

    /// Starts an order for `request`; `returnURL` has been checked against the client's allow-list.
    /// - Throws: ``UpstreamError`` when the provider is unavailable, refuses, or is too slow.
    /// - Throws: ``DomainError/tooManyOrders`` when the address started more orders than the throttle allows.
    public func start(_ request: AppAuthorizationRequest, returnURL: String?, endUserIP: String) async throws -> Started {
        // Each order costs a call to BankID: counted per address in the database first (review III, item 6).
        if try await throttle.reserve([.orderStart(endUserIP, allowed: throttle.orderStartsPerAddress)], now: now()) != nil {
            throw DomainError.tooManyOrders
        }
        let started = try await orderService().start(endUserIP: endUserIP)
        let now = self.now()
        let sessionID = randomToken()
        let payload = BankIDOrderPayload(order: started, request: request, returnURL: returnURL)
        let sealed = try JSONEncoder().encode(payload)
        let record = try await store.insertBankIDOrder(
            sessionHash: RefreshTokenSecret.hash(sessionID), clientID: request.clientID,
            startedAt: now, expiresAt: now.addingTimeInterval(orderLifetime)
        ) { id in try cipher.seal(sealed, context: SealingContext.bankIDOrder(id)) }
        logger.info("BankID order started", metadata: ["order": "\(record.id)", "client": "\(request.clientID)"])
        return Started(
            sessionID: sessionID, autoStartToken: started.autoStartToken,
            launchURL: BankIDLaunchLink.url(autoStartToken: started.autoStartToken, redirect: returnURL), expiresAt: record.expiresDate,
            order: Order(sessionID: sessionID, record: record, payload: payload)
        )
    }

    /// The order behind a session id, or nil for an unknown (or long purged) one.
    public func order(sessionID: String) async throws -> Order? {
        guard let record = try await store.bankIDOrder(sessionHash: RefreshTokenSecret.hash(sessionID)) else { return nil }
        let data = try cipher.open(record.payload, context: SealingContext.bankIDOrder(record.id))
        return Order(sessionID: sessionID, record: record, payload: try JSONDecoder().decode(BankIDOrderPayload.self, from: data))
    }

    /// Asks the provider where the order stands (unless it has ended or expired) and, when the
    /// user has identified, logs them in. Repeated calls after the end give the same answer.
    public func collect(_ order: Order) async throws -> BankIDOrderOutcome {
        if let ended = try await endIfExpired(order) { return ended }
        guard order.record.status == .pending else { return outcome(of: order.record, sessionID: order.sessionID) }
        switch try await orderService().collect(orderRef: order.payload.order.orderRef) {
        case .pending(let hint):
            return .pending(hintCode: hint, message: BankIDHint.pendingMessage(hint), expiresAt: order.record.expiresDate)
        case .failed(let hint):
            return try await fail(order, hintCode: hint, reason: "BankID ended the order (\(hint ?? "no hint"))")
        case .complete(let personalNumber, let name):
            return try await complete(order, personalNumber: personalNumber, name: name)
        }
    }

    /// The animated QR code's text now (`t` = whole seconds since the start), or nil once the
    /// order has ended.
    public func qrData(_ order: Order) async throws -> (text: String, seconds: Int)? {
        if try await endIfExpired(order) != nil { return nil }
        guard order.record.status == .pending else { return nil }
        let seconds = max(0, Int(now().timeIntervalSince(order.record.startedDate)))
        let started = order.payload.order
        return (BankIDQRCode.frame(qrStartToken: started.qrStartToken, qrStartSecret: started.qrStartSecret, seconds: seconds), seconds)
    }

    /// Cancels a pending order here and at the provider. Cancelling an ended order changes
    /// nothing and reports how it ended.
    public func cancel(_ order: Order) async throws -> BankIDOrderOutcome {
        if let ended = try await endIfExpired(order) { return ended }
        guard order.record.status == .pending else { return outcome(of: order.record, sessionID: order.sessionID) }
        let outcome = try await fail(order, hintCode: "cancelled", reason: "the user cancelled the order")
        await cancelAtProvider(order)
        return outcome
    }

    private func orderService() async throws(UpstreamError) -> any BankIDOrderService {
        guard let service = await orderAPI() else { throw .unavailable("no BankID order API is configured") }
        return service
    }

    // MARK: - Ending an order

    private func endIfExpired(_ order: Order) async throws -> BankIDOrderOutcome? {
        guard order.record.status == .pending, now() >= order.record.expiresDate else { return nil }
        let outcome = try await fail(order, hintCode: "expiredTransaction", reason: "the order expired")
        await cancelAtProvider(order)
        return outcome
    }

    /// Ends the order as failed, unless another request ended it first: then that result stands.
    private func fail(_ order: Order, hintCode: String?, reason: String) async throws -> BankIDOrderOutcome {
        guard try await store.finishBankIDOrder(id: order.record.id, status: .failed, hintCode: hintCode, userID: nil, now: now()) != nil else {
            return try await currentOutcome(order)
        }
        let outcome = BankIDOrderOutcome.failure(hintCode)
        DomainMetrics.bankIDOrderEnded(status: hintCode == "cancelled" ? "cancelled" : hintCode == "expiredTransaction" ? "expired" : "failed")
        if case .failed(_, let message, _) = outcome {
            try await completion.recordFailure(method: .bankid, message: message, reason: reason)
        }
        return outcome
    }

    private func complete(_ order: Order, personalNumber: String, name: String?) async throws -> BankIDOrderOutcome {
        guard let number = try? Personnummer(personalNumber, context: personnummerContext) else {
            return try await fail(order, hintCode: Self.invalidPersonnummer, reason: "BankID gave a personnummer that does not validate")
        }
        let login = IdentityLinker.Login(provider: .bankid, subject: "nnin:" + linker.vault.blindIndex(number), personnummer: number, phone: nil, name: name)
        guard let user = try await linker.user(for: login, now: now()) else {
            return try await fail(order, hintCode: Self.notRegistered, reason: "no member record")
        }
        guard user.disabledAt == nil else {
            return try await fail(order, hintCode: Self.accountDisabled, reason: "the account is disabled")
        }
        guard try await completion.admission(of: user, to: order.payload.request.clientID) == .admitted else {
            return try await fail(order, hintCode: Self.notRegistered, reason: "not a member of an organisation this client admits")
        }
        let code = refreshSecret.orderCode(forSession: order.sessionID)
        // The order API says nothing of the level of assurance: the session does not claim BankID's high level.
        let method = LoginCompletion.Method(provider: .bankid, amr: ["BID"], acr: Authentication.bankIDOrderACR)
        do {
            // The order is marked complete in the code's own transaction: a code is handed out only once it is stored.
            _ = try await completion.issueCode(
                for: order.payload.request, user: user, method: method, personnummer: .number(number), code: code, bankIDOrderID: order.record.id
            )
        } catch let error as StoreError where error.isNotFound && error.detail == "bankid_orders" {
            return try await currentOutcome(order)
        } catch let error as StoreError where error.isDisabledAccount {
            // Disabled between the check above and the session (migration 28 refused it).
            return try await fail(order, hintCode: Self.accountDisabled, reason: "the account is disabled")
        }
        DomainMetrics.bankIDOrderEnded(status: "complete")
        return .complete(code: code)
    }

    private func currentOutcome(_ order: Order) async throws -> BankIDOrderOutcome {
        guard let record = try await store.bankIDOrder(sessionHash: order.record.sessionHash) else {
            return .failed(hintCode: nil, message: .bankIDOrderNotFound, error: .invalidRequest)
        }
        return outcome(of: record, sessionID: order.sessionID)
    }

    private func outcome(of record: BankIDOrderRecord, sessionID: String) -> BankIDOrderOutcome {
        switch record.status {
        case .complete: .complete(code: refreshSecret.orderCode(forSession: sessionID))
        case .failed: .failure(record.hintCode)
        case .pending: .pending(hintCode: nil, message: .bankIDWaiting, expiresAt: record.expiresDate)
        }
    }

    /// Best effort: the provider ends an abandoned order by itself too.
    private func cancelAtProvider(_ order: Order) async {
        do {
            try await orderAPI()?.cancel(orderRef: order.payload.order.orderRef)
        } catch {
            logger.debug("Could not cancel the BankID order at the provider", metadata: ["order": "\(order.record.id)", "error": "\(error)"])
        }
    }
}
