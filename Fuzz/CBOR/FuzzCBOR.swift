// libFuzzer entry for the WebAuthn CBOR decoder (scripts/fuzz-cbor.sh): whatever the bytes, the
// decoder returns an item or a failure, within its limits, and what it decodes re-decodes the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    var decoder = CBORDecoder(bytes)
    if let item = try? decoder.decodeItem() {
        precondition(decoder.offset <= bytes.count)
        let again = try? CBORDecoder.decodeOnly(Array(bytes[0..<decoder.offset]))
        precondition(again == item, "a decoded prefix decodes to the same item")
    }
    return 0
}
