import Foundation
import Testing
import PortvaktTestSupport
@testable import WebAuthn

/// Registrations and assertions checked as WebAuthn Level 3 says, against ceremonies
/// recorded from Chromium's virtual authenticator and made by a software authenticator.
@Suite("WebAuthn ceremonies")
struct CeremonyTests {
    let recorded = RelyingParty(id: "localhost", origin: RecordedVectors.origin)

    static func bytes(_ base64URL: String) -> [UInt8] { RelyingParty.base64URLDecode(base64URL)! }

    @Test(arguments: RecordedVectors.all)
    func aRecordedRegistrationAndSignInVerify(ceremony: RecordedCeremony) throws {
        let registration = try recorded.verifyRegistration(
            clientDataJSON: Self.bytes(ceremony.clientDataJSON), attestationObject: Self.bytes(ceremony.attestationObject),
            challenge: Array("registration-challenge-\(ceremony.name)-0123456789".utf8)
        )
        #expect(registration.credentialID == Self.bytes(ceremony.credentialID))
        #expect(registration.algorithm == ["es256": .es256, "eddsa": .edDSA, "rs256": .rs256][ceremony.name])
        let stored = RelyingParty.StoredCredential(publicKeyCOSE: registration.publicKeyCOSE, signCount: registration.signCount, backupEligible: registration.backupEligible)
        let assertion = try recorded.verifyAssertion(
            clientDataJSON: Self.bytes(ceremony.assertionClientDataJSON), authenticatorData: Self.bytes(ceremony.authenticatorData),
            signature: Self.bytes(ceremony.signature), challenge: Array("assertion-challenge-\(ceremony.name)-0123456789".utf8), credential: stored
        )
        #expect(assertion.signCount > registration.signCount)

        // The same assertion once the counter has moved past it: a cloned credential, refused.
        let moved = RelyingParty.StoredCredential(publicKeyCOSE: registration.publicKeyCOSE, signCount: assertion.signCount, backupEligible: registration.backupEligible)
        #expect(throws: WebAuthnError.counterWentBackwards) {
            try recorded.verifyAssertion(
                clientDataJSON: Self.bytes(ceremony.assertionClientDataJSON), authenticatorData: Self.bytes(ceremony.authenticatorData),
                signature: Self.bytes(ceremony.signature), challenge: Array("assertion-challenge-\(ceremony.name)-0123456789".utf8), credential: moved
            )
        }
    }

    @Test func anotherOriginAChallengeOrAnRPIDNotOursIsRefused() throws {
        let ceremony = RecordedVectors.all[0]
        let clientData = Self.bytes(ceremony.clientDataJSON), object = Self.bytes(ceremony.attestationObject)
        let challenge = Array("registration-challenge-es256-0123456789".utf8)
        #expect(throws: WebAuthnError.originMismatch) {
            try RelyingParty(id: "localhost", origin: "http://localhost:8080").verifyRegistration(clientDataJSON: clientData, attestationObject: object, challenge: challenge)
        }
        #expect(throws: WebAuthnError.challengeMismatch) {
            try recorded.verifyRegistration(clientDataJSON: clientData, attestationObject: object, challenge: Array("registration-challenge-es256-0123456780".utf8))
        }
        #expect(throws: WebAuthnError.relyingPartyMismatch) {
            try RelyingParty(id: "login.example.no", origin: RecordedVectors.origin).verifyRegistration(clientDataJSON: clientData, attestationObject: object, challenge: challenge)
        }
        // An assertion's client data where a registration's belongs.
        #expect(throws: WebAuthnError.wrongType) {
            try recorded.verifyRegistration(clientDataJSON: Self.bytes(ceremony.assertionClientDataJSON), attestationObject: object, challenge: challenge)
        }
    }

    @Test func aSignatureThatIsNotTheKeysIsRefused() throws {
        let ceremony = RecordedVectors.all[0]
        let registration = try recorded.verifyRegistration(
            clientDataJSON: Self.bytes(ceremony.clientDataJSON), attestationObject: Self.bytes(ceremony.attestationObject),
            challenge: Array("registration-challenge-es256-0123456789".utf8)
        )
        var authData = Self.bytes(ceremony.authenticatorData)
        authData[36] &+= 1
        #expect(throws: WebAuthnError.badSignature) {
            try recorded.verifyAssertion(
                clientDataJSON: Self.bytes(ceremony.assertionClientDataJSON), authenticatorData: authData, signature: Self.bytes(ceremony.signature),
                challenge: Array("assertion-challenge-es256-0123456789".utf8),
                credential: .init(publicKeyCOSE: registration.publicKeyCOSE, signCount: 0, backupEligible: registration.backupEligible)
            )
        }
    }

    let party = RelyingParty(id: "localhost", origin: "http://localhost:8080")
    let challenge = Array("a-challenge-of-thirty-two-bytes!".utf8)

    @Test func packedSelfAttestationIsAcceptedAndACertificateChainIsNot() throws {
        let authenticator = SoftwareAuthenticator(rpID: "localhost")
        let packed = authenticator.register(challenge: challenge, origin: party.origin, packed: true)
        let registration = try party.verifyRegistration(clientDataJSON: packed.clientData, attestationObject: packed.attestation, challenge: challenge)
        #expect(registration.credentialID == authenticator.credentialID && registration.algorithm == .es256)
        let chained = authenticator.register(challenge: challenge, origin: party.origin, packed: true, certificate: true)
        #expect(throws: WebAuthnError.unsupportedAttestation("packed with a certificate")) {
            try party.verifyRegistration(clientDataJSON: chained.clientData, attestationObject: chained.attestation, challenge: challenge)
        }
        let forged = SoftwareAuthenticator(rpID: "localhost").register(challenge: challenge, origin: party.origin, packed: true)
        // The statement of one key with the authenticator data of another.
        let object = try CBORDecoder.decodeOnly(forged.attestation)
        let mixed = CBOREncoding.encode(.map([
            (.text("fmt"), .text("packed")), (.text("attStmt"), object[text: "attStmt"]!),
            (.text("authData"), .bytes(authenticator.authenticatorData(flags: SoftwareAuthenticator.up | SoftwareAuthenticator.uv, counter: 0, attested: true))),
        ]))
        #expect(throws: WebAuthnError.badSignature) {
            try party.verifyRegistration(clientDataJSON: forged.clientData, attestationObject: mixed, challenge: challenge)
        }
    }

    @Test func withoutUserVerificationOrPresenceNothingIsAccepted() throws {
        let authenticator = SoftwareAuthenticator(rpID: "localhost")
        let unverified = authenticator.register(challenge: challenge, origin: party.origin, flags: SoftwareAuthenticator.up)
        #expect(throws: WebAuthnError.userNotVerified) {
            try party.verifyRegistration(clientDataJSON: unverified.clientData, attestationObject: unverified.attestation, challenge: challenge)
        }
        let registered = authenticator.register(challenge: challenge, origin: party.origin)
        let registration = try party.verifyRegistration(clientDataJSON: registered.clientData, attestationObject: registered.attestation, challenge: challenge)
        let stored = RelyingParty.StoredCredential(publicKeyCOSE: registration.publicKeyCOSE, signCount: 0, backupEligible: false)
        for (flags, refusal) in [(SoftwareAuthenticator.up, WebAuthnError.userNotVerified), (SoftwareAuthenticator.uv, .userNotPresent)] {
            let assertion = authenticator.assert(challenge: challenge, origin: party.origin, flags: flags)
            #expect(throws: refusal) {
                try party.verifyAssertion(clientDataJSON: assertion.clientData, authenticatorData: assertion.authData, signature: assertion.signature, challenge: challenge, credential: stored)
            }
        }
    }

    @Test func backupFlagsAndCountersAreHandledAsTheSpecificationSays() throws {
        let authenticator = SoftwareAuthenticator(rpID: "localhost")
        let (up, uv, be, bs) = (SoftwareAuthenticator.up, SoftwareAuthenticator.uv, SoftwareAuthenticator.be, SoftwareAuthenticator.bs)
        let backedUpOnly = authenticator.register(challenge: challenge, origin: party.origin, flags: up | uv | bs)
        #expect(throws: WebAuthnError.backupFlags, "backed up but not eligible cannot be") {
            try party.verifyRegistration(clientDataJSON: backedUpOnly.clientData, attestationObject: backedUpOnly.attestation, challenge: challenge)
        }
        let synced = authenticator.register(challenge: challenge, origin: party.origin, flags: up | uv | be)
        let registration = try party.verifyRegistration(clientDataJSON: synced.clientData, attestationObject: synced.attestation, challenge: challenge)
        #expect(registration.backupEligible && !registration.backedUp)
        let stored = RelyingParty.StoredCredential(publicKeyCOSE: registration.publicKeyCOSE, signCount: 0, backupEligible: true)
        // A synced passkey counts nothing (0 stays 0) and may be backed up later.
        let later = authenticator.assert(challenge: challenge, origin: party.origin, flags: up | uv | be | bs, counter: 0)
        let accepted = try party.verifyAssertion(clientDataJSON: later.clientData, authenticatorData: later.authData, signature: later.signature, challenge: challenge, credential: stored)
        #expect(accepted.backedUp && accepted.signCount == 0)
        // Eligibility never changes for a credential.
        let notEligible = authenticator.assert(challenge: challenge, origin: party.origin, flags: up | uv, counter: 0)
        #expect(throws: WebAuthnError.backupFlags) {
            try party.verifyAssertion(clientDataJSON: notEligible.clientData, authenticatorData: notEligible.authData, signature: notEligible.signature, challenge: challenge, credential: stored)
        }
        // A counting authenticator: 7 after 7 is a clone.
        let counting = RelyingParty.StoredCredential(publicKeyCOSE: registration.publicKeyCOSE, signCount: 7, backupEligible: true)
        let same = authenticator.assert(challenge: challenge, origin: party.origin, flags: up | uv | be, counter: 7)
        #expect(throws: WebAuthnError.counterWentBackwards) {
            try party.verifyAssertion(clientDataJSON: same.clientData, authenticatorData: same.authData, signature: same.signature, challenge: challenge, credential: counting)
        }
        let wrongParty = authenticator.assert(challenge: challenge, origin: party.origin, flags: up | uv | be, counter: 8, rpID: "evil.example")
        #expect(throws: WebAuthnError.relyingPartyMismatch) {
            try party.verifyAssertion(clientDataJSON: wrongParty.clientData, authenticatorData: wrongParty.authData, signature: wrongParty.signature, challenge: challenge, credential: counting)
        }
    }

    @Test func theRPIDIsTheHostOfThePublicURLAndNeverAnIPAddress() {
        let dev = RelyingParty(publicURL: "http://localhost:8080")
        #expect(dev?.id == "localhost" && dev?.origin == "http://localhost:8080")
        let production = RelyingParty(publicURL: "https://Login.Example.no")
        #expect(production?.id == "login.example.no" && production?.origin == "https://login.example.no")
        #expect(RelyingParty(publicURL: "http://127.0.0.1:8080") == nil)
        #expect(RelyingParty(publicURL: "http://[::1]:8080") == nil)
        #expect(RelyingParty(publicURL: "https://login.example.no:443")?.origin == "https://login.example.no", "as a browser writes it")
        #expect(RelyingParty(publicURL: "http://login.example.no") == nil, "plain http only on localhost")
    }
}

extension RecordedCeremony: CustomTestStringConvertible {
    var testDescription: String { name }
}
