import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore: SigningKeyRepository {
    public func signingKeys() async throws -> [StoredSigningKey] {
        try await read { db in
            var keys: [StoredSigningKey] = []
            for algorithm in SigningKey.Algorithm.allCases {
                keys += try await db.select().column("*").from(Self.signingKeyTable(algorithm))
                    .all(as: SigningKeyRow.self).map { $0.stored(algorithm) }
            }
            return keys.sorted { $0.createdAt > $1.createdAt }
        }
    }

    public func activate(_ keys: [StoredSigningKey], now: Date) async throws {
        try await write { db in
            for key in keys {
                let table = Self.signingKeyTable(key.algorithm)
                try await db.update(table).set("retired_at", to: now.millisecondsSince1970).where("retired_at", .is, SQLLiteral.null).run()
                try await db.insert(into: table).row(SigningKeyRow(key)).run()
            }
        }
    }

    /// ES256 keys stay where every earlier version reads them; RS256 keys have a table of their own.
    private static func signingKeyTable(_ algorithm: SigningKey.Algorithm) -> String {
        switch algorithm {
        case .es256: "signing_keys"
        case .rs256: "rsa_signing_keys"
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

    func stored(_ algorithm: SigningKey.Algorithm) -> StoredSigningKey {
        StoredSigningKey(
            kid: kid, algorithm: algorithm, sealedPrivateKey: SealedValue(keyID: privateKeyKeyId, combined: privateKeySealed),
            createdAt: Date(millisecondsSince1970: createdAt), retiredAt: retiredAt.date
        )
    }
}
