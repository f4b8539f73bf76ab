import PortvaktModels

/// The ways in this deployment offers. A method is shown (the method page, the start page,
/// discovery's `portvakt_login_methods`, and through it the app) only when it is configured, so
/// nobody meets a button that answers "temporarily unavailable".
struct OfferedMethods: Sendable, Equatable {
    /// BankID's OpenID Connect login.
    var bankID: Bool
    var vipps: Bool
    /// BankID's order API: "BankID on another device" in the browser, "BankID app or QR code" in the app.
    var bankIDOrders: Bool

    /// With the sandbox on, it serves every provider the configuration leaves out.
    init(_ configuration: ServerConfiguration) {
        let sandbox = configuration.sandboxEnabled
        bankID = sandbox || configuration.upstreams[.bankid] != nil
        vipps = sandbox || configuration.upstreams[.vipps] != nil
        bankIDOrders = sandbox || configuration.bankIDOrderAPI != nil
    }

    func offers(_ provider: IdentityProvider) -> Bool {
        switch provider {
        case .bankid: bankID
        case .vipps: vipps
        case .password: true
        case .passkey: false
        }
    }

    /// Discovery's names, in the order the app shows them; email and password is always offered.
    func names(passkeys: Bool) -> [String] {
        (bankID ? ["bankid"] : []) + (vipps ? ["vipps"] : []) + (bankIDOrders ? ["bankid_order"] : [])
            + (passkeys ? ["passkey"] : []) + ["password"]
    }
}
