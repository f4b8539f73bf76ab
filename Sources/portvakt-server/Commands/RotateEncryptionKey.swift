import ArgumentParser
import PortvaktServer

struct RotateEncryptionKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-encryption-key",
        abstract: "Re-seal every sealed value (personnummer, mail, member updates, contacts, keys, pending logins) under the first key of PORTVAKT_ENCRYPTION_KEYS, so the others can be removed.",
        discussion: """
        Put the new key first in PORTVAKT_ENCRYPTION_KEYS on every instance (the others stay, so \
        values sealed under them still open), then run this. It works in batches, one transaction \
        each, and can be interrupted and run again. When it reports nothing left, remove the old \
        keys from PORTVAKT_ENCRYPTION_KEYS.
        """
    )

    @OptionGroup var options: ModeOptions
    @Option(help: "Rows per transaction (1 to 10000).") var batchSize = 500

    func validate() throws {
        guard (1...10_000).contains(batchSize) else { throw ValidationError("--batch-size must be from 1 to 10000") }
    }

    func run() async throws {
        try await withStartup(options.mode) { configuration, logger in
            let reports = try await PortvaktApplication.rotateEncryptionKey(configuration: configuration, logger: logger, batchSize: batchSize) { report in
                if report.remaining > 0 { print("\(report.column): \(report.resealed) re-sealed, \(report.remaining) to go") }
            }
            for report in reports { print("\(report.column): \(report.resealed) re-sealed") }
            print("Every sealed value is under the first key of PORTVAKT_ENCRYPTION_KEYS; the others can be removed.")
        }
    }
}
