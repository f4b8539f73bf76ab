import Foundation

/// A member organisation (NHF, Blindeforbundet, HLF, …).
public struct Organisation: Sendable, Hashable, Codable {
    public let id: String
    /// A short stable name used in URLs and tokens, for example `nhf`.
    public let slug: String
    public let name: String
    public let createdAt: Int64

    package init(id: String, slug: String, name: String, createdAt: Int64) {
        self.id = id
        self.slug = slug
        self.name = name
        self.createdAt = createdAt
    }
}
