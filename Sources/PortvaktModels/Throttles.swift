import Foundation

/// A failed attempt to count against one throttle key.
public struct ThrottleFailure: Sendable {
    public let key: String
    /// A key with no failure for this long starts over.
    public let forgetAfter: TimeInterval
    /// How long the key is blocked after this many failures in a row; nil: not blocked.
    public let blockFor: @Sendable (_ failures: Int) -> TimeInterval?

    public init(key: String, forgetAfter: TimeInterval, blockFor: @escaping @Sendable (Int) -> TimeInterval?) {
        self.key = key
        self.forgetAfter = forgetAfter
        self.blockFor = blockFor
    }
}
