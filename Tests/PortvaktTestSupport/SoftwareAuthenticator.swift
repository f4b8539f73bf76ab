import Crypto
import Foundation
import PortvaktProtocol
import WebAuthn

/// A P-256 authenticator in the test: makes registrations and assertions with chosen flags,
/// counters and client data, signed for real, for the cases a browser's authenticator will not
/// produce on request (UV off, backup flags, a counter that goes back, packed self-attestation).
public struct SoftwareAuthenticator: Sendable {
    public let key: P256.Signing.PrivateKey
    public let credentialID: [UInt8]
    public let rpID: String

    public init(rpID: String) {
        self.rpID = rpID
        key = P256.Signing.PrivateKey()
        credentialID = (0..<16).map { _ in UInt8.random(in: 0...255) }
    }

    public static let up: UInt8 = 0x01, uv: UInt8 = 0x04, be: UInt8 = 0x08, bs: UInt8 = 0x10, at: UInt8 = 0x40

    public var coseKey: [UInt8] {
        let raw = Array(key.publicKey.x963Representation)
        return CBOREncoding.encode(.map([
            (CBOREncoding.int(1), CBOREncoding.int(2)), (CBOREncoding.int(3), CBOREncoding.int(-7)), (CBOREncoding.int(-1), CBOREncoding.int(1)),
            (CBOREncoding.int(-2), .bytes(Array(raw[1..<33]))), (CBOREncoding.int(-3), .bytes(Array(raw[33..<65]))),
        ]))
    }

    public func authenticatorData(flags: UInt8, counter: UInt32, attested: Bool, rpID: String? = nil) -> [UInt8] {
        var data = Array(SHA256.hash(data: Data((rpID ?? self.rpID).utf8)))
        data.append(flags | (attested ? Self.at : 0))
        data += (0..<4).reversed().map { UInt8(counter >> ($0 * 8) & 0xff) }
        if attested {
            data += [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)] + credentialID + coseKey
        }
        return data
    }

    public static func clientData(type: String, challenge: [UInt8], origin: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(Data(challenge).base64URLEncoded())","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    /// A registration: client data and attestation object (`none`, or `packed` self-attestation).
    public func register(challenge: [UInt8], origin: String, flags: UInt8 = up | uv, packed: Bool = false, certificate: Bool = false) -> (clientData: [UInt8], attestation: [UInt8]) {
        let clientData = Self.clientData(type: "webauthn.create", challenge: challenge, origin: origin)
        let authData = authenticatorData(flags: flags, counter: 0, attested: true)
        var statement = CBOR.map([])
        if packed {
            let signature = try! key.signature(for: authData + SHA256.hash(data: clientData)).derRepresentation
            var pairs: [(CBOR, CBOR)] = [(.text("alg"), CBOREncoding.int(-7)), (.text("sig"), .bytes(Array(signature)))]
            if certificate { pairs.append((.text("x5c"), .array([.bytes([0x30, 0x00])]))) }
            statement = .map(pairs)
        }
        let object = CBOR.map([(.text("fmt"), .text(packed ? "packed" : "none")), (.text("attStmt"), statement), (.text("authData"), .bytes(authData))])
        return (clientData, CBOREncoding.encode(object))
    }

    public func assert(challenge: [UInt8], origin: String, flags: UInt8 = up | uv, counter: UInt32 = 1, rpID: String? = nil) -> (clientData: [UInt8], authData: [UInt8], signature: [UInt8]) {
        let clientData = Self.clientData(type: "webauthn.get", challenge: challenge, origin: origin)
        let authData = authenticatorData(flags: flags, counter: counter, attested: false, rpID: rpID)
        let signature = try! key.signature(for: authData + SHA256.hash(data: clientData)).derRepresentation
        return (clientData, authData, Array(signature))
    }
}
