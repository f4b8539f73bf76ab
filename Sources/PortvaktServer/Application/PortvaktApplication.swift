import Foundation
import Hummingbird
import Logging
import PortvaktCore
import PortvaktSandbox
import PortvaktStorage

/// Builds the Portvakt server: database, keys, routes. Running it serves until SIGTERM or SIGINT,
/// then lets in-flight requests finish before closing the database.
public enum PortvaktApplication {
    /// - Parameters:
    ///   - configuration: parsed settings.
    ///   - logger: the logger every part logs to; wrap its handler in ``RedactingLogHandler``.
    /// - Returns: an application whose `runService()` migrates, loads keys and serves.
    public static func build(
        configuration: ServerConfiguration,
        logger: Logger
    ) async throws -> some ApplicationProtocol {
        let keys = try DataProtectionKeys.load(for: configuration, logger: logger)
        let driver = try await DatabaseConnection.open(configuration.database, logger: logger)
        let store = PortvaktStore(driver: driver)
        let signingKeys = SigningKeyCache(store: store, cipher: keys.cipher)

        let router = Router(context: PortvaktRequestContext.self)
        router.add(middleware: RequestLogMiddleware())
        HomePage(sandboxEnabled: configuration.sandboxEnabled).register(on: router)
        HealthRoutes(driver: driver).register(on: router)
        KeyRoutes(keys: signingKeys).register(on: router)
        if configuration.sandboxEnabled {
            try Sandbox(configuration: configuration.sandboxConfiguration(logger: logger)).addRoutes(to: router)
        }

        var app = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Portvakt"),
            services: [driver],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                logger.notice("Portvakt is running: open \(configuration.publicURL(listeningOn: port))/", metadata: [
                    "database": "\(configuration.database)", "sandbox": "\(configuration.sandboxEnabled ? "on" : "off")",
                ])
            },
            logger: logger
        )
        app.beforeServerStarts {
            try await DatabaseConnection.waitUntilReachable(
                driver, database: configuration.database, wait: configuration.databaseWait, logger: logger
            )
            try await Migrator(driver: driver, logger: logger).migrate()
            _ = try await signingKeys.current()
            if configuration.sandboxEnabled {
                try await DevelopmentSeed.seed(store, vault: keys.vault, logger: logger)
            }
        }
        return app
    }

    /// Applies pending migrations and returns the versions applied, then closes the database.
    public static func migrate(configuration: ServerConfiguration, logger: Logger) async throws -> [Int] {
        let driver = try await DatabaseConnection.open(configuration.database, logger: logger)
        return try await driver.whileRunning {
            try await DatabaseConnection.waitUntilReachable(
                driver, database: configuration.database, wait: configuration.databaseWait, logger: logger
            )
            return try await Migrator(driver: driver, logger: logger).migrate()
        }
    }

    /// Makes a new signing key current; the old ones keep verifying for a day.
    public static func rotateSigningKey(configuration: ServerConfiguration, logger: Logger) async throws -> String {
        let keys = try DataProtectionKeys.load(for: configuration, logger: logger)
        let driver = try await DatabaseConnection.open(configuration.database, logger: logger)
        return try await driver.whileRunning {
            try await DatabaseConnection.waitUntilReachable(
                driver, database: configuration.database, wait: configuration.databaseWait, logger: logger
            )
            try await Migrator(driver: driver, logger: logger).migrate()
            return try await SigningKeySet.rotate(PortvaktStore(driver: driver), cipher: keys.cipher).active.kid
        }
    }
}

extension ServerConfiguration {
    /// The public URL, with the real port when the configured one was 0 (any free port).
    func publicURL(listeningOn port: Int) -> String {
        self.port == 0 ? "http://\(host):\(port)" : publicURL
    }
}
