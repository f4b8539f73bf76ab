/// The token endpoint's answer (RFC 6749 §5.1, OIDC Core §3.1.3.3).
public struct TokenResponse: Codable, Sendable, Hashable {
    public let accessToken: String
    /// `DPoP` when the tokens are bound to the client's key (RFC 9449 §5), else `Bearer`.
    public let tokenType: String
    public let expiresIn: Int
    public let refreshToken: String
    public let idToken: String?
    /// RFC 6749 §5.1: may be left out when it is what the client asked for.
    public let scope: String?
    /// Seconds until the session ends however often it is refreshed (its absolute lifetime), so
    /// the app knows before it asks for anything that it must log in again (S16.3).
    public let sessionExpiresIn: Int?
    /// After a BankID or Vipps login: seconds until this user's device keys stop unlocking
    /// (the device trust), for the same reason.
    public let deviceTrustExpiresIn: Int?

    public init(
        accessToken: String, tokenType: String, expiresIn: Int, refreshToken: String, idToken: String?, scope: String?,
        sessionExpiresIn: Int? = nil, deviceTrustExpiresIn: Int? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scope = scope
        self.sessionExpiresIn = sessionExpiresIn
        self.deviceTrustExpiresIn = deviceTrustExpiresIn
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in", refreshToken = "refresh_token"
        case idToken = "id_token", scope, sessionExpiresIn = "session_expires_in", deviceTrustExpiresIn = "device_trust_expires_in"
    }
}

/// The elevated token of a step-up (`POST /v1/step-up`); its `step_up` claim names the action.
public struct StepUpResponse: Codable, Sendable, Hashable {
    public let accessToken: String
    public let tokenType: String
    public let expiresIn: Int
    public let action: String

    public init(accessToken: String, tokenType: String, expiresIn: Int, action: String) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.action = action
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in", action
    }
}

/// `POST /v1/step-up`: the device's signed answer to a `step-up` challenge.
public struct StepUpRequest: Codable, Sendable, Hashable {
    public let assertion: String

    public init(assertion: String) {
        self.assertion = assertion
    }
}

/// `POST /v1/step-up/password`: the account's password, entered again for one action (S11.3).
public struct PasswordStepUpRequest: Codable, Sendable, Hashable {
    public let action: String
    public let password: String

    public init(action: StepUpAction, password: String) {
        self.action = action.rawValue
        self.password = password
    }
}

/// A pushed authorization request's handle (RFC 9126 §2.2).
public struct PushedRequestResponse: Codable, Sendable, Hashable {
    public let requestURI: String
    public let expiresIn: Int

    public init(requestURI: String, expiresIn: Int) {
        self.requestURI = requestURI
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case requestURI = "request_uri", expiresIn = "expires_in"
    }
}

/// Every error answer of the broker and the API: RFC 6749 §5.2's fields and the message the app shows.
public struct ErrorResponse: Codable, Sendable, Hashable {
    public let error: String
    public let errorDescription: String?
    /// A ``UserMessage`` id.
    public let messageID: String?

    public init(error: String, errorDescription: String?, messageID: String?) {
        self.error = error
        self.errorDescription = errorDescription
        self.messageID = messageID
    }

    enum CodingKeys: String, CodingKey {
        case error, errorDescription = "error_description", messageID = "message_id"
    }
}
