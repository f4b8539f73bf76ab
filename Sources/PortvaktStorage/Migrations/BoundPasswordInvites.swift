import SQLKit

/// Version 20: an invitation to password login is bound to the account holding the member record
/// when it was made (NULL: the record had none, and accepting it makes an account of that record
/// alone), so the link can never set the password of whichever account has the email.
enum BoundPasswordInvites {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "password_invites").column("user_id", type: .text).run()
    }
}
