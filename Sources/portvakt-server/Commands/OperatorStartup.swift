import ArgumentParser
import Foundation
import Logging
import PortvaktServer

/// ``withStartup(_:_:)`` for the operator's commands: an ``OperatorError`` ends the process with
/// its reason on standard error and its exit code (64 usage, 65 bad data); other failures as
/// `withStartup` says (1, or 78 for configuration).
func withOperatorStartup(_ mode: ServerConfiguration.Environment, _ body: (ServerConfiguration, Logger) async throws -> Void) async throws {
    var refusal: OperatorError?
    try await withStartup(mode) { configuration, logger in
        do {
            try await body(configuration, logger)
        } catch let error as OperatorError {
            refusal = error
        }
    }
    if let refusal { try refuse(refusal) }
}

/// Says `error` on standard error and exits with its code.
func refuse(_ error: OperatorError) throws -> Never {
    standardError("portvakt-server: \(error.description)")
    throw ExitCode(error.exitCode)
}

/// One line on standard error.
func standardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
