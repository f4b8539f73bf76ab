import ArgumentParser
import PortvaktServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Production: migrate the database and serve HTTP until SIGTERM or SIGINT.",
        discussion: "Needs PORTVAKT_ENCRYPTION_KEYS, PORTVAKT_INDEX_KEY, DATABASE_URL and an https PORTVAKT_PUBLIC_URL; never runs the sandbox."
    )

    func run() async throws {
        try await withStartup(.production) { configuration, logger in
            let tracing = try SpanExport.start(configuration, logger: logger)
            try await PortvaktApplication.serve(configuration: configuration, logger: logger, observability: tracing)
        }
    }
}
