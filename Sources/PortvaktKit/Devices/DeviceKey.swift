import Crypto
import Foundation
import PortvaktProtocol

/// The device's biometric-protected signing key: the Secure Enclave on Apple devices (usable only
/// after Face ID / fingerprint of the current enrolment), a software key with scripted
/// biometrics on Linux. Signing is where the biometric prompt happens.
public protocol DeviceKey: Sendable {
    /// Creates (or replaces) the key; returns its public half.
    func create() async throws(BiometricFailure) -> DevicePublicKey
    /// The raw 64-byte ES256 signature of `data`, after the biometric check.
    func sign(_ data: Data, reason: String) async throws(BiometricFailure) -> Data
    func delete() async
    func exists() async -> Bool
}

/// A software P-256 key and biometrics that answer as a script says: for the Linux CLI and tests.
public actor SoftwareDeviceKey: DeviceKey {
    private var key: P256.Signing.PrivateKey?
    /// The answers of the next biometric checks, in order; empty means success.
    private var script: [BiometricFailure?] = []

    public init() {}

    /// The next checks fail like this (nil: succeeds).
    public func script(_ outcomes: [BiometricFailure?]) {
        script = outcomes
    }

    public func create() async throws(BiometricFailure) -> DevicePublicKey {
        try check()
        let new = P256.Signing.PrivateKey()
        key = new
        return DevicePublicKey(new.publicKey)
    }

    public func sign(_ data: Data, reason: String) async throws(BiometricFailure) -> Data {
        guard let key else { throw .invalidated }
        try check()
        if case .invalidated? = script.first { self.key = nil }
        guard let signature = try? key.signature(for: data) else { throw .failed }
        return signature.rawRepresentation
    }

    public func delete() async { key = nil }
    public func exists() async -> Bool { key != nil }

    private func check() throws(BiometricFailure) {
        guard !script.isEmpty else { return }
        if let failure = script.removeFirst() {
            if failure == .invalidated { key = nil }
            throw failure
        }
    }
}
