import ArgumentParser
import PortvaktServer

struct MergeUsers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-users",
        abstract: "Merge two accounts of one person: the second's provider accounts, roles, devices and data move to the first."
    )

    @Option(help: "The user id to keep.") var keep: String
    @Option(help: "The user id to merge into it and remove.") var remove: String

    @OptionGroup var options: ModeOptions

    func run() async throws {
        try await withOperatorStartup(options.mode) { configuration, logger in
            try await PortvaktApplication.mergeUsers(configuration: configuration, logger: logger, keep: keep, remove: remove)
            print("Merged \(remove) into \(keep).")
        }
    }
}
