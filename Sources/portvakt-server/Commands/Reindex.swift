import ArgumentParser
import PortvaktServer

struct Reindex: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move every personnummer blind index to a new PORTVAKT_INDEX_KEY.",
        discussion: """
        Run with the new PORTVAKT_INDEX_KEY and PORTVAKT_AUDIT_KEY as docs/operations.md's "Changing the index \
        key" says. Instances with the old key stop within 30 seconds and no instance starts until it \
        is done; it waits for them first unless --instances-stopped. It works in batches and can be \
        run again. Throttle counters start over, and forms, claims and DPoP nonces handed out before \
        the change are asked for again.
        """
    )

    @OptionGroup var options: ModeOptions
    @Option(help: "Rows per transaction (1 to 10000).") var batchSize = 500
    @Flag(help: "Every instance is stopped already: do not wait 35 s for running ones to notice.") var instancesStopped = false
    @Flag(help: "Take over an unfinished reindex to another key (its key is lost); a run of it still going stops at its next batch.") var takeOver = false

    func validate() throws {
        guard (1...10_000).contains(batchSize) else { throw ValidationError("--batch-size must be from 1 to 10000") }
    }

    func run() async throws {
        try await withStartup(options.mode) { configuration, logger in
            let reports = try await PortvaktApplication.reindex(
                configuration: configuration, logger: logger, batchSize: batchSize, instancesStop: instancesStopped ? .zero : .seconds(35), takingOver: takeOver
            ) { print($0) }
            guard let reports else {
                print("Every personnummer blind index is already under PORTVAKT_INDEX_KEY; nothing to do.")
                return
            }
            for report in reports { print("\(report.table): \(report.updated) blind indexes recomputed") }
            print("Every personnummer blind index is under PORTVAKT_INDEX_KEY: start the instances with it.")
        }
    }
}
