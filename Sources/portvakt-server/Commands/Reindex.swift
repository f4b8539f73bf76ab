import ArgumentParser
import PortvaktServer

struct Reindex: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recompute every personnummer blind index under PORTVAKT_INDEX_KEY, after it changed.",
        discussion: """
        Stop the instances, set the new PORTVAKT_INDEX_KEY (and PORTVAKT_AUDIT_KEY as README's \
        "Changing the index key" says), run this, then start them. It works in batches and can be \
        run again; throttle counters start over, and a refresh answer lost just before the change \
        cannot be repeated (the app logs in again).
        """
    )

    @OptionGroup var options: ModeOptions
    @Option(help: "Rows per transaction (1 to 10000).") var batchSize = 500

    func validate() throws {
        guard (1...10_000).contains(batchSize) else { throw ValidationError("--batch-size must be from 1 to 10000") }
    }

    func run() async throws {
        try await withStartup(options.mode) { configuration, logger in
            for (table, updated) in try await PortvaktApplication.reindex(configuration: configuration, logger: logger, batchSize: batchSize) {
                print("\(table): \(updated) blind indexes recomputed")
            }
            print("Every personnummer blind index is under PORTVAKT_INDEX_KEY.")
        }
    }
}
