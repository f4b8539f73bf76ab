import ArgumentParser
import PortvaktServer

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check the audit trail.",
        subcommands: [Verify.self, DerivedKey.self]
    )

    struct DerivedKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "derived-key",
            abstract: "Print the PORTVAKT_AUDIT_KEY entry (index=…) of the audit key derived from PORTVAKT_INDEX_KEY: a secret, for before the index key changes."
        )

        @OptionGroup var options: ModeOptions

        func run() async throws {
            try await withStartup(options.mode) { configuration, logger in
                print(try PortvaktApplication.derivedAuditKeyEntry(configuration: configuration, logger: logger))
            }
        }
    }

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
