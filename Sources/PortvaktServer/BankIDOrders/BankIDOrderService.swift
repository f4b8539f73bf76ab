/// A provider's BankID order API, in the shape of the relying-party API v6: start an order,
/// collect its status, cancel it. ``BankIDOrderAPI`` speaks it over HTTP; another provider
/// plugs in here.
protocol BankIDOrderService: Sendable {
    /// `auth`: a new order for the user at `endUserIP`.
    func start(endUserIP: String) async throws(UpstreamError) -> StartedBankIDOrder
    /// `collect`: where the order stands.
    func collect(orderRef: String) async throws(UpstreamError) -> CollectedBankIDOrder
    /// `cancel`: ends a pending order.
    func cancel(orderRef: String) async throws(UpstreamError)
}

/// What `auth` returns. The `qrStartSecret` never leaves the server.
struct StartedBankIDOrder: Sendable, Codable {
    let orderRef: String
    let autoStartToken: String
    let qrStartToken: String
    let qrStartSecret: String
}

/// What `collect` says.
enum CollectedBankIDOrder: Sendable, Equatable {
    case pending(hintCode: String?)
    case failed(hintCode: String?)
    /// The user identified; `personalNumber` as BankID gives it (11 digits).
    case complete(personalNumber: String, name: String?)
}
