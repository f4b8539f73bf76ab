import WebAuthn

extension PublicAddress {
    /// The WebAuthn relying party of the server's public URL: nil (passkeys unavailable) when it
    /// names an IP address or is plain http anywhere but localhost (S18.5).
    public var relyingParty: RelyingParty? { RelyingParty(publicURL: current) }
}
