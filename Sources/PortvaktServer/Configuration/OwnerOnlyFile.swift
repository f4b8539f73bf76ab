import Foundation
import PortvaktCore

/// Secrets generated into the data directory in development (keys, the sandbox admin token):
/// written once, readable only by their owner.
enum OwnerOnlyFile {
    /// Writes `contents` to `path` with mode 0600, creating the directory.
    /// - Throws: ``ConfigurationError`` naming the file (`what`) when it cannot be written.
    static func create(_ contents: Data, at path: String, what: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: contents, attributes: [.posixPermissions: 0o600]) else {
            throw ConfigurationError("cannot write the \(what) \(path); check PORTVAKT_DATA_DIR")
        }
    }
}
