import Foundation
import PortvaktCore

/// `POST /bankid/orders`: what the app sends to start an order (OAuth parameter names).
struct BankIDOrderStartRequest: Decodable, Sendable {
    let clientID: String?
    let redirectURI: String?
    let codeChallenge: String?
    let codeChallengeMethod: String?
    /// Where the BankID app returns on this device; must be on the client's allow-list.
    let returnURL: String?
    let scope: String?
    let nonce: String?
    let uiLocales: String?
    /// RFC 9449 §10: only a DPoP proof by this key redeems the order's code.
    let dpopJKT: String?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id", redirectURI = "redirect_uri", codeChallenge = "code_challenge"
        case codeChallengeMethod = "code_challenge_method", returnURL = "return_url", scope, nonce, uiLocales = "ui_locales"
        case dpopJKT = "dpop_jkt"
    }
}

/// The order's handle in `collect`, `qr` and `cancel` (kept out of URLs, which get logged).
struct BankIDOrderHandle: Decodable, Sendable {
    let sessionId: String
    /// `qr` only: `data` (the default), `svg` or `text` (terminal half blocks).
    let format: String?
}

/// The answer to an order start.
struct BankIDOrderStarted: Encodable, Sendable {
    let sessionId: String
    let autoStartToken: String
    /// `bankid:///?autostarttoken=…&redirect=…`
    let launchURL: String
    /// Where the app fetches the animated QR code's current frame.
    let qrCodeUri: String
    /// ISO 8601.
    let expiresAt: String
    let expiresIn: Int
    /// Seconds between collects.
    let pollInterval: Int
}

/// Where an order stands, as JSON: `status`, and for each status what the app needs.
struct BankIDOrderStatus: Encodable, Sendable {
    let status: String
    let hintCode: String?
    let messageId: String?
    let message: String?
    let error: String?
    let code: String?
    let expiresIn: Int?

    init(_ outcome: BankIDOrderOutcome, language: Language, now: Date) {
        switch outcome {
        case .pending(let hint, let message, let expiresAt):
            (status, hintCode, messageId, self.message, error, code) = ("pending", hint, message.id, message.text(language), nil, nil)
            expiresIn = max(0, Int(expiresAt.timeIntervalSince(now).rounded(.up)))
        case .failed(let hint, let message, let error):
            (status, hintCode, messageId, self.message, self.error, code) = ("failed", hint, message.id, message.text(language), error, nil)
            expiresIn = nil
        case .complete(let code):
            (status, hintCode, messageId, message, error, self.code) = ("complete", nil, nil, nil, nil, code)
            expiresIn = nil
        }
    }
}

/// One frame of the animated QR code.
struct BankIDQRFrame: Encodable, Sendable {
    /// The text the QR code carries.
    let qrData: String
    let seconds: Int
    let svg: String?
    let text: String?
}
