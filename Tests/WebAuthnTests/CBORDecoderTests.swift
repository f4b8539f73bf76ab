import Testing
import PortvaktTestSupport
@testable import WebAuthn

/// The CBOR decoder refuses what is not strict, definite CBOR within its limits.
@Suite("CBOR decoder")
struct CBORDecoderTests {
    @Test func itemsDecodeAsEncoded() throws {
        let item = CBOR.map([
            (.text("fmt"), .text("none")), (CBOREncoding.int(-7), .bytes([1, 2, 3])), (CBOREncoding.int(1000), .array([.bool(true), .null, CBOREncoding.int(-300)])),
        ])
        #expect(try CBORDecoder.decodeOnly(CBOREncoding.encode(item)) == item)
        #expect(try CBORDecoder.decodeOnly([0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) == .unsigned(.max))
    }

    @Test func hostileInputIsRefusedWithoutCrashing() {
        let nested = [UInt8](repeating: 0x81, count: 100) + [0x00]
        #expect(throws: CBORDecoder.Failure.tooDeep) { try CBORDecoder.decodeOnly(nested) }
        let wide = CBOREncoding.head(4, 600) + [UInt8](repeating: 0x00, count: 600)
        #expect(throws: CBORDecoder.Failure.tooManyItems) { try CBORDecoder.decodeOnly(wide) }
        #expect(throws: CBORDecoder.Failure.truncated) { try CBORDecoder.decodeOnly([0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) }
        #expect(throws: CBORDecoder.Failure.truncated) { try CBORDecoder.decodeOnly([0x9b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) }
        #expect(throws: CBORDecoder.Failure.unsupported("additional information 31")) { try CBORDecoder.decodeOnly([0x9f, 0x00, 0xff]) }
        #expect(throws: CBORDecoder.Failure.unsupported("tag")) { try CBORDecoder.decodeOnly([0xc0, 0x00]) }
        #expect(throws: CBORDecoder.Failure.unsupported("simple value or float 27")) { try CBORDecoder.decodeOnly([0xfb, 0, 0, 0, 0, 0, 0, 0, 0]) }
        #expect(throws: CBORDecoder.Failure.duplicateKey) { try CBORDecoder.decodeOnly([0xa2, 0x01, 0x00, 0x01, 0x00]) }
        #expect(throws: CBORDecoder.Failure.unsupported("map key")) { try CBORDecoder.decodeOnly([0xa1, 0x40, 0x00]) }
        #expect(throws: CBORDecoder.Failure.invalidText) { try CBORDecoder.decodeOnly([0x62, 0xc3, 0x28]) }
        #expect(throws: CBORDecoder.Failure.trailingBytes) { try CBORDecoder.decodeOnly([0x00, 0x00]) }
        #expect(throws: CBORDecoder.Failure.truncated) { try CBORDecoder.decodeOnly([]) }
    }

    @Test func authenticatorDataWithLengthsThatDoNotAddUpIsMalformed() {
        let authenticator = SoftwareAuthenticator(rpID: "localhost")
        var data = authenticator.authenticatorData(flags: 0x45, counter: 0, attested: true)
        #expect(throws: WebAuthnError.malformed("bytes after the authenticator data")) { try AuthenticatorData(data + [0x00]) }
        data[53] = 0xff
        #expect(throws: WebAuthn.WebAuthnError.self) { try AuthenticatorData(data) }
        #expect(throws: WebAuthnError.malformed("authenticator data shorter than 37 bytes")) { try AuthenticatorData(Array(data.prefix(36))) }
    }
}
