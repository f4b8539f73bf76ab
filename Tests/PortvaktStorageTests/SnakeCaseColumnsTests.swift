@testable import PortvaktStorage
import SQLKit
import Testing

/// The store's own property-to-column conversion (cached once per name) names columns exactly as
/// SQLKit's snake-case strategy would, runs of capitals and digits included.
@Suite("Column names of Codable properties")
struct SnakeCaseColumnsTests {
    private struct Probe: Encodable {
        var id = 1
        var absoluteExpiresAt = 1
        var userID = 1
        var dpopJkt = 1
        var publicKeyJwk = 1
        var sha256Hash = 1
        var parseURLValue = 1
        var prevHash = 1
        var a = 1
    }

    @Test("Issue 24: the cached conversion agrees with SQLKit's convertToSnakeCase")
    func agreesWithSQLKit() throws {
        let expected = try SQLQueryEncoder(keyEncodingStrategy: .convertToSnakeCase).encode(Probe()).map(\.0)
        let ours = try SQLQueryEncoder(keyEncodingStrategy: SnakeCaseColumns.encoding).encode(Probe()).map(\.0)
        #expect(ours == expected)
        #expect(expected.contains("absolute_expires_at") && expected.contains("sha256_hash") && expected.count == 9)
    }
}
