import Foundation

/// A row written under the caller's `Idempotency-Key`: unique per user, with a hash of the
/// request it first came with.
public protocol IdempotentRow: Codable, Sendable {
    var userId: String { get }
    var idempotencyKey: String { get }
    var requestHash: Data { get }
}

/// What writing under an idempotency key did.
public enum IdempotentWrite<Row: Sendable>: Sendable {
    /// The row is new.
    case created(Row)
    /// The key was used before with the same request: this is the row it made, and nothing new was written.
    case replayed(Row)
    /// The key was used before with a different request.
    case keyReused
}

/// Which rows of an organisation a caller may see: everyone's, or only their own.
public enum RowScope: Sendable, Hashable {
    case organisation(String)
    case own(userID: String, organisationID: String)
}
