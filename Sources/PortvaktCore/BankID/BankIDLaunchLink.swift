/// The link that opens the BankID app on this device with an order's autostart token.
public enum BankIDLaunchLink {
    /// `bankid:///?autostarttoken={token}&redirect={redirect}`, both percent-encoded (RFC 3986
    /// unreserved characters only). Without a redirect the BankID app is told `redirect=null` and
    /// returns nowhere; the caller has checked `redirect` against its allow-list.
    public static func url(autoStartToken: String, redirect: String?) -> String {
        "bankid:///?autostarttoken=\(FormFields.encode(autoStartToken))&redirect=\(redirect.map(FormFields.encode) ?? "null")"
    }
}
