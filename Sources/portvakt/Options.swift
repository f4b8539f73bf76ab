import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(help: "Portvakt's address (or PORTVAKT_SERVER).")
    var server: String = ProcessInfo.processInfo.environment["PORTVAKT_SERVER"] ?? "http://localhost:8080"

    @Option(help: "Where the session, device key and offline queue are kept, sealed (or PORTVAKT_CLI_HOME).")
    var home: String?

    @Option(help: "nb, nn or en (default: from LC_ALL / LANG).")
    var lang: Language?

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @Option(help: "The simulated device's biometrics: fingerprint, face, none, not-enrolled, locked-out, off-for-this-app (or PORTVAKT_BIOMETRY).")
    var biometry: SimulatedBiometry = SimulatedBiometry(rawValue: ProcessInfo.processInfo.environment["PORTVAKT_BIOMETRY"] ?? "") ?? .fingerprint

    @Option(help: "Answers of the simulated biometric checks, in order: pass, fail, cancel, invalidate, lockout (comma-separated). Without it a terminal asks y/n; otherwise checks pass.")
    var biometric: BiometricScript?

    var language: Language {
        if let lang { return lang }
        let environment = ProcessInfo.processInfo.environment
        let locale = environment["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["LANG"] ?? ""
        return Language(tag: locale) ?? .nb
    }

    var homeDirectory: URL {
        if let home { return URL(fileURLWithPath: home) }
        if let home = ProcessInfo.processInfo.environment["PORTVAKT_CLI_HOME"], !home.isEmpty { return URL(fileURLWithPath: home) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".portvakt-cli")
    }
}

extension Language: ExpressibleByArgument {}

/// What the simulated device offers, as ``BiometryAvailability``.
enum SimulatedBiometry: String, ExpressibleByArgument, CaseIterable {
    case fingerprint, face, none
    case notEnrolled = "not-enrolled"
    case lockedOut = "locked-out"
    case offForThisApp = "off-for-this-app"

    var availability: BiometryAvailability {
        switch self {
        case .fingerprint: .available(.fingerprint)
        case .face: .available(.face)
        case .none: .notAvailable
        case .notEnrolled: .notEnrolled
        case .lockedOut: .lockedOut
        case .offForThisApp: .offForThisApp
        }
    }
}

/// `pass,fail,cancel`: how the next biometric checks answer.
struct BiometricScript: ExpressibleByArgument {
    let outcomes: [BiometricFailure?]

    init?(argument: String) {
        var outcomes: [BiometricFailure?] = []
        for word in argument.split(separator: ",") {
            switch word.trimmingCharacters(in: .whitespaces) {
            case "pass": outcomes.append(nil)
            case "fail": outcomes.append(.failed)
            case "cancel": outcomes.append(.cancelled)
            case "invalidate": outcomes.append(.invalidated)
            case "lockout": outcomes.append(.lockout)
            default: return nil
            }
        }
        guard !outcomes.isEmpty else { return nil }
        self.outcomes = outcomes
    }
}
