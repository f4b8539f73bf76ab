import ArgumentParser
import PortvaktServer

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
