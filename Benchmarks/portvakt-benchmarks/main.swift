// Prints throughput figures for BENCHMARKS.md. Run in release mode:
//   swift run -c release portvakt-benchmarks
import Crypto
import Foundation
import Personnummer
import PortvaktCore
import QRCode

/// Valid numbers across the centuries, built once, so the loop measures validation only.
func sampleNumbers(count: Int) -> [String] {
    var numbers: [String] = []
    var seed: UInt64 = 42
    func next(_ range: ClosedRange<Int>) -> Int {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return range.lowerBound + Int((seed >> 33) % UInt64(range.count))
    }
    while numbers.count < count {
        let year = next(1900...2025), month = next(1...12), day = next(1...28)
        let individual = year < 2000 ? next(0...499) : next(500...999)
        var digits = [day / 10, day % 10, month / 10, month % 10, (year % 100) / 10, year % 10,
                      individual / 100, (individual / 10) % 10, individual % 10]
        for weights in [[3, 7, 6, 1, 8, 9, 4, 5, 2], [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]] {
            let k = 11 - zip(digits, weights).map(*).reduce(0, +) % 11
            digits.append(k == 11 ? 0 : k)
        }
        if !digits.contains(10) { numbers.append(digits.map(String.init).joined()) }
    }
    return numbers
}

func measure(_ name: String, operations: Int, _ body: () throws -> Int) rethrows {
    let clock = ContinuousClock()
    var checksum = 0
    let elapsed = try clock.measure { checksum = try body() }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let perSecond = Double(operations) / seconds
    print(String(format: "%-52@ %12.0f ops/s  %9.2f µs/op  (%d ops in %.3f s, checksum %d)",
                 name as NSString, perSecond, 1e6 / perSecond, operations, seconds, checksum))
}

let numbers = sampleNumbers(count: 10_000)
let today = CalendarDate.today()
let rounds = 100

measure("Personnummer parse + validate (valid)", operations: numbers.count * rounds) {
    var valid = 0
    for _ in 0..<rounds {
        for text in numbers where (try? Personnummer(text, today: today)) != nil { valid += 1 }
    }
    return valid
}

let typos = numbers.map { String($0.prefix(10)) + String((Int(String($0.last!))! + 1) % 10) }
measure("Personnummer parse + validate (bad k2)", operations: typos.count * rounds) {
    var invalid = 0
    for _ in 0..<rounds {
        for text in typos where (try? Personnummer(text, today: today)) == nil { invalid += 1 }
    }
    return invalid
}

let keys = DataProtectionKeys.generateText()
let vault = try DataProtectionKeys(encryptionKeys: keys.encryptionKeys, indexKey: keys.indexKey, encryptionSetting: "-", indexSetting: "-").vault
let parsed = numbers.prefix(2_000).map { try! Personnummer($0, today: today) }

measure("Blind index (HMAC-SHA256)", operations: parsed.count * 10) {
    var total = 0
    for _ in 0..<10 { for number in parsed { total &+= vault.blindIndex(number).utf8.count } }
    return total
}

try measure("Seal + open (AES-256-GCM)", operations: parsed.count * 10) {
    var total = 0
    for _ in 0..<10 {
        for number in parsed {
            let sealed = try vault.seal(number, record: "member:1")
            total &+= try vault.open(sealed, record: "member:1").digits.count
        }
    }
    return total
}

// One frame of the animated BankID QR code as the other-device page gets it: the HMAC payload,
// the QR encoding (version 7, all eight masks scored) and the SVG.
let qrStartToken = "67df3917-fa0d-44e5-b327-edcc928297f8"
let qrStartSecret = "d28db9a7-4cde-429e-a983-359be676944c"
try measure("BankID QR frame (payload + encode + SVG)", operations: 2_000) {
    var total = 0
    for second in 0..<2_000 {
        let text = BankIDQRCode.frame(qrStartToken: qrStartToken, qrStartSecret: qrStartSecret, seconds: second)
        total &+= try QRCode(text: text).svg(escapedLabel: "QR").utf8.count
    }
    return total
}
try measure("BankID QR frame (payload + encode, no rendering)", operations: 2_000) {
    var total = 0
    for second in 0..<2_000 {
        total &+= try QRCode(text: BankIDQRCode.frame(qrStartToken: qrStartToken, qrStartSecret: qrStartSecret, seconds: second)).mask
    }
    return total
}

// DPoP (issue 22): what a client pays to sign a proof and the server to parse and verify one,
// and the parts of the latter.
let proofKey = P256.Signing.PrivateKey()
let proofPublicKey = DevicePublicKey(proofKey.publicKey)
let proofs = (0..<2_000).map { _ in
    try! DPoPProof(key: proofPublicKey, method: "POST", url: "https://login.example.no/oauth/token", issuedAt: Date(), nonce: "AAAAAAAGAQ4ss7aGqT2X5yPCXdrWd4a1Ri8")
        .compact(signedBy: proofKey)
}
measure("DPoP proof: sign (client)", operations: 2_000) {
    (0..<2_000).reduce(0) { sum, _ in
        sum + (try! DPoPProof(key: proofPublicKey, method: "POST", url: "https://login.example.no/oauth/token", issuedAt: Date())
            .compact(signedBy: proofKey)).utf8.count
    }
}
measure("DPoP proof: parse + verify (server)", operations: proofs.count) {
    proofs.reduce(0) { sum, proof in sum + (try! DPoPProof(compact: proof)).iat % 2 }
}
let signedInput = Data("header.claims".utf8)
let signature = try! proofKey.signature(for: signedInput)
measure("  of which ECDSA P-256 verify", operations: 2_000) {
    (0..<2_000).reduce(0) { sum, _ in sum + (proofPublicKey.verifyingKey.isValidSignature(signature, for: signedInput) ? 1 : 0) }
}
measure("  of which the jwk → P-256 key", operations: 2_000) {
    (0..<2_000).reduce(0) { sum, _ in sum + (try! DevicePublicKey(jwk: proofPublicKey.jwk)).x.count }
}
measure("  of which the RFC 7638 thumbprint", operations: 2_000) {
    (0..<2_000).reduce(0) { sum, _ in sum + proofPublicKey.thumbprint.count }
}
measure("  htu without query and fragment (URLComponents)", operations: 2_000) {
    (0..<2_000).reduce(0) { sum, _ in sum + DPoPProof.withoutQueryAndFragment("https://login.example.no/oauth/token").count }
}
