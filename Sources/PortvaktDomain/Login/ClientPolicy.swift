import PortvaktModels

/// What a login does for one client, as its registration says (the server reads it from
/// `PORTVAKT_CLIENTS_FILE`).
public struct ClientPolicy: Sendable, Hashable {
    /// Slugs of the organisations whose members alone it admits; empty for every member.
    public var organisations: [String] = []
    /// The organisations' own service: nobody is asked to consent to it.
    public var firstParty = true
    /// Its logins sign the browser in at Portvakt (single sign-on) and may be answered from that
    /// sign-in; false for Portvakt's own app and CLI, whose sessions live on the device.
    public var singleSignOn = false
    /// Told over the back channel when one of its sessions ends (`backchannel_logout_uri`).
    public var notifiesLogout = false
    /// The slug of the organisation whose brand its pages show; nil: the neutral service's.
    public var brand: String?

    public init(organisations: [String] = [], firstParty: Bool = true, singleSignOn: Bool = false, notifiesLogout: Bool = false, brand: String? = nil) {
        self.organisations = organisations
        self.firstParty = firstParty
        self.singleSignOn = singleSignOn
        self.notifiesLogout = notifiesLogout
        self.brand = brand
    }

    /// Whether `consent` (nil: none) covers the claims `scope` asks for (``ClaimScopes``). A third
    /// party always asks first, for `openid` alone too: a code says who the person is, and that an
    /// organisation has them as a member.
    public func consentCovers(_ consent: Consent?, scope: String) -> Bool {
        if firstParty { return true }
        guard let consent else { return false }
        return ClaimScopes(scope).claimScopes.isSubset(of: ClaimScopes(consent.scope).scopes)
    }
}
