import SQLKit

/// Version 3: BankID orders started by the server (the order flow beside the in-app browser),
/// found by the hash of the session id the app holds. The provider's order reference and QR
/// secret are sealed in the payload; the status is in the clear so that one conditional update
/// decides which of two concurrent collects completes the login.
enum BankIDOrders {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "bankid_orders")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("session_hash", type: .blob, .notNull)
            .column("client_id", type: .text, .notNull)
            .column("payload_sealed", type: .blob, .notNull)
            .column("payload_key_id", type: .text, .notNull)
            .column("status", type: .text, .notNull)
            .column("hint_code", type: .text)
            .column("user_id", type: .text)
            .column("started_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("finished_at", type: .bigint)
            .foreignKey(["user_id"], references: "users", ["id"], onDelete: .cascade)
            .unique("session_hash", named: "bankid_orders_session_hash_key")
            .check(SQLRaw("status IN ('pending', 'complete', 'failed')"), named: "bankid_orders_status_check")
            .run()
        try await db.create(index: "bankid_orders_expires_idx").on("bankid_orders").column("expires_at").run()
    }
}
