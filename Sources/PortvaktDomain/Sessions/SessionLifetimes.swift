import Foundation

/// How long tokens and sessions live.
public struct SessionLifetimes: Sendable {
    public var accessToken: TimeInterval
    /// A session unused this long ends; each refresh moves it on.
    public var idle: TimeInterval
    /// A session ends this long after the login whatever happens.
    public var absolute: TimeInterval
    /// Authorization codes (RFC 6749 §4.1.2 recommends at most ten minutes; one is plenty).
    public var authorizationCode: TimeInterval = 60
    /// How long a login may take from `/oauth/authorize` to the provider's answer.
    public var loginFlow: TimeInterval = 600
    /// A BankID order the user has not finished by then has failed, whatever the app does.
    public var bankIDOrder: TimeInterval = 180
    /// A device key unlocks for this long after the user's last BankID or Vipps login.
    public var deviceTrust: TimeInterval = 90 * 86400
    /// How long a step-up's elevated token lasts.
    public var stepUp: TimeInterval = 120
    /// A device signs a challenge within this.
    public var deviceChallenge: TimeInterval = 60
    /// A browser's single sign-on at Portvakt ends unused this long (`PORTVAKT_SSO_IDLE_SECONDS`)…
    public var browserIdle: TimeInterval = 2 * 3600
    /// …and this long after its login whatever happens (`PORTVAKT_SSO_ABSOLUTE_SECONDS`).
    public var browserAbsolute: TimeInterval = 12 * 3600

    public init(accessToken: TimeInterval, idle: TimeInterval, absolute: TimeInterval) {
        self.accessToken = accessToken
        self.idle = idle
        self.absolute = absolute
    }
}
