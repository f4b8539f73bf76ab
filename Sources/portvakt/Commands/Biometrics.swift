import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

struct Biometrics: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Turn biometric unlock on or off, or set it up again (S7).")

    enum Change: String, ExpressibleByArgument, CaseIterable { case enable, disable, reenroll, status }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "enable, disable, reenroll or status.")
    var change: Change = .status

    func run() async throws {
        let cli = try CLI(global)
        let context = await cli.context()
        let driver = cli.driver(context: context)
        switch change {
        case .enable:
            guard context.hasSession else { throw cli.output.fail(.notLoggedIn, exit: .notLoggedIn) }
            await driver.send(.settingsEnableBiometrics)
        case .reenroll:
            guard context.hasSession else { throw cli.output.fail(.notLoggedIn, exit: .notLoggedIn) }
            await driver.send(.settingsReEnrol)
        case .disable:
            // The command is the confirmation (S7.2): asked for, then given.
            await driver.send(.settingsDisableRequested)
            await driver.send(.settingsDisableBiometrics)
            // This run ends now, so the session it kept in memory ends at the server too.
            await driver.endSession()
        case .status:
            break
        }
        let machine = await driver.machine
        let settings = BiometricSettingsModel(machine, language: cli.language)
        let message = notice(machine)
        var text = [settings.status]
        if let message, message != .faceIDEnabled, message != .fingerprintEnabled { text.insert(message.text(cli.language), at: 0) }
        cli.output.emit(
            BiometricsFields(
                biometrics: settings.status, enabled: machine.context.deviceKeyEnrolled, actions: settings.actions.map(\.id),
                message: message?.text(cli.language), messageID: message?.id
            ),
            text: text
        )
        if change == .enable || change == .reenroll, !machine.context.deviceKeyEnrolled { throw ExitCode.biometricFallback }
    }

    private func notice(_ machine: AuthMachine) -> UserMessage? {
        switch machine.screen {
        case .home(let message): message
        case .enrolmentOffer(nil): machine.context.biometry == .offForThisApp ? .biometricsOffForThisApp : .biometricsNotSetUp
        default: nil
        }
    }
}

private struct BiometricsFields: Encodable {
    /// The setting in words, such as "Enable biometric login".
    let biometrics: String
    let enabled: Bool
    let actions: [String]
    let message: String?
    let messageID: String?

    enum CodingKeys: String, CodingKey {
        case biometrics, enabled, actions, message, messageID = "message_id"
    }
}
