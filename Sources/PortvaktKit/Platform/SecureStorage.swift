import Foundation

/// Where the SDK keeps secrets: the Keychain on Apple platforms (each item as readable as its
/// ``SecureStorageKey/accessibility`` says, never in backups or on another device), an
/// encrypted file on Linux.
///
/// A read that throws is a failure to retry (a locked device, a Keychain busy at a background
/// launch); only a read that returns nil means the item is not there.
public protocol SecureStorage: Sendable {
    func read(_ key: SecureStorageKey) async throws -> Data?
    func write(_ value: Data, for key: SecureStorageKey) async throws
    func delete(_ key: SecureStorageKey) async throws
    /// Everything this storage holds for the SDK, including items an earlier version wrote
    /// under names it no longer knows (a fresh install starts from nothing).
    func deleteAll() async throws
}

extension SecureStorage {
    /// Every key this version knows; a storage that can delete by owner does better.
    public func deleteAll() async throws {
        var failure: (any Error)?
        for key in SecureStorageKey.all {
            do { try await delete(key) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    /// A stored UTF-8 string (a token, an id, a verifier).
    public func readString(_ key: SecureStorageKey) async throws -> String? {
        try await read(key).map { String(decoding: $0, as: UTF8.self) }
    }

    public func write(_ value: String, for key: SecureStorageKey) async throws {
        try await write(Data(value.utf8), for: key)
    }

    /// A stored time (seconds since 1970); nil when absent or unreadable.
    public func readDate(_ key: SecureStorageKey) async throws -> Date? {
        try await readString(key).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
    }

    /// Stores a time, or deletes the key for nil.
    public func writeDate(_ date: Date?, for key: SecureStorageKey) async throws {
        guard let date else { return try await delete(key) }
        try await write(String(date.timeIntervalSince1970), for: key)
    }
}

/// When a stored item can be read. Every item stays on this device (never in a backup or
/// another device's Keychain).
public enum StorageAccessibility: Sendable, Hashable {
    /// From the first unlock after a restart until the next restart, locked or not: the session,
    /// the offline queue and the proof key's handle, which background work and a login on a
    /// phone without a passcode need (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`).
    case afterFirstUnlock
    /// Only while the device has a passcode; removing the passcode deletes it
    /// (`kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`): the biometric key's handle alone,
    /// since biometrics need a passcode anyway.
    case whenPasscodeSet
}

/// The names of what the SDK stores.
public struct SecureStorageKey: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// How readable the item is: only the biometric key is bound to the passcode. Without a
    /// passcode a person can still log in, and turning it off does not delete the session or the
    /// queued writes.
    public var accessibility: StorageAccessibility {
        self == .deviceKeyHandle ? .whenPasscodeSet : .afterFirstUnlock
    }

    /// The Secure Enclave's wrapped handle of the biometric device key.
    public static let deviceKeyHandle = SecureStorageKey(rawValue: "portvakt_device_key_v1")
    /// The handle (or, without a Secure Enclave, the key) of the DPoP proof key.
    public static let proofKey = SecureStorageKey(rawValue: "portvakt_dpop_key_v1")
    /// The biometric enrolment the device key was made under (`LAContext`'s domain state): a
    /// different one before signing means someone's face or finger was added or removed.
    public static let biometricEnrolment = SecureStorageKey(rawValue: "portvakt_biometric_enrolment_v1")

    public static let refreshToken = SecureStorageKey(rawValue: "portvakt_refresh_token_v1")
    /// The PKCE verifier of a login in the in-app browser, stored before the browser opens.
    public static let pkceVerifier = SecureStorageKey(rawValue: "portvakt_pkce_verifier_v1")
    /// The BankID order's session id while the order runs (S3.3).
    public static let bankIDSessionRef = SecureStorageKey(rawValue: "bankid_session_ref_v1")
    /// When that order started: a relaunch collects it only within its 3 minutes.
    public static let bankIDOrderStartedAt = SecureStorageKey(rawValue: "portvakt_bankid_order_started_at_v1")
    public static let deviceID = SecureStorageKey(rawValue: "portvakt_device_id_v1")
    /// `password` while the device key is password-level (`DeviceAssurance`); absent: BankID's or Vipps's.
    public static let deviceAssurance = SecureStorageKey(rawValue: "portvakt_device_assurance_v1")
    public static let offlineQueue = SecureStorageKey(rawValue: "portvakt_offline_queue_v1")
    /// The user (`sub`) of the stored session: whose queued writes it may send.
    public static let sessionUser = SecureStorageKey(rawValue: "portvakt_session_user_v1")
    /// Consecutive failed biometric attempts, beside the biometric preference (S16.2).
    public static let biometricFailures = SecureStorageKey(rawValue: "portvakt_biometric_failures_v1")
    /// When the stored session ends however often it is refreshed (S16.3).
    public static let sessionEndsAt = SecureStorageKey(rawValue: "portvakt_session_ends_at_v1")
    /// When this user's device keys stop unlocking, as the last BankID or Vipps login said (S16.3).
    public static let deviceTrustEndsAt = SecureStorageKey(rawValue: "portvakt_device_trust_ends_at_v1")
    /// The login method used last, shown first next time (S16.3).
    public static let lastLoginMethod = SecureStorageKey(rawValue: "portvakt_last_login_method_v1")
    /// The `state` of a login in the in-app browser, beside its verifier, so an app relaunched
    /// while the browser was open can still take the answer (S2.4).
    public static let pkceState = SecureStorageKey(rawValue: "portvakt_pkce_state_v1")
    /// The method of that login (S16.3: remembered once it works).
    public static let pkceMethod = SecureStorageKey(rawValue: "portvakt_pkce_method_v1")
    /// Refresh tokens whose logout did not reach the server yet (``PendingRevocations``).
    public static let pendingRevocations = SecureStorageKey(rawValue: "portvakt_pending_revocations_v1")
}

/// Secure storage in memory, for previews and tests of code above the SDK.
public actor MemorySecureStorage: SecureStorage {
    private var values: [SecureStorageKey: Data] = [:]

    public init() {}

    public func read(_ key: SecureStorageKey) -> Data? { values[key] }
    public func write(_ value: Data, for key: SecureStorageKey) { values[key] = value }
    public func delete(_ key: SecureStorageKey) { values[key] = nil }
}
