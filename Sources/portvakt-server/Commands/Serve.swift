import ArgumentParser
import PortvaktServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Production: migrate the database and serve HTTP until SIGTERM or SIGINT.",
        discussion: """
        Needs PORTVAKT_ENCRYPTION_KEYS, PORTVAKT_INDEX_KEY, DATABASE_URL, PORTVAKT_CLIENTS_FILE and an https PORTVAKT_PUBLIC_URL; \
        refuses settings it does not know; looks at each configured provider's discovery first; never runs the sandbox. \
        Exit codes: docs/operations.md, "Exit codes".
        """
    )

    @Flag(help: "Start even when BankID or Vipps does not answer, or answers what does not fit its settings (logged; /health/ready shows it).")
    var startWithoutProviders = false

    func run() async throws {
        try await withStartup(.production) { configuration, logger in
            var configuration = configuration
            configuration.startsWithoutProviders = startWithoutProviders
            let tracing = try SpanExport.start(configuration, logger: logger)
            try await PortvaktApplication.serve(configuration: configuration, logger: logger, observability: tracing)
        }
    }
}
