import ArgumentParser
import PortvaktServer

struct RotateSigningKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-signing-key",
        abstract: "Add new token signing keys (ES256 and RS256): published at once, signing after 90 seconds; older keys keep verifying for a day."
    )

    @OptionGroup var options: ModeOptions

    func run() async throws {
        try await withStartup(options.mode) { configuration, logger in
            for key in try await PortvaktApplication.rotateSigningKey(configuration: configuration, logger: logger) {
                print("New \(key.algorithm.rawValue) signing key: \(key.kid) (published now, signing in 90 seconds)")
            }
        }
    }
}
