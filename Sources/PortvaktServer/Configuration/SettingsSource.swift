import Foundation
import PortvaktCore

/// Raw settings by name: environment variables over an optional JSON file that uses the same
/// names (`{"PORTVAKT_PORT": 8080}`). Every value is read as text and parsed by the caller.
///
/// Written by hand rather than with swift-configuration: Portvakt must tell a missing setting
/// from a malformed one and name the setting in one line, and refuse unknown names in the file.
struct SettingsSource: Sendable {
    static let fileSetting = "PORTVAKT_CONFIG_FILE"

    private let values: [String: String]

    /// - Parameters:
    ///   - environment: the process environment (or a test's).
    ///   - knownNames: the settings Portvakt reads; the file may hold no others.
    init(environment: [String: String], knownNames: Set<String>) throws(ConfigurationError) {
        var values: [String: String] = [:]
        if let path = environment[Self.fileSetting], !path.isEmpty {
            values = try Self.readFile(at: path, knownNames: knownNames)
        }
        for name in knownNames {
            if let value = environment[name] { values[name] = value }
        }
        self.values = values
    }

    /// The value of `name`, nil when unset or empty.
    subscript(name: String) -> String? {
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
