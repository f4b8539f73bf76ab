import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

/// Every column holding a value sealed with the data encryption keys (`PORTVAKT_ENCRYPTION_KEYS`),
/// with the context (AES-GCM associated data) each row's value is sealed with. The sealers use
/// these contexts, and `rotate-encryption-key` re-seals every column listed here, so a value
/// sealed anywhere else would be one the oldest key could never be retired from: a test checks
/// that every `*_sealed` column of the schema is listed.
public struct SealedColumn: Sendable {
    public let table: String
    public let column: String
    let idColumn: String
    /// The row's id is a BLOB (a hash), not text.
    let idIsBinary: Bool
    let keyIDColumn: String
    /// For login flows, whose context depends on the flow's kind.
    let kindColumn: String?
    let context: @Sendable (_ id: String, _ kind: String?) -> String

    public var name: String { "\(table).\(column)" }

    public static let all: [SealedColumn] = [
        SealedColumn("users", "personnummer", context: { id, _ in PersonnummerVault.context(User.personnummerRecord(userID: id)) }),
        SealedColumn("member_records", "personnummer", context: { id, _ in PersonnummerVault.context(MemberRecord.personnummerContext(recordID: id)) }),
        SealedColumn("member_sync_log", "login_personnummer", context: { id, _ in PersonnummerVault.context(MemberSyncEntry.vaultRecord(entryID: id)) }),
        SealedColumn("member_outbox", "payload", context: { id, _ in OutboxMessage.payloadContext(messageID: id) }),
        SealedColumn("mail_outbox", "body", context: { id, _ in MailOutboxMessage.bodyContext(messageID: id) }),
        SealedColumn("contacts", "details", context: { id, _ in Contact.detailsContext(contactID: id) }),
        SealedColumn("membership_claims", "payload", expires: true, context: { id, _ in SealingContext.membershipClaim(id) }),
        SealedColumn("bankid_orders", "payload", expires: true, context: { id, _ in SealingContext.bankIDOrder(id) }),
        SealedColumn("login_flows", "payload", kindColumn: "kind", expires: true, context: { id, kind in SealingContext.loginFlow(kind: kind ?? "", id: id) }),
        SealedColumn("portal_logins", "payload", idColumn: "state_hash", idIsBinary: true, expires: true, context: { _, _ in SealingContext.portalLogin }),
        SealedColumn("signing_keys", "private_key", idColumn: "kid", context: { id, _ in SigningKeySet.sealingContext(kid: id) }),
        SealedColumn("rsa_signing_keys", "private_key", idColumn: "kid", context: { id, _ in SigningKeySet.sealingContext(kid: id) }),
    ]

    /// Rows of a short-lived kind (`expires_at`) that have expired are never opened again and
    /// are purged: re-sealing skips them, so one that no configured key opens stops nothing.
    let expires: Bool

    private init(
        _ table: String, _ name: String, idColumn: String = "id", idIsBinary: Bool = false, kindColumn: String? = nil, expires: Bool = false,
        context: @escaping @Sendable (String, String?) -> String
    ) {
        self.table = table
        self.column = name + "_sealed"
        self.idColumn = idColumn
        self.idIsBinary = idIsBinary
        self.keyIDColumn = name + "_key_id"
        self.kindColumn = kindColumn
        self.expires = expires
        self.context = context
    }

    /// The rows whose value is sealed under another key than `active` (and, for a short-lived
    /// kind, not yet expired at `now`).
    func underOtherKeys<Builder: SQLPredicateBuilder>(_ query: Builder, active: String, now: Date) -> Builder {
        let query = query.where(SQLIdentifier(keyIDColumn), .notEqual, active).where(SQLIdentifier(column), .isNot, SQLLiteral.null)
        return expires ? query.where("expires_at", .greaterThan, now.millisecondsSince1970) : query
    }
}

/// One batch of re-sealing: how many values moved, and the id to go on after.
public struct ResealBatch: Sendable {
    public var resealed = 0
    /// The last row read; nil when there was none (the column is done for this pass).
    public var after: ResealCursor?
}

/// Where the next batch of a column starts: after this row id.
public struct ResealCursor: Sendable {
    let id: SQLBind
}

public enum ResealError: Error, CustomStringConvertible {
    /// A value opens under none of the configured keys: its key was removed too early, or the row was altered.
    case cannotOpen(column: String, keyID: String)
    /// Values are sealed under an older key faster than they are re-sealed: an instance still
    /// runs with that key first.
    case stillSealedUnderOlderKey(column: String, count: Int)

    public var description: String {
        switch self {
        case .cannotOpen(let column, let keyID):
            "a value in \(column) sealed under key \(keyID) does not open with PORTVAKT_ENCRYPTION_KEYS: add that key back, then run again"
        case .stillSealedUnderOlderKey(let column, let count):
            "\(count) values in \(column) are still sealed under an older key: run every instance with the new key first in PORTVAKT_ENCRYPTION_KEYS, then run again"
        }
    }
}

extension PortvaktStore {
    /// How many values of `column` are sealed under another key than `cipher`'s newest.
    public func sealedUnderOlderKeys(_ column: SealedColumn, cipher: FieldCipher, now: Date = Date()) async throws -> Int {
        try await read { db in
            try await column.underOtherKeys(db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count").from(column.table), active: cipher.activeKeyID, now: now)
                .first()?.decode(column: "count", as: Int.self) ?? 0
        }
    }

    /// Re-seals up to `limit` values of `column` under `cipher`'s newest key, in id order after
    /// `cursor`, each in place only if it is still the value that was read (a row changed
    /// meanwhile is left for the next pass). Only values under an older key are read, so an
    /// interrupted rotation goes on where it stopped.
    /// - Throws: ``ResealError/cannotOpen(column:keyID:)``; the rows before it in the batch stay re-sealed.
    public func reseal(_ column: SealedColumn, cipher: FieldCipher, after cursor: ResealCursor?, limit: Int, now: Date = Date()) async throws -> ResealBatch {
        let active = cipher.activeKeyID
        // A value that does not open is the operator's to fix, not a database failure: it is
        // carried out of the transaction, which keeps the rows re-sealed before it.
        let (batch, failure) = try await write { db -> (ResealBatch, ResealError?) in
            var select = db.select().column(SQLIdentifier(column.idColumn), as: "row_id").column(SQLIdentifier(column.column), as: "sealed")
                .column(SQLIdentifier(column.keyIDColumn), as: "key_id")
            if let kind = column.kindColumn { select = select.column(SQLIdentifier(kind), as: "kind") }
            select = column.underOtherKeys(select.from(column.table), active: active, now: now)
            if let cursor { select = select.where(SQLIdentifier(column.idColumn), .greaterThan, cursor.id) }
            let rows = try await select.orderBy(SQLIdentifier(column.idColumn)).limit(limit).all()
            var batch = ResealBatch()
            for row in rows {
                let keyID = try row.decode(column: "key_id", as: String.self)
                let idText: String
                let id: SQLBind
                if column.idIsBinary {
                    let bytes = try row.decode(column: "row_id", as: Data.self)
                    (idText, id) = ("", SQLBind(bytes))
                } else {
                    let text = try row.decode(column: "row_id", as: String.self)
                    (idText, id) = (text, SQLBind(text))
                }
                batch.after = ResealCursor(id: id)
                let context = column.context(idText, column.kindColumn == nil ? nil : try row.decode(column: "kind", as: String.self))
                let old = SealedValue(keyID: keyID, combined: try row.decode(column: "sealed", as: Data.self))
                guard let plaintext = try? cipher.open(old, context: context) else {
                    return (batch, ResealError.cannotOpen(column: column.name, keyID: keyID))
                }
                let new = try cipher.seal(plaintext, context: context)
                let changed = try await db.update(column.table)
                    .set(SQLIdentifier(column.column), to: new.combined).set(SQLIdentifier(column.keyIDColumn), to: new.keyID)
                    .where(SQLIdentifier(column.idColumn), .equal, id).where(SQLIdentifier(column.column), .equal, old.combined)
                    .returning(SQLIdentifier(column.idColumn)).all()
                batch.resealed += changed.count
            }
            return (batch, nil)
        }
        if let failure { throw failure }
        return batch
    }
}
