import Foundation
import PortvaktProtocol

/// What a platform gives ``Portvakt``: where secrets live, the two keys, the browser, the BankID
/// app, the network's state and the biometrics. `PortvaktPlatform.apple(…)` assembles Apple's
/// (Keychain, Secure Enclave, `ASWebAuthenticationSession`, `NWPathMonitor`); tests and the CLI
/// assemble software ones.
public struct PortvaktPlatform: Sendable {
    public var storage: any SecureStorage
    public var deviceKey: any DeviceKey
    public var proofKey: any ProofKey
    public var browser: any WebAuthenticator
    public var opener: any URLOpener
    public var reachability: (any Reachability)?
    /// What the biometrics can do now (asked at start and on every return to the front).
    public var biometry: @Sendable () async -> BiometryAvailability
    /// Whether this installation runs for the first time (Keychain items outlive an uninstall,
    /// so a new install must not resume an old session); marks it as run.
    public var firstRun: InstallMarker
    /// The device's model ("iPhone"): its key's name at Portvakt, beside what the member types (``DeviceName``).
    public var deviceName: String
    /// `ios`, `android`, `macos` or `linux`.
    public var platform: String
    public var now: @Sendable () -> Date
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(
        storage: any SecureStorage, deviceKey: any DeviceKey, proofKey: any ProofKey, browser: any WebAuthenticator, opener: any URLOpener,
        reachability: (any Reachability)? = nil, biometry: @escaping @Sendable () async -> BiometryAvailability, firstRun: InstallMarker,
        deviceName: String, platform: String, now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.storage = storage
        self.deviceKey = deviceKey
        self.proofKey = proofKey
        self.browser = browser
        self.opener = opener
        self.reachability = reachability
        self.biometry = biometry
        self.firstRun = firstRun
        self.deviceName = deviceName
        self.platform = platform
        self.now = now
        self.sleep = sleep
    }
}

extension PortvaktPlatform {
    /// The Keychain service the SDK's items are kept under: the app's bundle identifier, so two
    /// apps sharing an access group never read each other's session; the SDK's own name only for
    /// a process without one.
    public static func keychainService(bundleIdentifier: String?) -> String {
        guard let bundleIdentifier, !bundleIdentifier.isEmpty else { return earlierKeychainService }
        return bundleIdentifier
    }

    /// The service 1.0.0 kept every app's items under; ``MovedStorage`` brings them over.
    public static let earlierKeychainService = "no.portvakt.sdk"

    /// `own`, or, when it is kept under another service than 1.0.0's, `own` with 1.0.0's items
    /// moved into it at first use (`earlier` makes the storage of a service). In a shared access
    /// group nothing is moved: 1.0.0's items there may be another app's.
    public static func storage(
        _ own: any SecureStorage, service: String, accessGroup: String? = nil, earlier: (String) -> any SecureStorage
    ) -> any SecureStorage {
        guard service != earlierKeychainService, accessGroup == nil else { return own }
        return MovedStorage(current: own, earlier: earlier(earlierKeychainService))
    }
}

/// Remembers that this installation has run (Apple: `UserDefaults`, which an uninstall deletes
/// while the Keychain stays).
public struct InstallMarker: Sendable {
    /// True the first time this installation asks, false after ``markInstalled``.
    public let isFirstRun: @Sendable () -> Bool
    public let markInstalled: @Sendable () -> Void

    public init(isFirstRun: @escaping @Sendable () -> Bool, markInstalled: @escaping @Sendable () -> Void) {
        self.isFirstRun = isFirstRun
        self.markInstalled = markInstalled
    }

    /// Whether a marker file exists in `directory` (the CLI's home, tests).
    public static func file(in directory: URL) -> InstallMarker {
        let marker = directory.appendingPathComponent("installed")
        return InstallMarker(
            isFirstRun: { !FileManager.default.fileExists(atPath: marker.path) },
            markInstalled: {
                try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                _ = FileManager.default.createFile(atPath: marker.path, contents: Data(), attributes: [.posixPermissions: 0o600])
            }
        )
    }
}

extension SecureStorageKey {
    /// Everything the SDK stores, for the fresh-install wipe.
    public static let all: [SecureStorageKey] = [
        .refreshToken, .pkceVerifier, .bankIDSessionRef, .bankIDOrderStartedAt, .deviceID, .deviceAssurance, .offlineQueue, .sessionUser, .biometricFailures, .sessionEndsAt,
        .deviceTrustEndsAt, .lastLoginMethod, .pkceState, .pkceMethod, .pendingRevocations, .deviceKeyHandle, .proofKey, .biometricEnrolment,
        OfflineCache.Item.profile.key, OfflineCache.Item.activities.key, SoftwareDeviceKey.storageKey,
    ]
}
