import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

/// S16.1 as a person sees it: the app unlocked in front, then away in the background, then back.
struct Resume: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Unlock, then simulate the app going to the background for --away seconds and coming back (S16.1: after 5 minutes it asks for biometrics again)."
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "How long the app stays in the background, in seconds.")
    var away: Int

    func validate() throws {
        guard (0...86_400).contains(away) else { throw ValidationError("--away is 0 to 86400 seconds") }
    }

    func run() async throws {
        let cli = try CLI(global)
        let context = try await cli.signedInContext()
        let driver = cli.driver(context: context)
        await driver.send(.launched(context))
        guard case .home = await driver.machine.screen else {
            let machine = await driver.machine
            cli.output.screen(ScreenModel(machine, language: cli.language), OutcomeFields(ok: false, locked: false))
            if case .methodSelection = machine.screen { throw ExitCode.notLoggedIn }
            throw ExitCode.biometricFallback
        }
        // The scene phase, on ContinuousClock as the app reports it: the absence is simulated.
        let left = ContinuousClock.now
        await driver.send(.enteredBackground(left))
        await driver.send(.returnedToForeground(
            left.advanced(by: .seconds(away)), biometry: global.biometry.availability, at: Date().addingTimeInterval(TimeInterval(away))
        ))
        let machine = await driver.machine
        // Locked: a second check (the first was the launch's) came before home.
        let locked = await cli.biometrics.checks > 1
        let model = ScreenModel(machine, language: cli.language)
        if case .home = machine.screen {
            cli.output.screen(model, OutcomeFields(ok: true, locked: locked))
        } else {
            cli.output.screen(model, OutcomeFields(ok: false, locked: locked))
            throw ExitCode.biometricFallback
        }
    }
}
