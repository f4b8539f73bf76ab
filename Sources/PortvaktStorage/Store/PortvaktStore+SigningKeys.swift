import Foundation
import PortvaktCore
import SQLKit

extension PortvaktStore: SigningKeyRepository {
    public func signingKeys() async throws -> [StoredSigningKey] {
        try await read { db in
            try await db.select().column("*").from("signing_keys").orderBy("created_at", .descending)
                .all(as: SigningKeyRow.self).compactMap(\.stored)
        }
    }

    public func activate(_ keys: [StoredSigningKey], now: Date) async throws {
        try await write { db in
            try await db.update("signing_keys").set("retired_at", to: now.millisecondsSince1970)
                .where("retired_at", .is, SQLLiteral.null).where("algorithm", .in, keys.map(\.algorithm.rawValue)).run()
            for key in keys {
                try await db.insert(into: "signing_keys").row(SigningKeyRow(key)).run()
            }
        }
    }
}

private struct SigningKeyRow: Codable {
    var kid: String
    var algorithm: String
    var privateKeySealed: Data
    var privateKeyKeyId: String
    var createdAt: Int64
    var retiredAt: Int64?

    init(_ key: StoredSigningKey) {
        kid = key.kid
        algorithm = key.algorithm.rawValue
        privateKeySealed = key.sealedPrivateKey.combined
        privateKeyKeyId = key.sealedPrivateKey.keyID
        createdAt = key.createdAt.millisecondsSince1970
        retiredAt = key.retiredAt.milliseconds
    }

    /// Nil for an algorithm this version does not know (written by a newer one).
    var stored: StoredSigningKey? {
        SigningKey.Algorithm(rawValue: algorithm).map { algorithm in
            StoredSigningKey(
                kid: kid, algorithm: algorithm, sealedPrivateKey: SealedValue(keyID: privateKeyKeyId, combined: privateKeySealed),
                createdAt: Date(millisecondsSince1970: createdAt), retiredAt: retiredAt.date
            )
        }
    }
}
