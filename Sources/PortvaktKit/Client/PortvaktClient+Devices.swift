import Foundation
import PortvaktProtocol

extension PortvaktClient {
    /// Registers a device key; the server answers with the device and what it stands for (a
    /// password login's key is password-level, docs/client-protocol.md §5).
    public func registerDevice(
        _ key: DevicePublicKey, name: String, platform: String, biometry: BiometricKind, accessToken: String
    ) async throws -> DeviceInfo {
        let body = DeviceRegistration(name: name, platform: platform, biometricKind: biometry.rawValue, publicKey: key.jwk)
        return try await send("POST", "v1/devices", body, accessToken: accessToken, as: DeviceInfo.self)
    }

    /// Raises a password-level device key to BankID's or Vipps's level, with the access token of
    /// their login just now.
    public func raiseDevice(_ id: String, accessToken: String) async throws -> DeviceInfo {
        try Self.decode(DeviceInfo.self, from: try await perform("POST", "v1/devices/\(PercentEncoding.encode(id))/raise", body: nil, accessToken: accessToken))
    }

    /// Revokes a device key; the sessions it unlocked end too.
    public func revokeDevice(_ id: String, accessToken: String) async throws {
        _ = try await perform("DELETE", "v1/devices/\(PercentEncoding.encode(id))", body: nil, accessToken: accessToken)
    }
}
