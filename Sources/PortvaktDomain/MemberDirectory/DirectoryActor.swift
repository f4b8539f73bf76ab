/// Who changed the member directory, as the audit trail names them.
public struct DirectoryActor: Sendable, Equatable {
    /// `member_system`, `import` or `operator`.
    public let kind: String
    /// The token's name, the file's name, or the command.
    public let name: String
    /// The SCIM token's id, for a member system.
    public let tokenID: String?

    private init(kind: String, name: String, tokenID: String?) {
        self.kind = kind
        self.name = name
        self.tokenID = tokenID
    }

    /// A member system writing over SCIM with one of its organisation's tokens.
    public static func memberSystem(tokenID: String, name: String) -> DirectoryActor {
        DirectoryActor(kind: "member_system", name: name, tokenID: tokenID)
    }

    /// `portvakt-server members import` applying a file.
    public static func importFile(_ fileName: String) -> DirectoryActor {
        DirectoryActor(kind: "import", name: fileName, tokenID: nil)
    }

    /// An operator's command on the server.
    public static let operatorCommand = DirectoryActor(kind: "operator", name: "portvakt-server", tokenID: nil)

    /// The audit events' source: `scim`, `import` or `operator`.
    var source: String { kind == "member_system" ? "scim" : kind }

    /// What the audit events say of the actor.
    var details: [String: String] {
        var details = ["actor": kind, "actor_name": name]
        if let tokenID { details["credential_id"] = tokenID }
        return details
    }
}
