import Foundation
import Logging
import PortvaktCore
import PortvaktSandbox
import PortvaktStorage
import PortvaktDomain
import PortvaktModels

/// Everything portvakt-server reads from its environment, parsed and checked once at start-up.
/// The table of settings is in docs/configuration.md.
public struct ServerConfiguration: Sendable {
    public enum Environment: String, Sendable {
        case development, production
    }

    public enum Database: Sendable {
        case sqlite(path: String)
        case postgres(PostgresURL)
    }

    public var environment: Environment
    public var host: String
    public var port: Int
    public var dataDirectory: String
    public var database: Database
    /// The address users and apps reach the server at; the issuer of its tokens.
    public var publicURL: String
    /// Whether PORTVAKT_PUBLIC_URL was set; without it the sandbox names itself by the Host header.
    public var publicURLIsConfigured: Bool
    public var sandboxEnabled: Bool
    /// Whether development puts the sandbox's organisations and test people's member records into
    /// the database at start (`PORTVAKT_SEED`, on by default in development; `portvakt-server dev
    /// --no-seed` turns it off, to rehearse going live from an empty database). Never in production.
    public var developmentSeed = false
    /// The sandbox admin API's bearer token; nil means "generate one into the data directory".
    public var sandboxAdminToken: String?
    /// Sandbox faults switched on at start.
    public var sandboxFaults: [SandboxProvider: FaultSettings]
    public var logLevel: Logger.Level
    public enum LogFormat: String, Sendable { case text, json }
    public var logFormat: LogFormat = .text
    /// Whether spans are exported over OTLP/HTTP: the OpenTelemetry variables `OTEL_TRACES_EXPORTER=otlp`
    /// (`none` or unset: off, and no tracing work at all) and `OTEL_SDK_DISABLED`; where to and as
    /// what service the exporter reads from `OTEL_EXPORTER_OTLP_*` and `OTEL_SERVICE_NAME` itself.
    public var tracing = false
    /// How long to keep retrying an unreachable database at start-up before giving up.
    public var databaseWait: Duration
    /// `id=base64,…` encryption keys and the base64 blind-index key; nil in development means
    /// "use the generated development keys".
    public var encryptionKeys: String?
    public var indexKey: String?
    /// `id=base64,…` keys sealing the audit chain (the first seals new events); nil: one key
    /// derived from the index key.
    public var auditKeys: String?
    /// Vipps and BankID as configured; a provider left out is served by the sandbox when it is
    /// on, and unavailable otherwise.
    public var upstreams: [IdentityProvider: UpstreamSettings]
    public var upstreamTimeout: Duration
    /// The BankID order API; without it, the sandbox's when the sandbox is on.
    public var bankIDOrderAPI: BankIDOrderSettings?
    /// How long an order start may wait for the provider.
    public var bankIDOrderStartTimeout: Duration
    public var lifetimes: SessionLifetimes
    /// The bcrypt cost of new password hashes.
    public var bcryptCost: Int
    /// Organisations' own member systems; in development the sandbox's for the others.
    public var memberSystems: [MemberSystemSettings] = []
    /// Delivery attempts of a member update before it is dead.
    public var outboxMaxAttempts: Int = 8
    /// `/metrics` on the main port behind this bearer token, and/or on a port of its own.
    public var metricsToken: String?
    public var metricsPort: Int?
    /// The address the token-less metrics port binds: loopback unless the operator says otherwise.
    public var metricsHost = "127.0.0.1"
    /// BankID orders one client address may start within ten minutes.
    public var bankIDOrdersPerAddress = 20
    /// `PORTVAKT_BANKID_ACR_VALUES`: the level asked of BankID at sign-in (`urn:bankid:bis`:
    /// BankID with biometrics, substantial); nil: BankID's default (high).
    public var bankIDACRValues: String?
    /// `PORTVAKT_HIGH_ASSURANCE_ORGANISATIONS`: organisations (slugs) whose administrators'
    /// step-ups need BankID's high level; their step-up logins ask BankID for it.
    public var highAssuranceOrganisations: Set<String> = []

    /// `upstream` with the levels of assurance to ask BankID for: the configured `acr_values` at
    /// sign-in, and BankID's high level (`urn:bankid:bid`) at step-ups when an organisation needs it.
    func withAssuranceLevels(_ upstream: UpstreamSettings) -> UpstreamSettings {
        guard upstream.provider == .bankid else { return upstream }
        var upstream = upstream
        upstream.acrValues = bankIDACRValues
        if !highAssuranceOrganisations.isEmpty { upstream.stepUpACRValues = "urn:bankid:bid" }
        return upstream
    }
    /// `serve --start-without-providers`: a provider that is away or misconfigured at start is
    /// logged, not a reason to stop (production stops by default, exit 78).
    public var startsWithoutProviders = false
    /// What development start-up says before it starts: settings it does not know, which
    /// production refuses.
    public var warnings: [String] = []
    /// How long a shutdown waits for requests and deliveries in flight.
    public var shutdownTimeout: Duration = .seconds(30)
    /// Proxies whose `Forwarded`/`X-Forwarded-For` headers are believed.
    var trustedProxies: [IPNetwork] = []
    /// The one header those proxies write; the other is ignored.
    var proxyHeader: ProxyHeader = .xForwardedFor
    /// The header the trusted proxies pass a trace on in; nil: none is continued from them.
    var proxyTraceHeader: String?
    /// The relying parties (`PORTVAKT_CLIENTS_FILE`; without it the development clients in
    /// development and none in production), with those named in `PORTVAKT_LEGACY_CLIENTS`
    /// allowed to go without PAR and DPoP for app versions from before them (audited each time).
    var clients: [AppClient] = AppClient.development
    /// `PORTVAKT_CLIENTS_FILE`, which production requires: an upgrade that forgot it would
    /// otherwise start with no app to sign in to.
    var clientsFile: String?
    /// Where mail goes (`PORTVAKT_SMTP_URL`, `PORTVAKT_MAIL_FROM`); nil: the sandbox's mailbox in
    /// development, no delivery otherwise.
    var smtp: SMTPSettings?

    static let names: Set<String> = Set([
        "PORTVAKT_ENV", "PORTVAKT_HOST", "PORTVAKT_PORT", "PORTVAKT_DATA_DIR", "DATABASE_URL", "PORTVAKT_PUBLIC_URL",
        "PORTVAKT_SANDBOX", "PORTVAKT_LOG_LEVEL", "PORTVAKT_DATABASE_WAIT_SECONDS", "PORTVAKT_DATABASE_POOL_SIZE", "PORTVAKT_ENCRYPTION_KEYS",
        "PORTVAKT_INDEX_KEY", "PORTVAKT_AUDIT_KEY", "PORTVAKT_SANDBOX_ADMIN_TOKEN", "PORTVAKT_SANDBOX_FAULTS",
        "PORTVAKT_VIPPS_DISCOVERY_URL", "PORTVAKT_VIPPS_CLIENT_ID", "PORTVAKT_VIPPS_CLIENT_SECRET",
        "PORTVAKT_BANKID_DISCOVERY_URL", "PORTVAKT_BANKID_CLIENT_ID", "PORTVAKT_BANKID_CLIENT_SECRET", "PORTVAKT_BANKID_PRIVATE_KEY",
        "PORTVAKT_UPSTREAM_TIMEOUT_SECONDS", "PORTVAKT_ACCESS_TOKEN_SECONDS", "PORTVAKT_SESSION_IDLE_SECONDS",
        "PORTVAKT_SESSION_ABSOLUTE_SECONDS", "PORTVAKT_SSO_IDLE_SECONDS", "PORTVAKT_SSO_ABSOLUTE_SECONDS", "PORTVAKT_BCRYPT_COST",
        "PORTVAKT_BANKID_ORDER_START_TIMEOUT_MS", "PORTVAKT_DEVICE_TRUST_DAYS", "PORTVAKT_STEP_UP_SECONDS", "PORTVAKT_OUTBOX_MAX_ATTEMPTS",
        "PORTVAKT_TRUSTED_PROXIES", "PORTVAKT_SHUTDOWN_SECONDS", "PORTVAKT_LOG_FORMAT", "PORTVAKT_METRICS_TOKEN", "PORTVAKT_METRICS_PORT", "PORTVAKT_METRICS_HOST", "PORTVAKT_BANKID_ORDERS_PER_ADDRESS", "PORTVAKT_BANKID_ACR_VALUES", "PORTVAKT_HIGH_ASSURANCE_ORGANISATIONS",
        "PORTVAKT_LEGACY_CLIENTS", "PORTVAKT_PROXY_HEADER", "PORTVAKT_PROXY_TRACE_HEADER", "PORTVAKT_SEED", ClientsFile.setting, "OTEL_TRACES_EXPORTER", "OTEL_SDK_DISABLED", "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_TRACES_SAMPLER", "OTEL_PROPAGATORS",
        "OTEL_BSP_SCHEDULE_DELAY", "OTEL_BSP_EXPORT_TIMEOUT", "OTEL_BSP_MAX_QUEUE_SIZE", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
    ]).union(BankIDOrderSettings.names).union(MemberSystemSettings.names).union(SMTPSettings.names)

    /// Every setting the server reads by name (docs/configuration.md lists them; a test holds the two together).
    public static var knownSettings: Set<String> { names }

    /// Reads the settings for `mode` from `environment` (and the file `PORTVAKT_CONFIG_FILE`
    /// names). The mode is the command's (`serve` production, `dev` development); PORTVAKT_ENV,
    /// when set, must agree with it.
    /// - Throws: ``ConfigurationError`` with one line naming the setting that is wrong or missing.
    public static func load(
        _ mode: Environment, from environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> ServerConfiguration {
        let settings = try SettingsSource(environment: environment, knownNames: names)
        // A misspelt setting would otherwise leave its default in force without a word.
        let unknown = settings.unknownNames.map { name in
            "\(name) is not a setting Portvakt reads" + (settings.likelyMeant(name).map { " (did you mean \($0)?)" } ?? "")
        } + settings.unknownCredentials.map { name in
            "the credential \(name) in CREDENTIALS_DIRECTORY is not a secret Portvakt reads" + (SettingsSource.nearestSecret(to: name).map { " (did you mean \($0)?)" } ?? "")
        }
        if mode == .production, !unknown.isEmpty {
            throw ConfigurationError(unknown.joined(separator: "; ") + "; docs/configuration.md lists the settings")
        }

        let stated = try settings.parse("PORTVAKT_ENV", default: mode, expected: "development or production") { Environment(rawValue: $0.lowercased()) }
        guard stated == mode else {
            throw ConfigurationError("PORTVAKT_ENV is \(stated.rawValue), but this command runs in \(mode.rawValue) mode (`portvakt-server serve` is production, `portvakt-server dev` development)")
        }
        // Kubernetes sets PORTVAKT_PORT=tcp://… for a Service named portvakt (a service link).
        for name in ["PORTVAKT_PORT", "PORTVAKT_METRICS_PORT"] where settings[name]?.hasPrefix("tcp://") == true {
            throw ConfigurationError("\(name) is a Kubernetes service link (tcp://…), not a port: set enableServiceLinks: false on the pod, or name the Service otherwise")
        }
        let host = settings["PORTVAKT_HOST"] ?? "127.0.0.1"
        let port = try settings.parse("PORTVAKT_PORT", default: 8080, expected: "a port number from 0 to 65535") { Int($0).flatMap { (0...65535).contains($0) ? $0 : nil } }
        let dataDirectory = settings["PORTVAKT_DATA_DIR"] ?? "./.portvakt"
        let database: Database
        if let url = settings["DATABASE_URL"] {
            var postgres: PostgresURL
            do {
                postgres = try PostgresURL(url)
            } catch {
                throw ConfigurationError("DATABASE_URL \(error.description)")
            }
            postgres.poolSize = try settings.parse("PORTVAKT_DATABASE_POOL_SIZE", default: 20, expected: "a number of connections from 1 to 500") {
                Int($0).flatMap { (1...500).contains($0) ? $0 : nil }
            }
            database = .postgres(postgres)
            // Development seeds the sandbox's test people and uses development keys: never into
            // a database that may be another's.
            if mode == .development, case .postgres(let postgres) = database, !postgres.isSocket, !LoopbackHost.isLoopback(postgres.host) {
                throw ConfigurationError("DATABASE_URL names \(postgres.host), which is not this machine: development mode (`portvakt-server dev`, `--dev`) runs only against a database on a loopback address, because it seeds test people and uses development keys; a shared database is for `portvakt-server serve`")
            }
        } else {
            database = .sqlite(path: (dataDirectory as NSString).appendingPathComponent("portvakt.sqlite"))
        }
        // WebAuthn needs a domain as its RP ID, never an IP address: development on this machine
        // names itself localhost (S18.5).
        let defaultURL = mode == .development && LoopbackHost.isLoopback(host) ? "http://localhost:\(port)" : "http://\(host):\(port)"
        let publicURL = try settings.parse("PORTVAKT_PUBLIC_URL", default: defaultURL, expected: "an http(s) URL with a host") { text in
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else { return nil }
            return text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        let sandbox = try settings.parse("PORTVAKT_SANDBOX", default: mode == .development, expected: "on or off", parseFlag)
        let adminToken: String? = try settings.parse("PORTVAKT_SANDBOX_ADMIN_TOKEN", default: nil, expected: "at least 16 characters") { text -> String?? in
            text.count >= 16 ? .some(text) : .none
        }
        let faults = try settings.parse("PORTVAKT_SANDBOX_FAULTS", default: [:], expected: "a list like vipps:outage,bankid:slow (docs/sandbox.md lists the faults)") {
            SandboxConfiguration.parseFaults($0)
        }
        let logLevel = try settings.parse("PORTVAKT_LOG_LEVEL", default: Logger.Level.info, expected: "trace, debug, info, notice, warning, error or critical") { Logger.Level(rawValue: $0.lowercased()) }
        let wait = try settings.parse("PORTVAKT_DATABASE_WAIT_SECONDS", default: 30, expected: "a whole number of seconds") { Int($0).flatMap { $0 >= 0 ? $0 : nil } }

        let seconds = { (name: String, fallback: Int, range: ClosedRange<Int>) throws(ConfigurationError) -> Int in
            try settings.parse(name, default: fallback, expected: "a whole number of seconds from \(range.lowerBound) to \(range.upperBound)") {
                Int($0).flatMap { range.contains($0) ? $0 : nil }
            }
        }
        var lifetimes = SessionLifetimes(
            accessToken: TimeInterval(try seconds("PORTVAKT_ACCESS_TOKEN_SECONDS", 600, 60...3600)),
            idle: TimeInterval(try seconds("PORTVAKT_SESSION_IDLE_SECONDS", 14 * 86400, 1...365 * 86400)),
            absolute: TimeInterval(try seconds("PORTVAKT_SESSION_ABSOLUTE_SECONDS", 90 * 86400, 1...365 * 86400))
        )
        lifetimes.deviceTrust = TimeInterval(86400 * (try settings.parse("PORTVAKT_DEVICE_TRUST_DAYS", default: 90, expected: "a whole number of days from 1 to 365") {
            Int($0).flatMap { (1...365).contains($0) ? $0 : nil }
        }))
        lifetimes.stepUp = TimeInterval(try seconds("PORTVAKT_STEP_UP_SECONDS", 120, 30...600))
        lifetimes.browserIdle = TimeInterval(try seconds("PORTVAKT_SSO_IDLE_SECONDS", 2 * 3600, 60...7 * 86400))
        lifetimes.browserAbsolute = TimeInterval(try seconds("PORTVAKT_SSO_ABSOLUTE_SECONDS", 12 * 3600, 60...30 * 86400))
        let upstreamTimeout = try seconds("PORTVAKT_UPSTREAM_TIMEOUT_SECONDS", 5, 1...60)
        let startTimeout = try settings.parse("PORTVAKT_BANKID_ORDER_START_TIMEOUT_MS", default: 1500, expected: "milliseconds from 100 to 10000") {
            Int($0).flatMap { (100...10_000).contains($0) ? $0 : nil }
        }
        let minimumCost = mode == .production ? 10 : 4
        let bcryptCost = try settings.parse("PORTVAKT_BCRYPT_COST", default: 12, expected: "a bcrypt cost from \(minimumCost) to 16") {
            Int($0).flatMap { (minimumCost...16).contains($0) ? $0 : nil }
        }

        let outboxAttempts = try settings.parse("PORTVAKT_OUTBOX_MAX_ATTEMPTS", default: 8, expected: "a number of attempts from 1 to 50") {
            Int($0).flatMap { (1...50).contains($0) ? $0 : nil }
        }
        var configuration = ServerConfiguration(
            environment: mode, host: host, port: port, dataDirectory: dataDirectory, database: database,
            publicURL: publicURL, publicURLIsConfigured: settings["PORTVAKT_PUBLIC_URL"] != nil,
            sandboxEnabled: sandbox, sandboxAdminToken: adminToken, sandboxFaults: faults, logLevel: logLevel, databaseWait: .seconds(wait),
            encryptionKeys: settings["PORTVAKT_ENCRYPTION_KEYS"], indexKey: settings["PORTVAKT_INDEX_KEY"],
            upstreams: try UpstreamSettings.load(from: settings), upstreamTimeout: .seconds(upstreamTimeout),
            bankIDOrderAPI: try BankIDOrderSettings.load(from: settings, environment: mode, startTimeout: .milliseconds(startTimeout)),
            bankIDOrderStartTimeout: .milliseconds(startTimeout), lifetimes: lifetimes, bcryptCost: bcryptCost
        )
        configuration.warnings = unknown
        // libpq's default (prefer) to another machine encrypts without checking whom it talks to,
        // and falls back to plain text: said, never silently (the meaning stays libpq's).
        if mode == .production, case .postgres(let postgres) = database, !postgres.isSocket, !LoopbackHost.isLoopback(postgres.host),
           ![.verifyCA, .verifyFull].contains(postgres.tls), !(postgres.tls == .require && postgres.rootCertificateFile != nil) {
            configuration.warnings.append("DATABASE_URL reaches \(postgres.host) with sslmode=\(postgres.tls.rawValue), which does not check the server's certificate: an attacker on the path could read or change what Portvakt stores; use sslmode=verify-full (with sslrootcert for a private CA)")
        }
        if let orders = configuration.bankIDOrderAPI {
            if let warning = orders.certificateWarning(now: Date()) { configuration.warnings.append(warning) }
            if let expiry = orders.certificateExpiry, expiry <= Date() { configuration.bankIDOrderAPI = nil }
            if mode == .production, case .clientCertificate = orders.authentication, !orders.trustsOwnAuthority {
                configuration.warnings.append("PORTVAKT_BANKID_ORDER_CA_FILE is not set: the order API's certificate is checked against the system's trusted certificates, not BankID's own CA")
            }
        }
        configuration.developmentSeed = try settings.parse("PORTVAKT_SEED", default: mode == .development, expected: "on or off", parseFlag)
        configuration.memberSystems = try MemberSystemSettings.load(from: settings)
        configuration.smtp = try SMTPSettings.load(from: settings)
        configuration.outboxMaxAttempts = outboxAttempts
        configuration.auditKeys = settings["PORTVAKT_AUDIT_KEY"]
        configuration.metricsToken = try settings.parse("PORTVAKT_METRICS_TOKEN", default: nil, expected: "at least 16 characters") { text -> String?? in
            text.count >= 16 ? .some(text) : .none
        }
        configuration.metricsPort = try settings.parse("PORTVAKT_METRICS_PORT", default: nil, expected: "a port number from 0 to 65535") { text -> Int?? in
            Int(text).flatMap { (0...65535).contains($0) ? .some($0) : .none }
        }
        configuration.metricsHost = settings["PORTVAKT_METRICS_HOST"] ?? "127.0.0.1"
        configuration.bankIDOrdersPerAddress = try settings.parse("PORTVAKT_BANKID_ORDERS_PER_ADDRESS", default: 20, expected: "a number of orders from 1 to 100000") {
            Int($0).flatMap { (1...100_000).contains($0) ? $0 : nil }
        }
        if let acr = settings["PORTVAKT_BANKID_ACR_VALUES"], !acr.isEmpty {
            guard acr.count <= 200, acr.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ":;=._- ".contains($0)) }) else {
                throw ConfigurationError("PORTVAKT_BANKID_ACR_VALUES must be BankID acr values such as urn:bankid:bis")
            }
            configuration.bankIDACRValues = acr
        }
        configuration.highAssuranceOrganisations = Set((settings["PORTVAKT_HIGH_ASSURANCE_ORGANISATIONS"] ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
        configuration.logFormat = try settings.parse("PORTVAKT_LOG_FORMAT", default: .text, expected: "text or json") { LogFormat(rawValue: $0.lowercased()) }
        let sdkDisabled = try settings.parse("OTEL_SDK_DISABLED", default: false, expected: "true or false") { ["true": true, "false": false][$0.lowercased()] }
        let exporter = try settings.parse("OTEL_TRACES_EXPORTER", default: "none", expected: "otlp or none (OTLP over HTTP is the exporter built in)") { text in
            ["otlp", "none"].contains(text.lowercased()) ? text.lowercased() : nil
        }
        configuration.tracing = exporter == "otlp" && !sdkDisabled
        // swift-otel stops the process on a protocol it was built without (gRPC), on the samplers
        // and propagators it lacks (Jaeger, X-Ray, B3, baggage), and hangs on an empty batch:
        // refuse them here, with one line.
        _ = try settings.parse("OTEL_PROPAGATORS", default: "tracecontext", expected: "tracecontext or none (W3C Trace Context is the propagator built in)") { text in
            text.split(separator: ",").allSatisfy { ["tracecontext", "none"].contains($0) } ? text : nil
        }
        for name in ["OTEL_BSP_SCHEDULE_DELAY", "OTEL_BSP_EXPORT_TIMEOUT", "OTEL_BSP_MAX_QUEUE_SIZE", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE"] {
            _ = try settings.parse(name, default: 1, expected: "a whole number above 0") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        }
        if let size = settings["OTEL_BSP_MAX_EXPORT_BATCH_SIZE"].flatMap(Int.init), size > (settings["OTEL_BSP_MAX_QUEUE_SIZE"].flatMap(Int.init) ?? 2048) {
            throw ConfigurationError("OTEL_BSP_MAX_EXPORT_BATCH_SIZE must not be above OTEL_BSP_MAX_QUEUE_SIZE (2048 unless set)")
        }
        _ = try settings.parse("OTEL_TRACES_SAMPLER", default: "parentbased_always_on", expected: "always_on, always_off, traceidratio or parentbased_always_on, _always_off, _traceidratio") { text in
            ["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"].contains(text) ? text : nil
        }
        for name in ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] {
            _ = try settings.parse(name, default: "http/protobuf", expected: "http/protobuf or http/json (OTLP over gRPC is not built in)") { text in
                ["http/protobuf", "http/json"].contains(text) ? text : nil
            }
        }
        configuration.shutdownTimeout = .seconds(try seconds("PORTVAKT_SHUTDOWN_SECONDS", 30, 1...600))
        configuration.trustedProxies = try settings.parse("PORTVAKT_TRUSTED_PROXIES", default: [], expected: "a list of addresses or CIDR blocks, like 10.0.0.0/8,fd00::/8") { text in
            let networks = text.split(separator: ",").map { IPNetwork($0.trimmingCharacters(in: .whitespaces)) }
            return networks.contains(nil) ? nil : networks.compactMap { $0 }
        }
        configuration.proxyHeader = try settings.parse("PORTVAKT_PROXY_HEADER", default: .xForwardedFor, expected: "x-forwarded-for or forwarded (the one header the trusted proxies write)") {
            ProxyHeader(rawValue: $0.lowercased())
        }
        configuration.proxyTraceHeader = try settings.parse(
            "PORTVAKT_PROXY_TRACE_HEADER", default: nil as String?, expected: "a header name, like x-proxy-traceparent (the header the trusted proxies set, never the client's)"
        ) { text -> String?? in
            let name = text.trimmingCharacters(in: .whitespaces).lowercased()
            return !name.isEmpty && name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) ? .some(name) : .none
        }
        configuration.clientsFile = settings[ClientsFile.setting]
        var clients = if let path = configuration.clientsFile {
            try ClientsFile.load(path: path, environment: mode, credentials: environment["CREDENTIALS_DIRECTORY"])
        } else {
            mode == .development ? AppClient.development : []
        }
        let strict = clients.filter { $0.requiresDPoP || $0.requiresPushedRequests }.map(\.id)
        let legacy = try settings.parse("PORTVAKT_LEGACY_CLIENTS", default: Set<String>(), expected: "a list of client ids that require PAR or DPoP: \(strict.joined(separator: ","))") { text in
            let ids = Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
            return ids.isSubset(of: strict) ? ids : nil
        }
        for index in clients.indices where legacy.contains(clients[index].id) { clients[index].legacy = true }
        configuration.clients = clients
        try configuration.checkProductionRules()
        return configuration
    }

    /// Production runs only with real keys, a database of its own, an address users reach over
    /// https, and never with the simulated identity providers or their test people.
    private func checkProductionRules() throws(ConfigurationError) {
        guard environment == .production else { return }
        var missing: [String] = []
        if encryptionKeys == nil { missing.append("PORTVAKT_ENCRYPTION_KEYS") }
        if indexKey == nil { missing.append("PORTVAKT_INDEX_KEY") }
        if case .sqlite = database { missing.append("DATABASE_URL") }
        if !publicURLIsConfigured { missing.append("PORTVAKT_PUBLIC_URL") }
        if clientsFile == nil { missing.append(ClientsFile.setting) }
        guard missing.isEmpty else {
            throw ConfigurationError("production needs \(missing.joined(separator: ", ")) (docs/operations.md, \"Running in production\"); to try Portvakt with the sandbox and development keys, run `portvakt-server dev`")
        }
        if sandboxEnabled {
            throw ConfigurationError("PORTVAKT_SANDBOX must be off in production (the sandbox runs only under `portvakt-server dev`)")
        }
        if developmentSeed {
            throw ConfigurationError("PORTVAKT_SEED must be off in production (only `portvakt-server dev` seeds the sandbox's test people)")
        }
        // The provider's discovery (which names every endpoint after it), the order API and the
        // member systems carry secrets and personnummer: plain http only to this machine.
        var urls = [("PORTVAKT_PUBLIC_URL", publicURL)]
        for provider in [IdentityProvider.vipps, .bankid] {
            if let upstream = upstreams[provider] { urls.append(("PORTVAKT_\(provider.rawValue.uppercased())_DISCOVERY_URL", upstream.discoveryURL)) }
        }
        if let orders = bankIDOrderAPI { urls.append(("PORTVAKT_BANKID_ORDER_API_URL", orders.baseURL)) }
        urls += memberSystems.map { ("PORTVAKT_MEMBER_SYSTEMS (\($0.organisation))", $0.url) }
        for (name, text) in urls {
            if let url = URL(string: text), url.scheme != "https", !url.hasLoopbackHost {
                throw ConfigurationError("\(name) must be an https URL in production (http only on a loopback address)")
            }
        }
    }

    private static func parseFlag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "true", "yes", "on": true
        case "0", "false", "no", "off": false
        default: nil
        }
    }
}

extension SettingsSource {
    /// The parsed value of `name`, `defaultValue` when unset, or an error naming the setting.
    func parse<T>(_ name: String, default defaultValue: T, expected: String, _ parse: (String) -> T?) throws(ConfigurationError) -> T {
        guard let text = self[name] else { return defaultValue }
        guard let value = parse(text) else { throw ConfigurationError("\(name) must be \(expected)") }
        return value
    }
}
