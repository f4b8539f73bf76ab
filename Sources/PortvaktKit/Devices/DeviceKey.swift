import Crypto
import Foundation
import PortvaktProtocol

/// The device's biometric-protected signing key: the Secure Enclave on Apple devices (usable only
/// after Face ID / fingerprint of the current enrolment), a software key with scripted
/// biometrics on Linux. Signing is where the biometric prompt happens.
public protocol DeviceKey: Sendable {
    /// Creates (or replaces) the key after one biometric check; returns its public half.
    func create(prompt: BiometricPrompt) async throws(BiometricFailure) -> DevicePublicKey
    /// The raw 64-byte ES256 signature of `data`, after the biometric check.
    /// - Throws: ``BiometricFailure/invalidated`` only when the key is gone or its enrolment
    ///   changed; ``BiometricFailure/unavailableNow`` when the key could not be read just now.
    func sign(_ data: Data, prompt: BiometricPrompt) async throws(BiometricFailure) -> Data
    func delete() async
    func exists() async -> Bool
}

/// A software P-256 key and simulated biometrics: for the Linux CLI and tests. With `storage`
/// the key survives restarts (sealed like everything else there); the checks answer as a script
/// says, or as `biometrics` decides (the CLI asks y/n), and succeed when neither says otherwise.
/// A check answering ``BiometricFailure/invalidated`` destroys the key, as a new fingerprint
/// destroys a Secure Enclave key made with `.biometryCurrentSet`.
public actor SoftwareDeviceKey: DeviceKey {
    public typealias Biometrics = @Sendable (_ reason: String) async -> BiometricFailure?
    static let storageKey = SecureStorageKey(rawValue: "portvakt_software_device_key_v1")

    private let storage: (any SecureStorage)?
    private let biometrics: Biometrics?
    private var key: P256.Signing.PrivateKey?
    private var loaded = false
    /// The answers of the next biometric checks, in order, before `biometrics` is asked.
    private var script: [BiometricFailure?] = []

    public init(storage: (any SecureStorage)? = nil, biometrics: Biometrics? = nil) {
        self.storage = storage
        self.biometrics = biometrics
    }

    /// The next checks fail like this (nil: succeeds).
    public func script(_ outcomes: [BiometricFailure?]) {
        script = outcomes
    }

    public func create(prompt: BiometricPrompt) async throws(BiometricFailure) -> DevicePublicKey {
        try await check(prompt.reason)
        let new = P256.Signing.PrivateKey()
        do {
            try await storage?.write(new.rawRepresentation, for: Self.storageKey)
        } catch {
            throw .notAvailable
        }
        key = new
        loaded = true
        return DevicePublicKey(new.publicKey)
    }

    public func sign(_ data: Data, prompt: BiometricPrompt) async throws(BiometricFailure) -> Data {
        guard try await stored() != nil else { throw .invalidated }
        try await check(prompt.reason)
        guard let key, let signature = try? key.signature(for: data) else { throw .failed }
        return signature.rawRepresentation
    }

    public func delete() async {
        key = nil
        loaded = true
        try? await storage?.delete(Self.storageKey)
    }

    public func exists() async -> Bool { ((try? await stored()) ?? nil) != nil }

    /// The key; nil when none is stored. A storage that cannot be read now is not "no key".
    private func stored() async throws(BiometricFailure) -> P256.Signing.PrivateKey? {
        if !loaded, let storage {
            let handle = await BiometricErrors.storedHandle { try await storage.read(Self.storageKey) }
            switch handle {
            case .success(let bytes): key = try? P256.Signing.PrivateKey(rawRepresentation: bytes)
            case .failure(.invalidated): key = nil
            case .failure(let failure): throw failure
            }
        }
        loaded = true
        return key
    }

    private func check(_ reason: String) async throws(BiometricFailure) {
        let failure: BiometricFailure?
        if !script.isEmpty {
            failure = script.removeFirst()
        } else {
            failure = await biometrics?(reason)
        }
        guard let failure else { return }
        if failure == .invalidated { await delete() }
        throw failure
    }
}
