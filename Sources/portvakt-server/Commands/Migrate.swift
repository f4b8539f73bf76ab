import ArgumentParser
import PortvaktServer

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
