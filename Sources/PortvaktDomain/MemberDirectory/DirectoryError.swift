import PortvaktModels

/// Why the member directory refused a write or a read: a kind, the attribute (in SCIM's words)
/// and a plain reason a member system's developer can act on. A reason never holds a personnummer.
public struct DirectoryError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No such member (or organisation) — also another organisation's member.
        case notFound
        /// `If-Match` named another version than the record's; nothing was written.
        case versionMismatch
        /// Another record of the organisation has the value (externalId, userName, personnummer).
        case uniqueness
        case invalidValue
    }

    public let kind: Kind
    /// `externalId`, `userName`, `personnummer`, `emails`, `phoneNumbers`, `role`, `name`,
    /// `memberNumber`; nil when the refusal is not about one attribute.
    public let field: String?
    public let reason: String

    public init(_ kind: Kind, field: String? = nil, reason: String) {
        self.kind = kind
        self.field = field
        self.reason = reason
    }

    public var description: String { field.map { "\($0): \(reason)" } ?? reason }

    static func invalid(_ field: String, _ reason: String) -> DirectoryError { DirectoryError(.invalidValue, field: field, reason: reason) }

    static let memberNotFound = DirectoryError(.notFound, reason: "no member with this id in the organisation")

    static func versionMismatch(current: Int64) -> DirectoryError {
        DirectoryError(.versionMismatch, reason: "the member is at version \(current), not the one If-Match names; read it again")
    }

    /// The refusal a unique index meant (engines name the index or its columns; both hold the column's name).
    static func uniqueness(_ error: StoreError) -> DirectoryError {
        let detail = error.detail ?? ""
        for (column, field) in [("external_ref", "externalId"), ("user_name", "userName"), ("personnummer", "personnummer")] where detail.contains(column) {
            return DirectoryError(.uniqueness, field: field, reason: "another member of the organisation has this \(field)")
        }
        return DirectoryError(.uniqueness, reason: "another member of the organisation has one of these values")
    }

    /// The directory's refusal for a store error that is one (a unique index, an unknown
    /// organisation); nil for any other (the database is unavailable: the caller says "try again").
    static func from(_ error: StoreError) -> DirectoryError? {
        if error.isDuplicate { return uniqueness(error) }
        if error.isMissingReference { return DirectoryError(.notFound, field: "organisation", reason: "no such organisation") }
        return nil
    }
}
