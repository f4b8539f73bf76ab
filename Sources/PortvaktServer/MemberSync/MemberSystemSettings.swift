import Foundation
import PortvaktCore

/// An organisation's own member system: where Portvakt posts member updates and the secret it
/// signs them with. Configured as `PORTVAKT_MEMBER_SYSTEMS=nhf=https://…,hlf=https://…` and
/// `PORTVAKT_MEMBER_SYSTEM_SECRETS=nhf=…,hlf=…`.
public struct MemberSystemSettings: Sendable, Hashable {
    public let organisation: String
    public let url: String
    public let secret: String

    static let names = ["PORTVAKT_MEMBER_SYSTEMS", "PORTVAKT_MEMBER_SYSTEM_SECRETS"]

    static func load(from settings: SettingsSource) throws(ConfigurationError) -> [MemberSystemSettings] {
        let urls = try pairs(settings["PORTVAKT_MEMBER_SYSTEMS"], name: "PORTVAKT_MEMBER_SYSTEMS")
        let secrets = try pairs(settings["PORTVAKT_MEMBER_SYSTEM_SECRETS"], name: "PORTVAKT_MEMBER_SYSTEM_SECRETS")
        guard Set(urls.keys) == Set(secrets.keys) else {
            throw ConfigurationError("PORTVAKT_MEMBER_SYSTEMS and PORTVAKT_MEMBER_SYSTEM_SECRETS must name the same organisations")
        }
        return try urls.keys.sorted().map { slug throws(ConfigurationError) in
            guard let url = URL(string: urls[slug]!), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ConfigurationError("PORTVAKT_MEMBER_SYSTEMS: the URL for \(slug) must be an http(s) URL")
            }
            guard secrets[slug]!.count >= 16 else { throw ConfigurationError("PORTVAKT_MEMBER_SYSTEM_SECRETS: the secret for \(slug) must be at least 16 characters") }
            return MemberSystemSettings(organisation: slug, url: urls[slug]!, secret: secrets[slug]!)
        }
    }

    /// `slug=value,slug=value`.
    private static func pairs(_ text: String?, name: String) throws(ConfigurationError) -> [String: String] {
        var result: [String: String] = [:]
        for item in (text ?? "").split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, result.updateValue(parts[1], forKey: parts[0]) == nil else {
                throw ConfigurationError("\(name) must be a list like nhf=…,hlf=…")
            }
        }
        return result
    }
}

/// The member systems updates go to right now (the sandbox's join at start in development).
actor MemberSystemDirectory {
    private var systems: [String: MemberSystemSettings] = [:]

    init(_ configured: [MemberSystemSettings]) {
        for system in configured { systems[system.organisation] = system }
    }

    func set(_ system: MemberSystemSettings) {
        systems[system.organisation] = system
    }

    func system(for organisation: String) -> MemberSystemSettings? { systems[organisation] }
}
