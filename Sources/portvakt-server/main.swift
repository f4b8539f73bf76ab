import ArgumentParser
import Foundation
import Logging
import PortvaktCore
import PortvaktServer

@main
struct PortvaktServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "portvakt-server",
        abstract: "Portvakt: BankID, Vipps and biometric login for the peer-mentor app.",
        discussion: "Settings come from environment variables and PORTVAKT_CONFIG_FILE; see README.md.",
        subcommands: [Serve.self, Dev.self, Migrate.self, RotateSigningKey.self, SetPassword.self, MergeUsers.self, AuditCommand.self, SandboxCommand.self],
        defaultSubcommand: Serve.self
    )
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Production: migrate the database and serve HTTP until SIGTERM or SIGINT.",
        discussion: "Needs PORTVAKT_ENCRYPTION_KEYS, PORTVAKT_INDEX_KEY, DATABASE_URL and an https PORTVAKT_PUBLIC_URL; never runs the sandbox."
    )

    func run() async throws {
        try await withStartup(.production) { configuration, logger in
            try await PortvaktApplication.serve(configuration: configuration, logger: logger)
        }
    }
}

struct Dev: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Development: serve with no configuration (SQLite in ./.portvakt, development keys, sandbox BankID and Vipps with test people)."
    )

    func run() async throws {
        try await withStartup(.development) { configuration, logger in
            try await PortvaktApplication.serve(configuration: configuration, logger: logger)
        }
    }
}

/// Operator commands work on a production configuration unless `--dev` says otherwise.
struct ModeOptions: ParsableArguments {
    @Flag(help: "Use the development configuration, as `portvakt-server dev` does.")
    var dev = false

    var mode: ServerConfiguration.Environment { dev ? .development : .production }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and exit.")

    @OptionGroup var options: ModeOptions

    func run() async throws {
        try await withStartup(options.mode) { configuration, logger in
            let applied = try await PortvaktApplication.migrate(configuration: configuration, logger: logger)
            print(applied.isEmpty ? "Database is up to date." : "Applied migrations: \(applied.map(String.init).joined(separator: ", ")).")
        }
    }
}

struct RotateSigningKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-signing-key",
        abstract: "Add a new token signing key: published at once, signing after 90 seconds; older keys keep verifying for a day."
    )

    @OptionGroup var options: ModeOptions

    func run() async throws {
        try await withStartup(options.mode) { configuration, logger in
            let kid = try await PortvaktApplication.rotateSigningKey(configuration: configuration, logger: logger)
            print("New signing key: \(kid) (published now, signing in 90 seconds)")
        }
    }
}

struct MergeUsers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-users",
        abstract: "Merge two accounts of one person: the second's provider accounts, roles, devices and data move to the first."
    )

    @Option(help: "The user id to keep.") var keep: String
    @Option(help: "The user id to merge into it and remove.") var remove: String

    @OptionGroup var options: ModeOptions

    func run() async throws {
        try await withStartup(options.mode) { configuration, logger in
            try await PortvaktApplication.mergeUsers(configuration: configuration, logger: logger, keep: keep, remove: remove)
            print("Merged \(remove) into \(keep).")
        }
    }
}

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check the audit trail.",
        subcommands: [Verify.self]
    )

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Walk the audit chain (HMAC under PORTVAKT_AUDIT_KEY); exit 1 and name the first broken link when an event was edited, removed or cut off."
        )

        @OptionGroup var options: ModeOptions

        func run() async throws {
            var intact = true
            try await withStartup(options.mode) { configuration, logger in
                let report = try await PortvaktApplication.verifyAuditChain(configuration: configuration, logger: logger)
                if let broken = report.firstBroken {
                    print("Audit chain BROKEN at \(broken) (\(report.checked) events before it are intact).")
                    intact = false
                } else {
                    let unsealed = report.checked - report.sealed
                    print("Audit chain intact: \(report.checked) events\(unsealed > 0 ? " (the first \(unsealed) from before the audit key, chained with SHA-256 only)" : "").")
                    if let digest = report.headDigest {
                        print("Head digest (keep it outside the database; a later run must show the same digest for the same event number): \(digest)")
                    }
                }
            }
            if !intact { throw ExitCode.failure }
        }
    }
}

struct SetPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-password",
        abstract: "Invite a member to email/password login, or change their password.",
        discussion: "Reads the password from standard input (one line). A member without an account gets one with the roles of the member records that carry the email."
    )

    @Option(help: "The member's email address, as on their member record.")
    var email: String

    @OptionGroup var options: ModeOptions

    func run() async throws {
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            FileHandle.standardError.write(Data("portvakt-server: give the password on standard input\n".utf8))
            throw ExitCode(64)
        }
        try await withStartup(options.mode) { configuration, logger in
            let id = try await PortvaktApplication.setPassword(configuration: configuration, logger: logger, email: email, password: line)
            print("Password set for user \(id).")
        }
    }
}

struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Development: serve only the simulated BankID and Vipps (no database), for a broker running elsewhere."
    )

    func run() async throws {
        try await withStartup(.development) { configuration, logger in
            try await SandboxServer.build(configuration: configuration, logger: logger).runService()
        }
    }
}

/// Reads the configuration and sets up redacting logs; a bad setting or a failed start ends the
/// process with one line on standard error and exit code 1 (78 for configuration errors).
func withStartup(_ mode: ServerConfiguration.Environment, _ body: (ServerConfiguration, Logger) async throws -> Void) async throws {
    let configuration: ServerConfiguration
    do {
        configuration = try ServerConfiguration.load(mode)
    } catch {
        FileHandle.standardError.write(Data("portvakt-server: configuration error: \(error.description)\n".utf8))
        throw ExitCode(78)
    }
    LoggingSystem.bootstrap { label in
        let output: any LogHandler = configuration.logFormat == .json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
        var handler = RedactingLogHandler(wrapping: output)
        handler.logLevel = configuration.logLevel
        return handler
    }
    let logger = Logger(label: "portvakt")
    do {
        try await body(configuration, logger)
    } catch let error as ConfigurationError {
        FileHandle.standardError.write(Data("portvakt-server: configuration error: \(error.description)\n".utf8))
        throw ExitCode(78)
    } catch {
        FileHandle.standardError.write(Data("portvakt-server: \(Redactor.redact(String(describing: error)))\n".utf8))
        throw ExitCode.failure
    }
}
