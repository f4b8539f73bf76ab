import Crypto
import Foundation
import PortvaktProtocol

/// The device's second key: it signs DPoP proofs (RFC 9449), so tokens work only together with
/// it. Unlike the ``DeviceKey`` it needs no biometric check (it signs every request), but it too
/// never leaves the device: the Secure Enclave on Apple devices, a key sealed in
/// ``FileSecureStorage`` on Linux. Made at the first login, kept across unlocks, deleted at logout.
public protocol ProofKey: Sendable {
    /// The public key, creating the key first when there is none.
    func publicKey() async throws -> DevicePublicKey
    /// The raw 64-byte ES256 signature of `data`.
    func sign(_ data: Data) async throws -> Data
    func delete() async
}

/// How one kind of proof key is made, kept and restored: in software, or (on Apple devices) in
/// the Secure Enclave. Where the key lives is the adapter's choice; when it is made, and that
/// it is made once, is ``StoredProofKey``'s.
public struct ProofKeyMaker: Sendable {
    public typealias Signer = @Sendable (Data) throws -> Data
    /// A usable key: its public half, a signer of raw 64-byte ES256 signatures, and what to store.
    public struct Made: Sendable {
        public let publicKey: DevicePublicKey
        public let sign: Signer
        public let stored: Data

        public init(publicKey: DevicePublicKey, stored: Data, sign: @escaping Signer) {
            self.publicKey = publicKey
            self.stored = stored
            self.sign = sign
        }
    }

    /// Whether the private key can leave the device's hardware (a software key, as on the
    /// Simulator, which has no Secure Enclave, and on Linux) or not.
    public enum Protection: String, Sendable, Hashable {
        case software
        case secureEnclave = "secure-enclave"
    }

    public let protection: Protection
    public let create: @Sendable () throws -> Made
    public let restore: @Sendable (Data) throws -> Made

    public init(protection: Protection, create: @escaping @Sendable () throws -> Made, restore: @escaping @Sendable (Data) throws -> Made) {
        self.protection = protection
        self.create = create
        self.restore = restore
    }

    /// A P-256 key in software, its raw bytes sealed in the storage.
    public static let software = ProofKeyMaker(
        protection: .software,
        create: { softwareKey(P256.Signing.PrivateKey()) },
        restore: { softwareKey(try P256.Signing.PrivateKey(rawRepresentation: $0)) }
    )

    private static func softwareKey(_ key: P256.Signing.PrivateKey) -> Made {
        Made(publicKey: DevicePublicKey(key.publicKey), stored: key.rawRepresentation) { try key.signature(for: $0).rawRepresentation }
    }
}

/// The proof key, kept in `storage` under ``SecureStorageKey/proofKey``: made at the first use,
/// restored after that, one key however many first uses come at once.
public actor StoredProofKey: ProofKey {
    static let storageKey = SecureStorageKey.proofKey
    private let storage: any SecureStorage
    private let maker: ProofKeyMaker
    private var key: ProofKeyMaker.Made?
    /// The first use's read-or-create, which every use meanwhile waits for: the actor lets a
    /// second caller in at each storage await, and without this two first uses made two keys.
    private var loading: Task<ProofKeyMaker.Made, any Error>?

    public init(storage: any SecureStorage, maker: ProofKeyMaker = .software) {
        self.storage = storage
        self.maker = maker
    }

    /// Whether the key is in hardware; an app may tell its users (or its server) when it is not.
    public nonisolated var protection: ProofKeyMaker.Protection { maker.protection }

    public func publicKey() async throws -> DevicePublicKey {
        try await loaded().publicKey
    }

    public func sign(_ data: Data) async throws -> Data {
        try await loaded().sign(data)
    }

    public func delete() async {
        key = nil
        try? await storage.delete(Self.storageKey)
    }

    private func loaded() async throws -> ProofKeyMaker.Made {
        if let key { return key }
        let task = loading ?? Task { [storage, maker] in try await Self.readOrCreate(in: storage, maker: maker) }
        loading = task
        do {
            let loaded = try await task.value
            loading = nil
            key = loaded
            return loaded
        } catch {
            loading = nil
            throw error
        }
    }

    /// A stored key that cannot be restored (another kind, damaged) is replaced: tokens bound to
    /// it were useless anyway. A read that fails is not "no key": it is thrown, to try again.
    private static func readOrCreate(in storage: any SecureStorage, maker: ProofKeyMaker) async throws -> ProofKeyMaker.Made {
        if let stored = try await storage.read(storageKey), let existing = try? maker.restore(stored) {
            return existing
        }
        let new = try maker.create()
        try await storage.write(new.stored, for: storageKey)
        return new
    }
}

/// The proof key of the CLI and tests: a software key in ``FileSecureStorage``.
public typealias SoftwareProofKey = StoredProofKey
