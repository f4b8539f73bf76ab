import Foundation
import PortvaktCore

/// Raw settings by name: environment variables over an optional JSON file that uses the same
/// names (`{"PORTVAKT_PORT": 8080}`). Every value is read as text and parsed by the caller.
///
/// A secret setting (``secretNames``) may instead be a file of its own: `NAME_FILE` names it (the
/// container convention), or systemd puts it in `$CREDENTIALS_DIRECTORY/NAME`
/// (`LoadCredential=NAME:/path`). One line's end is taken off. Given two ways, it is an error.
///
/// Written by hand rather than with swift-configuration: Portvakt must tell a missing setting
/// from a malformed one and name the setting in one line, and refuse unknown names in the file.
struct SettingsSource: Sendable {
    static let fileSetting = "PORTVAKT_CONFIG_FILE"

    /// The settings that hold a secret (issue 46 item 3).
    static let secretNames: Set<String> = [
        "DATABASE_URL", "PORTVAKT_ENCRYPTION_KEYS", "PORTVAKT_INDEX_KEY", "PORTVAKT_AUDIT_KEY",
        "PORTVAKT_VIPPS_CLIENT_SECRET", "PORTVAKT_BANKID_CLIENT_SECRET", "PORTVAKT_BANKID_PRIVATE_KEY", "PORTVAKT_BANKID_ORDER_CLIENT_SECRET", "PORTVAKT_BANKID_ORDER_CLIENT_KEY",
        "PORTVAKT_MEMBER_SYSTEM_SECRETS", "PORTVAKT_SMTP_URL", "PORTVAKT_METRICS_TOKEN", "PORTVAKT_SANDBOX_ADMIN_TOKEN",
    ]

    private let values: [String: String]
    private let knownNames: Set<String>
    /// `PORTVAKT_*` and `OTEL_*` variables in the environment that nothing reads, sorted.
    let unknownNames: [String]
    /// `PORTVAKT_*` files in `$CREDENTIALS_DIRECTORY` that are no secret setting's name, sorted
    /// (a client's secret, named by `client_secret_credential`, has a name of its own).
    let unknownCredentials: [String]

    /// OpenTelemetry's variables that swift-otel reads itself, and those a platform sets for
    /// every service (the OpenTelemetry Operator's metrics and logs exporters among them), which
    /// Portvakt, exporting traces only, leaves alone.
    static let exporterNames: Set<String> = Set([
        "OTEL_SERVICE_NAME", "OTEL_RESOURCE_ATTRIBUTES", "OTEL_LOG_LEVEL", "OTEL_SWIFT_LOG_LEVEL", "OTEL_TRACES_SAMPLER_ARG",
        "OTEL_METRICS_EXPORTER", "OTEL_LOGS_EXPORTER", "OTEL_METRIC_EXPORT_INTERVAL", "OTEL_METRIC_EXPORT_TIMEOUT",
        "OTEL_BLRP_SCHEDULE_DELAY", "OTEL_BLRP_EXPORT_TIMEOUT", "OTEL_BLRP_MAX_QUEUE_SIZE", "OTEL_BLRP_MAX_EXPORT_BATCH_SIZE",
        "OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE", "OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION",
        "OTEL_SWIFT_METRICS_DEFAULT_DURATION_HISTOGRAM_BUCKETS", "OTEL_SWIFT_METRICS_DEFAULT_VALUE_HISTOGRAM_BUCKETS",
    ]).union(["", "TRACES_", "METRICS_", "LOGS_"].flatMap { scope in
        ["ENDPOINT", "HEADERS", "TIMEOUT", "COMPRESSION", "CERTIFICATE", "CLIENT_CERTIFICATE", "CLIENT_KEY", "INSECURE", "PROTOCOL"]
            .map { "OTEL_EXPORTER_OTLP_\(scope)\($0)" }
    })

    /// What a platform sets beside the settings: Kubernetes's service links for a Service named
    /// `portvakt…` (`PORTVAKT_SERVICE_HOST`, `PORTVAKT_PORT_8080_TCP_ADDR`) and the OpenTelemetry
    /// Operator's `OTEL_RESOURCE_ATTRIBUTES_POD_NAME`.
    static func isPlatformVariable(_ name: String) -> Bool {
        name.hasPrefix("OTEL_RESOURCE_ATTRIBUTES_")
            || name.firstMatch(of: /^PORTVAKT[A-Z0-9_]*_(SERVICE_HOST|SERVICE_PORT(_[A-Z0-9_]+)?|PORT_[0-9]+_(TCP|UDP|SCTP)(_[A-Z]+)?)$/) != nil
    }
    /// The `portvakt` command-line app's own variables, which may share a shell with the server.
    static let commandLineAppNames: Set<String> = ["PORTVAKT_SERVER", "PORTVAKT_BIOMETRY", "PORTVAKT_CLI_HOME"]

    /// - Parameters:
    ///   - environment: the process environment (or a test's).
    ///   - knownNames: the settings Portvakt reads; the file may hold no others.
    init(environment: [String: String], knownNames: Set<String>) throws(ConfigurationError) {
        var values: [String: String] = [:]
        if let path = environment[Self.fileSetting], !path.isEmpty {
            // OpenTelemetry's variables are read by its exporter from the environment alone.
            values = try Self.readFile(at: path, knownNames: knownNames.filter { !$0.hasPrefix("OTEL_") })
        }
        for name in knownNames {
            if let value = environment[name] { values[name] = value }
        }
        for name in Self.secretNames.intersection(knownNames).sorted() {
            if let value = try Self.secretFromFile(name, given: values[name], environment: environment) { values[name] = value }
        }
        self.values = values
        self.knownNames = knownNames
        let alsoRead = Self.exporterNames.union(Self.commandLineAppNames).union([Self.fileSetting])
            .union(Self.secretNames.map { $0 + "_FILE" })
        let credentials = environment["CREDENTIALS_DIRECTORY"].flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0) } ?? []
        // Only a near miss of a secret's name: a client's secret may have any name of its own.
        unknownCredentials = credentials.filter { name in
            name.hasPrefix("PORTVAKT_") && !Self.secretNames.contains(name) && Self.nearestSecret(to: name) != nil
        }.sorted()
        unknownNames = environment.keys
            .filter { ($0.hasPrefix("PORTVAKT_") || $0.hasPrefix("OTEL_")) && !knownNames.contains($0) && !alsoRead.contains($0) && !Self.isPlatformVariable($0) }
            .sorted()
    }

    /// The secret setting `name` most likely misspells, if one is near enough.
    static func nearestSecret(to name: String) -> String? {
        nearest(to: name, among: secretNames)
    }

    /// The known setting nearest to `name` by edits (a misspelling, a missing word), when one is
    /// near enough to be what was meant.
    func likelyMeant(_ name: String) -> String? {
        Self.nearest(to: name, among: knownNames.union(Self.exporterNames).union(Self.secretNames.map { $0 + "_FILE" }))
    }

    /// The candidate fewest edits from `name` (the first by name among equals), when it is within
    /// a quarter of the name's length (at least 3).
    private static func nearest(to name: String, among candidates: Set<String>) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in candidates.sorted() {
            let distance = EditDistance.between(candidate, name)
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(3, name.count / 4) else { return nil }
        return best.name
    }

    /// The secret `name` from `NAME_FILE` or the credentials directory; nil when neither has it.
    private static func secretFromFile(_ name: String, given: String?, environment: [String: String]) throws(ConfigurationError) -> String? {
        var ways: [(label: String, path: String)] = []
        if let path = environment[name + "_FILE"], !path.isEmpty { ways.append((name + "_FILE", path)) }
        if let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty {
            let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path) { ways.append(("the credential \(name) in CREDENTIALS_DIRECTORY", path)) }
        }
        if let given, !given.isEmpty { ways.insert((name, ""), at: 0) }
        guard ways.count <= 1 else {
            throw ConfigurationError("\(name) is given \(ways.count) ways (\(ways.map(\.label).joined(separator: ", "))): give it one way")
        }
        guard let way = ways.first, !way.path.isEmpty else { return nil }
        guard let text = secretFileText(at: way.path) else {
            throw ConfigurationError("\(way.label): cannot read the file \(way.path) as UTF-8 text")
        }
        guard !text.isEmpty else { throw ConfigurationError("\(way.label): the file \(way.path) is empty") }
        return text
    }

    /// A secret kept in a file of its own: its text with one line end (`\n` or `\r\n`) taken off;
    /// nil when the file cannot be read as UTF-8.
    static func secretFileText(at path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), let content = String(data: data, encoding: .utf8) else { return nil }
        var scalars = content.unicodeScalars
        if scalars.last == "\n" { scalars.removeLast(); if scalars.last == "\r" { scalars.removeLast() } }
        return String(scalars)
    }

    /// The value of `name`, nil when unset or empty.
    subscript(name: String) -> String? {
        assert(knownNames.contains(name), "\(name) is read but not among the known settings: it would never be read from the environment")
        guard let value = values[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    private static func readFile(at path: String, knownNames: Set<String>) throws(ConfigurationError) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("\(fileSetting): cannot read the file \(path)")
        }
        guard let object = try? JSONDecoder().decode([String: FileValue].self, from: data) else {
            throw ConfigurationError("\(fileSetting): \(path) is not a JSON object of setting names and text, number or boolean values")
        }
        var values: [String: String] = [:]
        for (name, value) in object {
            guard knownNames.contains(name) else {
                throw ConfigurationError("\(fileSetting): \(path) names an unknown setting \(name)")
            }
            values[name] = value.text
        }
        return values
    }

    /// A JSON value a setting may have in the file.
    private struct FileValue: Decodable {
        let text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self.text = text
            } else if let flag = try? container.decode(Bool.self) {
                self.text = flag ? "true" : "false"
            } else {
                self.text = String(try container.decode(Int.self))
            }
        }
    }
}
