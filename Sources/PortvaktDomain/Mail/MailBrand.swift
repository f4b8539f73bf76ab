/// What a mail sent for one organisation carries of its brand (issue 62 item 3).
public struct MailBrand: Sendable, Hashable {
    public let name: String
    /// Replaces the neutral signature; nil: the neutral one.
    public let signature: String?
    /// Added under the signature ("Questions? Contact …"); nil: none.
    public let supportContact: String?

    public init(name: String, signature: String?, supportContact: String?) {
        self.name = name
        self.signature = signature
        self.supportContact = supportContact
    }
}
