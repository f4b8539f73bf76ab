/// What the server keeps sealed for an order: the provider's references and QR secret, and the
/// app's request the code will be bound to.
public struct BankIDOrderPayload: Codable, Sendable {
    public var order: StartedBankIDOrder
    public var request: AppAuthorizationRequest
    /// Where the BankID app returns on this device; nil tells it `redirect=null`.
    public var returnURL: String?
}
