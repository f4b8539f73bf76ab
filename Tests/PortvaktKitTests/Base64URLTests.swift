import Foundation
import PortvaktProtocol
import Testing

@Suite("Base64url")
struct Base64URLTests {
    @Test("Every length round-trips, with the URL alphabet and no padding, as RFC 4648 §5 defines it")
    func roundTrip() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...66 {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let encoded = bytes.base64URLEncoded()
            let expected = bytes.base64EncodedString().map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }.filter { $0 != "=" }
            #expect(encoded == String(expected))
            #expect(Data(base64URLEncoded: encoded) == bytes)
        }
        // 0xfb 0xff: both characters that differ between the alphabets.
        #expect(Data([0xfb, 0xff, 0xbf]).base64URLEncoded() == "-_-_")
        #expect(Data(base64URLEncoded: "-_-_") == Data([0xfb, 0xff, 0xbf]))
    }

    @Test("Padding is optional; what is not base64 at all is nil")
    func decoding() {
        #expect(Data(base64URLEncoded: "YQ") == Data("a".utf8))
        #expect(Data(base64URLEncoded: "YQ==") == Data("a".utf8))
        #expect(Data(base64URLEncoded: "") == Data())
        for hostile in ["Y", "Y$Q", "a b", "é"] {
            #expect(Data(base64URLEncoded: hostile) == nil, "\(hostile)")
        }
    }
}
