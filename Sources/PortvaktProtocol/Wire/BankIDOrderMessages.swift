/// `POST /bankid/orders`: what the app sends to start an order (OAuth parameter names).
public struct BankIDOrderStartRequest: Codable, Sendable, Hashable {
    public let clientID: String?
    public let redirectURI: String?
    public let codeChallenge: String?
    public let codeChallengeMethod: String?
    /// Where the BankID app returns on this device; must be on the client's allow-list.
    public let returnURL: String?
    public let scope: String?
    public let nonce: String?
    public let uiLocales: String?
    /// RFC 9449 §10: only a DPoP proof by this key redeems the order's code.
    public let dpopJKT: String?

    public init(
        clientID: String?, redirectURI: String?, codeChallenge: String?, codeChallengeMethod: String?, returnURL: String? = nil,
        scope: String? = nil, nonce: String? = nil, uiLocales: String? = nil, dpopJKT: String? = nil
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallengeMethod
        self.returnURL = returnURL
        self.scope = scope
        self.nonce = nonce
        self.uiLocales = uiLocales
        self.dpopJKT = dpopJKT
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id", redirectURI = "redirect_uri", codeChallenge = "code_challenge"
        case codeChallengeMethod = "code_challenge_method", returnURL = "return_url", scope, nonce, uiLocales = "ui_locales"
        case dpopJKT = "dpop_jkt"
    }
}

/// The order's handle in `collect`, `qr` and `cancel` (kept out of URLs, which get logged).
public struct BankIDOrderHandle: Codable, Sendable, Hashable {
    public let sessionId: String
    /// `qr` only: `data` (the default), `svg` or `text` (terminal half blocks).
    public let format: String?

    public init(sessionId: String, format: String? = nil) {
        self.sessionId = sessionId
        self.format = format
    }
}

/// The answer to an order start.
public struct BankIDOrderStarted: Codable, Sendable, Hashable {
    public let sessionId: String
    public let autoStartToken: String
    /// `bankid:///?autostarttoken=…&redirect=…`
    public let launchURL: String
    /// Where the app fetches the animated QR code's current frame.
    public let qrCodeUri: String
    /// ISO 8601.
    public let expiresAt: String
    public let expiresIn: Int
    /// Seconds between collects.
    public let pollInterval: Int

    public init(sessionId: String, autoStartToken: String, launchURL: String, qrCodeUri: String, expiresAt: String, expiresIn: Int, pollInterval: Int) {
        self.sessionId = sessionId
        self.autoStartToken = autoStartToken
        self.launchURL = launchURL
        self.qrCodeUri = qrCodeUri
        self.expiresAt = expiresAt
        self.expiresIn = expiresIn
        self.pollInterval = pollInterval
    }
}

/// Where an order stands: `pending` (with the message to show), `complete` (with the code) or
/// `failed` (with the message and the OAuth error).
public struct BankIDOrderState: Codable, Sendable, Hashable {
    public let status: String
    public let hintCode: String?
    public let messageId: String?
    public let message: String?
    public let error: String?
    public let code: String?
    public let expiresIn: Int?

    public init(status: String, hintCode: String?, messageId: String?, message: String?, error: String?, code: String?, expiresIn: Int?) {
        self.status = status
        self.hintCode = hintCode
        self.messageId = messageId
        self.message = message
        self.error = error
        self.code = code
        self.expiresIn = expiresIn
    }
}

/// One frame of the animated QR code.
public struct BankIDQRFrame: Codable, Sendable, Hashable {
    /// The text the QR code carries.
    public let qrData: String
    public let seconds: Int
    public let svg: String?
    public let text: String?

    public init(qrData: String, seconds: Int, svg: String?, text: String?) {
        self.qrData = qrData
        self.seconds = seconds
        self.svg = svg
        self.text = text
    }
}
