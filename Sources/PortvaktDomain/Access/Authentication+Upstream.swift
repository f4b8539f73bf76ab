import PortvaktModels

extension Authentication {
    /// The `acr` a session records from a BankID or Vipps ID token. ``isHighAssurance(_:)``
    /// trusts BankID's values (`urn:bankid:…`), so only BankID's own token may bring them; and no
    /// upstream may bring Portvakt's own (`urn:portvakt:…`, what a passkey or a device records).
    /// Any other value, or none, is recorded as the provider's plain login,
    /// `urn:portvakt:<provider>`: a Vipps token that says `urn:bankid:bid;LOA=4` never opens what
    /// needs BankID's high level.
    public static func upstreamACR(_ acr: String?, provider: IdentityProvider) -> String {
        let plain = "urn:portvakt:\(provider.rawValue)"
        guard let acr, !acr.isEmpty, acr.utf8.count <= 200 else { return plain }
        let namespace = acr.lowercased()
        guard !namespace.hasPrefix("urn:portvakt:") else { return plain }
        return namespace.hasPrefix("urn:bankid:") == (provider == .bankid) ? acr : plain
    }
}
