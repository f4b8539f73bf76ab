import Foundation

/// How long Portvakt keeps what it keeps about people after it stops being needed (PRIVACY.md,
/// "Retention"). The server's purge enforces each period every five minutes; the rest (logins,
/// codes, orders, challenges, claims, throttles) goes as soon as it expires.
public enum Retention {
    /// The client address of an audit event; the event itself stays, without it.
    public static let auditAddresses: TimeInterval = 90 * 86_400
    /// An email (recipient and subject) after it was queued; its body goes as soon as it is sent.
    public static let mail: TimeInterval = 30 * 86_400
    /// A session after it ended, with its refresh tokens.
    public static let endedSessions: TimeInterval = 86_400
    /// A member record after its membership ended (the member system said `active: false`, or
    /// an import with `--remove-missing` left it out): long enough for the administrators to see
    /// who left and for the member system to take the member back, then it goes. A record the
    /// member system deletes goes at once.
    public static let endedMemberRecords: TimeInterval = 90 * 86_400
    /// A back-channel logout (client, session and account ids) after it was queued: long enough
    /// for its retries (about 35 minutes) and for an operator to see a dead one.
    public static let logouts: TimeInterval = 7 * 86_400
}
