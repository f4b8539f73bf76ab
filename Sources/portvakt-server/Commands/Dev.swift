import ArgumentParser
import PortvaktServer

struct Dev: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Development: serve with no configuration (SQLite in ./.portvakt, development keys, sandbox BankID and Vipps with test people).",
        discussion: """
        With --no-seed the database gets none of the sandbox's organisations and member records (PORTVAKT_SEED=off): \
        the sandbox's people can still sign in at the simulated BankID and Vipps, and Portvakt answers not_registered \
        until an organisation (`organisation create`) has them as members (`members import`, SCIM). docs/operations.md, "Going live", walks it.
        """
    )

    @Flag(help: "Start without the sandbox's organisations and test members, to rehearse going live from an empty database.")
    var noSeed = false

    func run() async throws {
        try await withStartup(.development) { configuration, logger in
            var configuration = configuration
            if noSeed { configuration.developmentSeed = false }
            let tracing = try SpanExport.start(configuration, logger: logger)
            try await PortvaktApplication.serve(configuration: configuration, logger: logger, observability: tracing)
        }
    }
}
