import ArgumentParser
import Foundation
import Logging
import OTel
import PortvaktCore
import PortvaktModels
import PortvaktServer

/// The database cannot be reached, is not migrated, or a later release's migration needs this
/// one stopped: exit 69 (EX_UNAVAILABLE).
private func isDatabaseNotReady(_ error: any Error) -> Bool {
    error is StartupError || error is SchemaNotCurrent || (error as? StoreError)?.isSchemaTooNew == true
}

/// Reads the configuration and sets up redacting logs; a bad setting or a failed start ends the
/// process with one line on standard error and its exit code (docs/operations.md, "Exit codes"):
/// 78 a setting, 69 the database cannot be reached or is not migrated, 1 anything else.
func withStartup(_ mode: ServerConfiguration.Environment, _ body: (ServerConfiguration, Logger) async throws -> Void) async throws {
    let configuration: ServerConfiguration
    do {
        configuration = try ServerConfiguration.load(mode)
    } catch {
        FileHandle.standardError.write(Data("portvakt-server: configuration error: \(error.description)\n".utf8))
        throw ExitCode(78)
    }
    // With tracing on, each line logged inside a span says its trace_id and span_id.
    LoggingSystem.bootstrap({ label, metadataProvider in
        var output: any LogHandler = configuration.logFormat == .json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
        output.metadataProvider = metadataProvider
        var handler = RedactingLogHandler(wrapping: output)
        handler.logLevel = configuration.logLevel
        return handler
    }, metadataProvider: configuration.tracing ? OTel.makeLoggingMetadataProvider() : nil)
    let logger = Logger(label: "portvakt")
    for warning in configuration.warnings { logger.warning("\(warning)") }
    do {
        try await body(configuration, logger)
    } catch let error as ConfigurationError {
        FileHandle.standardError.write(Data("portvakt-server: configuration error: \(error.description)\n".utf8))
        throw ExitCode(78)
    } catch let error where isDatabaseNotReady(error) {
        FileHandle.standardError.write(Data("portvakt-server: \(Redactor.redact(String(describing: error)))\n".utf8))
        throw ExitCode(69)
    } catch {
        FileHandle.standardError.write(Data("portvakt-server: \(Redactor.redact(String(describing: error)))\n".utf8))
        throw ExitCode.failure
    }
}
