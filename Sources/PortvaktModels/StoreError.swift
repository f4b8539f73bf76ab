import Foundation

/// A storage failure a caller can act on. Never carries bound values or row contents.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case duplicate, missingReference, constraint, notFound, schemaTooNew, limitReached, unavailable
    }

    private let code: Code
    /// The constraint or table involved, when the engine names it.
    public let detail: String?

    private init(_ code: Code, _ detail: String?) {
        self.code = code
        self.detail = detail
    }

    /// A unique constraint refused the write (identity, personnummer index, token hash, …).
    public static func duplicate(_ constraint: String?) -> Self { Self(.duplicate, constraint) }
    /// A foreign key points at a row that does not exist.
    public static func missingReference(_ constraint: String?) -> Self { Self(.missingReference, constraint) }
    /// A check or not-null constraint refused the value.
    public static func constraint(_ constraint: String?) -> Self { Self(.constraint, constraint) }
    /// The row to change does not exist.
    public static func notFound(_ table: String) -> Self { Self(.notFound, table) }
    /// The database was migrated by a newer Portvakt than this one.
    public static func schemaTooNew(_ version: String) -> Self { Self(.schemaTooNew, version) }
    /// A per-user limit (such as registered devices) is reached.
    public static func limitReached(_ what: String) -> Self { Self(.limitReached, what) }
    /// The database did not answer or failed for a reason of its own (connection lost, disk
    /// full): try again later. `detail` is the engine's error, for the log only.
    public static func unavailable(_ reason: String) -> Self { Self(.unavailable, reason) }

    public var isDuplicate: Bool { code == .duplicate }
    public var isMissingReference: Bool { code == .missingReference }
    public var isConstraint: Bool { code == .constraint }
    public var isNotFound: Bool { code == .notFound }
    public var isLimitReached: Bool { code == .limitReached }
    public var isUnavailable: Bool { code == .unavailable }
    public var isSchemaTooNew: Bool { code == .schemaTooNew }

    public var description: String {
        switch code {
        case .duplicate: "duplicate value refused by unique constraint \(detail ?? "")"
        case .missingReference: "reference to a missing row refused by \(detail ?? "a foreign key")"
        case .constraint: "value refused by constraint \(detail ?? "")"
        case .notFound: "no such row in \(detail ?? "table")"
        case .limitReached: "the limit of \(detail ?? "rows") is reached"
        case .unavailable: "the database is unavailable: \(detail ?? "no answer")"
        case .schemaTooNew: "the database schema (version \(detail ?? "?")) is newer than this portvakt-server; upgrade it"
        }
    }

    /// Errors compare by kind only: engines name constraints differently, so `.duplicate(nil)`
    /// matches any duplicate.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension StoreError {
    /// A session was refused because its account is disabled (``disabledAccountConstraint``):
    /// the account was disabled while its login, unlock or passkey sign-in was under way.
    public var isDisabledAccount: Bool { isConstraint && detail == Self.disabledAccountConstraint }

    /// The name a session's insert is refused with while its user is disabled (migration 28's
    /// trigger, on both databases).
    public static let disabledAccountConstraint = "sessions_user_not_disabled"
}
