import Foundation
import Logging
import PortvaktCore
import PortvaktSandbox

extension ServerConfiguration {
    static let sandboxAdminTokenFile = "sandbox-admin-token"

    /// The sandbox's settings. Without PORTVAKT_SANDBOX_ADMIN_TOKEN the admin token is generated
    /// once into the data directory (readable only by its owner), where docs/sandbox.md says to find it.
    func sandboxConfiguration(logger: Logger, now: @escaping @Sendable () -> Date = { Date() }) throws -> SandboxConfiguration {
        guard environment != .production else {
            throw ConfigurationError("the sandbox never runs in production: it is for `portvakt-server dev`")
        }
        let token: String
        if let configured = sandboxAdminToken {
            token = configured
        } else {
            let path = (dataDirectory as NSString).appendingPathComponent(Self.sandboxAdminTokenFile)
            token = try Self.readOrCreateToken(at: path)
            logger.info("The sandbox admin token is in the data directory", metadata: ["file": "\(path)"])
        }
        return SandboxConfiguration(publicURL: publicURLIsConfigured ? publicURL : nil, adminToken: token, faults: sandboxFaults, now: now)
    }

    private static func readOrCreateToken(at path: String) throws -> String {
        if let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) {
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard token.count >= 16 else { throw ConfigurationError("the sandbox admin token file \(path) is damaged; delete it to generate a new one") }
            return token
        }
        let token = Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64URLEncoded()
        try OwnerOnlyFile.create(Data((token + "\n").utf8), at: path, what: "sandbox admin token file")
        return token
    }
}
