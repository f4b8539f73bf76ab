import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Log in with BankID, Vipps or email and password.")

    enum Provider: String, ExpressibleByArgument, CaseIterable { case bankid, vipps, password }
    enum Outcome: String, ExpressibleByArgument, CaseIterable { case approve, cancel }

    @OptionGroup var global: GlobalOptions

    @Option(help: "bankid, vipps or password.")
    var provider: Provider = .bankid

    @Flag(help: "BankID on another device: the order starts at Portvakt and an animated QR code is shown here.")
    var bankidOnOtherDevice = false

    @Option(help: "Sandbox only: the test person (kari, ola, …) who logs in, with no browser.")
    var user: String?

    @Option(help: "Sandbox only: what the test person does at BankID or Vipps.")
    var outcome: Outcome = .approve

    @Option(help: "Email for --provider password (the password is asked for, or read from stdin).")
    var email: String?

    @Option(help: "S15, sandbox logins: when no member record is found, the email on your membership; a code is sent there and read from stdin. Without it the login ends as not registered.")
    var membershipEmail: String?

    @Flag(inversion: .prefixedNo, help: "Accept or decline the offer of biometric unlock after the login (default: ask, or decline without a terminal).")
    var enableBiometrics: Bool?

    @Option(help: "What to call this device in your list of devices (with the model beside it), when biometric unlock is turned on.")
    var deviceName: String?

    func run() async throws {
        let language = global.language
        let receiver = try await LoopbackReceiver.start(language: language)
        defer { Task { await receiver.stop() } }
        let cli = try CLI(global, redirectURI: receiver.redirectURI)
        let sandbox = user.map { (user: $0, action: outcome.rawValue) }
        let method: LoginMethod
        let mode: TerminalBrowser.Mode
        switch provider {
        case .password:
            guard let email = email ?? (Terminal.isInteractive ? Terminal.ask(CLIText.email.text(language)) : nil), !email.isEmpty else {
                throw ValidationError("--provider password needs --email")
            }
            method = .password
            mode = .password(email: email, password: Terminal.secret(CLIText.password.text(language)))
        case .bankid, .vipps:
            method = provider == .vipps ? .vipps : (bankidOnOtherDevice ? .bankIDOrder : .bankID)
            mode = sandbox.map { .sandbox(user: $0.user, action: $0.action) } ?? .system
        }
        let bankIDApp = TerminalBankIDApp(serverURL: cli.serverURL, sandbox: sandbox, otherDevice: bankidOnOtherDevice)
        let driver = cli.driver(
            context: await cli.context(), browser: TerminalBrowser(mode: mode, receiver: receiver, language: language, membershipEmail: membershipEmail), opener: bankIDApp
        )
        if let deviceName { await driver.nameThisDevice(deviceName) }

        if method == .bankIDOrder {
            try await OrderProgress(cli: cli, driver: driver, bankIDApp: bankIDApp).run()
        } else {
            await driver.send(.methodChosen(method))
        }
        try await Self.finish(driver: driver, cli: cli, enableBiometrics: enableBiometrics)
    }

    /// After the login: the enrolment offer (S4), then who is logged in and where home is (S1.3).
    static func finish(driver: AuthDriver, cli: CLI, enableBiometrics: Bool?) async throws {
        let language = cli.language
        if case .enrolmentOffer(let kind) = await driver.machine.screen {
            let offer = ScreenModel(await driver.machine, language: language)
            // Declined on the command line: the offer is not shown at all.
            if enableBiometrics != false {
                Terminal.status([offer.title, offer.banner ?? offer.message].compactMap { $0 }.joined(separator: "\n"))
            }
            let accept = kind != nil && (enableBiometrics ?? (Terminal.isInteractive && Terminal.confirm(offer.actions.first?.label ?? "")))
            await driver.send(accept ? .enrolmentAccepted : .enrolmentDeclined)
        }
        let machine = await driver.machine
        guard case .home = machine.screen else {
            cli.output.screen(ScreenModel(machine, language: language), OutcomeFields(ok: false))
            throw ExitCode.loginFailed
        }
        let me = try await cli.me()
        let summary = Status.summary(me, language: language)
        cli.output.screen(ScreenModel(machine, language: language), Merged(summary.object, OutcomeFields(ok: true)), more: summary.text)
    }
}
