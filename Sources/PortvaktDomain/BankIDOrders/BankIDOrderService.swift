/// A provider's BankID order API, in the shape of the relying-party API v6: start an order,
/// collect its status, cancel it. The server's `BankIDOrderAPI` speaks it over HTTP; another provider
/// plugs in here.
public protocol BankIDOrderService: Sendable {
    /// `auth`: a new order for the user at `endUserIP`.
    func start(endUserIP: String) async throws(UpstreamError) -> StartedBankIDOrder
    /// `collect`: where the order stands.
    func collect(orderRef: String) async throws(UpstreamError) -> CollectedBankIDOrder
    /// `cancel`: ends a pending order.
    func cancel(orderRef: String) async throws(UpstreamError)
}

/// What `auth` returns. The `qrStartSecret` never leaves the server.
public struct StartedBankIDOrder: Sendable, Codable {
    public let orderRef: String
    public let autoStartToken: String
    public let qrStartToken: String
    public let qrStartSecret: String

    public init(orderRef: String, autoStartToken: String, qrStartToken: String, qrStartSecret: String) {
        self.orderRef = orderRef
        self.autoStartToken = autoStartToken
        self.qrStartToken = qrStartToken
        self.qrStartSecret = qrStartSecret
    }
}

/// What `collect` says.
public enum CollectedBankIDOrder: Sendable, Equatable {
    case pending(hintCode: String?)
    case failed(hintCode: String?)
    /// The user identified; `personalNumber` as BankID gives it (11 digits).
    case complete(personalNumber: String, name: String?)
}
