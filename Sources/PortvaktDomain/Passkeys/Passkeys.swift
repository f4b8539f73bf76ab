import Crypto
import Foundation
import Logging
import PortvaktCore
import PortvaktModels
import WebAuthn

/// Passkeys on the web (S18): registration in My account after a fresh BankID or Vipps login,
/// sign-in and step-up by an assertion with user verification, removal. Each ceremony's
/// challenge is stored bound to what started it (the login's flow, or the portal session) and
/// used up before anything is verified, so an answer counts once, on any instance.
public struct Passkeys: Sendable {
    let store: any PasskeyStore
    let mailer: Mailer
    let trust: DeviceTrust
    /// The relying party follows the public URL, known only once the server listens.
    let address: PublicAddress
    let logger: Logger
    let now: @Sendable () -> Date

    public static let challengeLifetime: TimeInterval = 300
    public static let maximumNameLength = 60
    public static let maximumPerUser = 20

    public init(
        store: any PasskeyStore, mailer: Mailer, trust: DeviceTrust, address: PublicAddress, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.mailer = mailer
        self.trust = trust
        self.address = address
        self.logger = logger
        self.now = now
    }

    /// Whether passkeys work here: the public URL names a domain (never an IP address).
    public var available: Bool { address.relyingParty != nil }

    public func list(userID: String) async throws -> [Passkey] {
        try await store.passkeys(userID: userID)
    }

    // MARK: - Registration (S18.1)

    /// Options for `navigator.credentials.create`, for `actor` (policy ``SensitiveAction/passkeyRegister``),
    /// once the name it will have is known to be one it may have (so the browser makes no passkey
    /// the server would then refuse).
    public func registrationOptions(for actor: Actor, name: String, binding: String) async throws -> PasskeyCreationOptions {
        guard actor.satisfies(.passkeyRegister, at: now()) else { throw PasskeyRefusal.stepUpRequired }
        guard Self.isAcceptableName(name) else { throw PasskeyRefusal.invalidName }
        guard try await store.passkeys(userID: actor.userID).count < Self.maximumPerUser else { throw PasskeyRefusal.tooMany }
        guard let party = address.relyingParty else { throw PasskeyRefusal.notVerified(.relyingPartyMismatch) }
        guard let user = try await store.user(id: actor.userID) else { throw PasskeyRefusal.unknownCredential }
        let existing = try await store.passkeys(userID: user.id)
        let challenge = try await issueChallenge(binding: binding, purpose: "register", userID: user.id)
        return PasskeyCreationOptions(
            rp: .init(id: party.id, name: "Portvakt"),
            user: .init(id: Data(user.id.utf8).base64URLEncoded(), name: user.email ?? user.displayName, displayName: user.displayName),
            challenge: challenge,
            pubKeyCredParams: COSEKey.Algorithm.allCases.map { .init(alg: $0.rawValue) },
            excludeCredentials: existing.map { .init(id: $0.credentialId.base64URLEncoded()) }
        )
    }

    /// Checks and stores the registration the browser made for `actor`'s challenge; audits it
    /// and tells the member by email.
    public func register(_ response: PasskeyRegistrationResponse, for actor: Actor, binding: String, source: String) async throws -> Passkey {
        let name = response.name.trimmingCharacters(in: .whitespacesAndNewlines)
        let now = self.now()
        // The policy first, so a caller without the step-up learns nothing else.
        guard actor.satisfies(.passkeyRegister, at: now) else { throw PasskeyRefusal.stepUpRequired }
        guard Self.isAcceptableName(name) else { throw PasskeyRefusal.invalidName }
        guard let challenge = try await store.takeWebAuthnChallenge(bindingHash: Self.hash(binding), now: now),
              challenge.purpose == "register", challenge.userId == actor.userID
        else { throw PasskeyRefusal.expired }
        guard let party = address.relyingParty, let clientData = RelyingParty.base64URLDecode(response.clientDataJSON),
              let attestation = RelyingParty.base64URLDecode(response.attestationObject)
        else { throw await refuse(.notVerified(.malformed("base64url")), userID: actor.userID, source: source) }
        let registration: RelyingParty.Registration
        do {
            registration = try party.verifyRegistration(clientDataJSON: clientData, attestationObject: attestation, challenge: Array(challenge.challenge))
        } catch {
            throw await refuse(.notVerified(error), userID: actor.userID, source: source)
        }
        let passkey = Passkey(
            id: UUID().uuidString.lowercased(), userId: actor.userID, credentialId: Data(registration.credentialID), userHandle: Data(actor.userID.utf8),
            publicKey: Data(registration.publicKeyCOSE), algorithm: registration.algorithm.rawValue, signCount: Int64(registration.signCount),
            backupEligible: registration.backupEligible, backedUp: registration.backedUp, aaguid: Data(registration.aaguid), name: name,
            createdAt: now.millisecondsSince1970
        )
        let audit = AuditEvent(
            occurredAt: now, action: .passkeyRegistered, outcome: "success", actorUserID: UUID(uuidString: actor.userID),
            subjectType: "passkey", subjectID: passkey.id, source: source, details: ["algorithm": "\(registration.algorithm.rawValue)"]
        )
        guard try await store.insertPasskey(passkey, limit: Self.maximumPerUser, audit: audit) else {
            throw try await store.passkeys(userID: actor.userID).count >= Self.maximumPerUser ? PasskeyRefusal.tooMany : PasskeyRefusal.alreadyRegistered
        }
        logger.info("Passkey registered", metadata: ["user": "\(actor.userID)", "passkey": "\(passkey.id)"])
        let user = try await store.user(id: actor.userID)
        await mailer.notify(.passkeyAdded(name: name), to: user?.email, logger: logger)
        return passkey
    }

    /// Removes one of the user's passkeys and ends every session its sign-ins opened (the app's,
    /// with their refresh tokens, and the portal's): what the "copied passkey" message tells people
    /// to do must lock the copy out. Nil when they have no passkey with that ID.
    public func remove(id: String, userID: String, source: String) async throws -> PasskeyRemoval? {
        guard id.utf8.count <= 64 else { return nil }
        let now = self.now()
        let audit = AuditEvent(
            occurredAt: now, action: .passkeyRemoved, outcome: "success", actorUserID: UUID(uuidString: userID),
            subjectType: "passkey", subjectID: id, source: source
        )
        guard let removal = try await store.deletePasskey(id: id, userID: userID, audit: audit, now: now) else { return nil }
        logger.info("Passkey removed", metadata: ["user": "\(userID)", "passkey": "\(id)", "sessions_ended": "\(removal.endedSessionIDs.count)"])
        return removal
    }

    // MARK: - Sign-in and step-up (S18.2, S18.3)

    /// Options for `navigator.credentials.get` with discoverable credentials, for a login's flow.
    public func signInOptions(binding: String) async throws -> PasskeyRequestOptions {
        guard let party = address.relyingParty else { throw PasskeyRefusal.notVerified(.relyingPartyMismatch) }
        let challenge = try await issueChallenge(binding: binding, purpose: "sign_in", userID: nil)
        return PasskeyRequestOptions(challenge: challenge, rpId: party.id)
    }

    /// The account whose passkey answered the flow's challenge, and the passkey: the challenge
    /// used up first, the signature, flags and counter checked, the use recorded. The account may
    /// be disabled: ``LoginCompletion/succeed(_:user:method:personnummer:)`` refuses it then.
    public func signIn(_ response: PasskeyAssertionResponse, binding: String, source: String) async throws -> (user: User, passkey: Passkey) {
        let now = self.now()
        guard let challenge = try await store.takeWebAuthnChallenge(bindingHash: Self.hash(binding), now: now), challenge.purpose == "sign_in"
        else { throw PasskeyRefusal.expired }
        guard let party = address.relyingParty, let credentialID = RelyingParty.base64URLDecode(response.credentialID), credentialID.count <= 1023,
              let clientData = RelyingParty.base64URLDecode(response.clientDataJSON), let data = RelyingParty.base64URLDecode(response.authenticatorData),
              let signature = RelyingParty.base64URLDecode(response.signature), let handle = RelyingParty.base64URLDecode(response.userHandle)
        else { throw await refuse(.notVerified(.malformed("base64url")), userID: nil, source: source) }
        guard let passkey = try await store.passkey(credentialID: Data(credentialID)), Data(handle) == passkey.userHandle
        else { throw await refuse(.unknownCredential, userID: nil, source: source) }
        // A disabled account's passkey is checked as any other; the login's end refuses it with
        // the words every way in uses (LoginCompletion, issue 45 item 5).
        guard let user = try await store.user(id: passkey.userId)
        else { throw await refuse(.unknownCredential, userID: passkey.userId, passkeyID: passkey.id, source: source) }
        let assertion: RelyingParty.Assertion
        do {
            assertion = try party.verifyAssertion(
                clientDataJSON: clientData, authenticatorData: data, signature: signature, challenge: Array(challenge.challenge),
                credential: .init(publicKeyCOSE: Array(passkey.publicKey), signCount: UInt32(clamping: passkey.signCount), backupEligible: passkey.isBackupEligible)
            )
        } catch .counterWentBackwards {
            throw await refuse(.cloned, userID: passkey.userId, passkeyID: passkey.id, source: source)
        } catch {
            throw await refuse(.notVerified(error), userID: passkey.userId, passkeyID: passkey.id, source: source)
        }
        switch try await store.recordPasskeyUse(id: passkey.id, signCount: Int64(assertion.signCount), backedUp: assertion.backedUp, now: now) {
        case .recorded: return (user, passkey)
        case .counterBehind: throw await refuse(.cloned, userID: passkey.userId, passkeyID: passkey.id, source: source)
        case .gone: throw await refuse(.unknownCredential, userID: passkey.userId, passkeyID: passkey.id, source: source)
        }
    }

    /// How a passkey sign-in is recorded: `amr` by whether the key may be synced, an `acr`
    /// that confirms administrators' actions only while the person's BankID or Vipps trust lasts
    /// (a passkey never outlives the identity check it was added after), and the passkey, whose
    /// removal ends the session.
    public func loginMethod(user: User, passkey: Passkey) -> LoginCompletion.Method {
        let acr = trust.isTrusted(user, at: now()) ? Authentication.passkeyACR : Authentication.passkeyUntrustedACR
        return LoginCompletion.Method(
            provider: .passkey, amr: Authentication.passkeyAMR(synced: passkey.isBackupEligible), acr: acr, passkeyID: passkey.id
        )
    }

    // MARK: -

    private func issueChallenge(binding: String, purpose: String, userID: String?) async throws -> String {
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
        let now = self.now()
        try await store.putWebAuthnChallenge(WebAuthnChallenge(
            bindingHash: Self.hash(binding), purpose: purpose, userId: userID, challenge: Data(bytes),
            createdAt: now.millisecondsSince1970, expiresAt: now.addingTimeInterval(Self.challengeLifetime).millisecondsSince1970
        ))
        return Data(bytes).base64URLEncoded()
    }

    /// Logs a refused ceremony, audits it when it concerns a known person (a registration, or a
    /// sign-in with a known passkey; an anonymous answer that matches none is only logged, so
    /// nobody can fill the trail), and returns the refusal.
    private func refuse(_ refusal: PasskeyRefusal, userID: String?, passkeyID: String? = nil, source: String) async -> PasskeyRefusal {
        logger.notice("Passkey refused", metadata: ["reason": "\(refusal.reason)"])
        guard userID != nil else { return refusal }
        try? await store.append(AuditEvent(
            occurredAt: now(), action: .passkeyRefused, outcome: "failure", actorUserID: userID.flatMap(UUID.init(uuidString:)),
            subjectType: passkeyID == nil ? nil : "passkey", subjectID: passkeyID, source: source, details: ["reason": refusal.reason]
        ))
        return refusal
    }

    /// A name of at most 60 Unicode scalars (a character may carry any number of combining
    /// marks), without control characters or bidi controls (which could make one name look like
    /// another); emoji with joiners are names too.
    static func isAcceptableName(_ name: String) -> Bool {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let bidi = Set<UInt32>([0x061C, 0x200E, 0x200F]).union(0x202A...0x202E).union(0x2066...0x2069)
        return !name.isEmpty && name.unicodeScalars.count <= maximumNameLength
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control || bidi.contains($0.value) }
    }

    /// Challenges are found by the SHA-256 of their binding (a flow handle or a session reference).
    static func hash(_ binding: String) -> Data { Data(SHA256.hash(data: Data(binding.utf8))) }
}
