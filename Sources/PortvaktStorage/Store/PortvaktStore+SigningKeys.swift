import Foundation
import PortvaktCore
import SQLKit

extension PortvaktStore: SigningKeyRepository {
    public func signingKeys() async throws -> [StoredSigningKey] {
        try await read { db in
            try await db.select().column("*").from("signing_keys").orderBy("created_at", .descending)
                .all(as: SigningKeyRow.self).map(\.stored)
        }
    }

    public func activate(_ key: StoredSigningKey, now: Date) async throws {
        try await write { db in
            try await db.update("signing_keys").set("retired_at", to: now.millisecondsSince1970)
                .where("retired_at", .is, SQLLiteral.null).run()
            try await db.insert(into: "signing_keys").row(SigningKeyRow(key)).run()
        }
    }
}

private struct SigningKeyRow: Codable {
    var kid: String
    var privateKeySealed: Data
    var privateKeyKeyId: String
    var createdAt: Int64
    var retiredAt: Int64?

    init(_ key: StoredSigningKey) {
        kid = key.kid
        privateKeySealed = key.sealedPrivateKey.combined
        privateKeyKeyId = key.sealedPrivateKey.keyID
        createdAt = key.createdAt.millisecondsSince1970
        retiredAt = key.retiredAt.milliseconds
    }

    var stored: StoredSigningKey {
        StoredSigningKey(
            kid: kid, sealedPrivateKey: SealedValue(keyID: privateKeyKeyId, combined: privateKeySealed),
            createdAt: Date(millisecondsSince1970: createdAt), retiredAt: retiredAt.date
        )
    }
}
