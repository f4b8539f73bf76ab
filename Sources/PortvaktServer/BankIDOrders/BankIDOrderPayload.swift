import PortvaktDomain

/// What the server keeps sealed for an order: the provider's references and QR secret, and the
/// app's request the code will be bound to.
struct BankIDOrderPayload: Codable, Sendable {
    var order: StartedBankIDOrder
    var request: AppAuthorizationRequest
    /// Where the BankID app returns on this device; nil tells it `redirect=null`.
    var returnURL: String?
}
