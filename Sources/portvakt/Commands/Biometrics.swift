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

    @Flag(help: "enable, reenroll after the login's five minutes: confirm with your password (read from standard input when that is not a terminal); the key is then password-level. Without it, log in again with BankID or Vipps first.")
    var password = false

    @Option(help: "enable, reenroll: what to call this device in your list of devices (with the model beside it).")
    var deviceName: String?

    func run() async throws {
        let cli = try CLI(global)
        let context = await cli.context()
        let driver = cli.driver(context: context)
        if let deviceName { await driver.nameThisDevice(deviceName) }
        switch change {
        case .enable:
            guard context.hasSession else { throw cli.output.fail(.notLoggedIn, exit: .notLoggedIn) }
            await driver.send(.settingsEnableBiometrics)
        case .reenroll:
            guard context.hasSession else { throw cli.output.fail(.notLoggedIn, exit: .notLoggedIn) }
            await driver.send(.settingsReEnrol)
        case .disable, .status:
            break
        }
        // S7.3: past the login's few minutes the confirmation comes before any prompt; the
        // password goes on at once when given, otherwise the screen's ways on are printed.
        if case .enrolmentConfirmation = await driver.machine.screen, password || Terminal.isInteractive {
            let typed = Terminal.secret(CLIText.password.text(cli.language))
            if !typed.isEmpty { await driver.confirmEnrolment(password: typed) }
        }
        switch change {
        case .enable, .reenroll:
            break
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
        var status = settings.status
        var actions = settings.actions.map(\.id)
        if case .enrolmentConfirmation = machine.screen {
            // What the confirmation offers, for a script to go on with.
            let screen = ScreenModel(machine, language: cli.language)
            status = screen.banner ?? screen.title
            actions = screen.actions.map(\.id)
        }
        var text = [status]
        if let message, message != .faceIDEnabled, message != .fingerprintEnabled { text.insert(message.text(cli.language), at: 0) }
        cli.output.emit(
            BiometricsFields(
                biometrics: status, enabled: machine.context.deviceKeyEnrolled, actions: actions,
                message: message?.text(cli.language), messageID: message?.id
            ),
            text: text
        )
        if change == .enable || change == .reenroll, !machine.context.deviceKeyEnrolled { throw ExitCode.biometricFallback }
    }

    private func notice(_ machine: AuthMachine) -> UserMessage? {
        switch machine.screen {
        case .home(let message): message
        case .enrolmentConfirmation(_, let message): message ?? .recentLoginRequired
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
