import Foundation
import Personnummer
import Testing
@testable import PortvaktCore

@Suite("Personnummer vault")
struct PersonnummerVaultTests {
    let number = try! Personnummer("15058600048")

    @Test("Sealed personnummer open for their own record only")
    func sealAndOpen() throws {
        let vault = try TestKeys.vault()
        let sealed = try vault.seal(number, record: "member:1")
        #expect(!String(decoding: sealed.combined, as: UTF8.self).contains("15058600048"))
        #expect(try vault.open(sealed, record: "member:1") == number)
        #expect(throws: FieldCipherError.self) { try vault.open(sealed, record: "member:2") }
    }

    @Test("The blind index is stable, keyed, and differs per number")
    func blindIndex() throws {
        let vault = try TestKeys.vault()
        let other = try Personnummer("15058601508")
        #expect(vault.blindIndex(number) == vault.blindIndex(number))
        #expect(vault.blindIndex(number) != vault.blindIndex(other))
        #expect(vault.blindIndex(number).count == 64)
        #expect(!vault.blindIndex(number).contains("15058600048"))
        let otherKey = try PersonnummerVault(cipher: vault.cipher, indexKey: Data(repeating: 8, count: 32))
        #expect(otherKey.blindIndex(number) != vault.blindIndex(number))
    }

    @Test("A short index key is refused")
    func shortIndexKey() throws {
        let vault = try TestKeys.vault()
        #expect(throws: ConfigurationError.self) { try PersonnummerVault(cipher: vault.cipher, indexKey: Data(repeating: 1, count: 16)) }
    }
}
