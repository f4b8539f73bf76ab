import HummingbirdBcrypt
import NIOPosix

/// Bcrypt hashing and checking, off the cooperative thread pool (a cost-12 hash takes a quarter
/// of a second). Unknown accounts are checked against a dummy hash, so that the answer takes as
/// long whether or not the email exists.
struct PasswordChecker: Sendable {
    private let dummyHash: String
    /// The cost of new hashes.
    let cost: Int

    /// Hashes the dummy at `cost`, the cost of new hashes, so unknown accounts take as long.
    init(cost: Int) {
        self.cost = cost
        dummyHash = Bcrypt.hash("portvakt-no-such-account", cost: UInt8(cost))
    }

    /// A new bcrypt hash; static, so the admin command does not pay for the dummy hash.
    static func hash(_ password: String, cost: Int) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: UInt8(cost)) }
    }

    /// Whether `password` matches `hash`; a nil hash never matches but costs the same time.
    func verify(_ password: String, hash: String?) async throws -> Bool {
        let target = hash ?? dummyHash
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: target) }
        return matches && hash != nil
    }

    /// At least 10 characters (NIST SP 800-63B asks for 8 or more and no composition rules).
    /// bcrypt uses the first 72 bytes of a password and ignores the rest.
    static let maximumBytes = 72

    static func isAcceptable(_ password: String) -> Bool {
        (10...128).contains(password.count)
    }
}
