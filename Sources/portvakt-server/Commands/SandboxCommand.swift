import ArgumentParser
import PortvaktServer

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
