import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

struct Unlock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Unlock with the device key and (simulated) biometrics; offline, the cached session opens.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let cli = try CLI(global)
        let context = try await cli.signedInContext()
        let driver = cli.driver(context: context)
        await driver.send(.launched(context))
        // S6: a miss leaves the unlock screen; the user tries again until the third sends them on.
        while case .unlock = await driver.machine.screen, await cli.biometrics.wantsAnotherTry() {
            Terminal.status(ScreenModel(await driver.machine, language: cli.language).message ?? "")
            await driver.send(.retryUnlock)
        }
        let machine = await driver.machine
        let model = ScreenModel(machine, language: cli.language)
        switch machine.screen {
        case .home(let notice):
            let done = CLIText.unlocked.text(cli.language)
            cli.output.screen(model, OutcomeFields(ok: true, offline: notice == .offline), more: [done])
        case .methodSelection:
            cli.output.screen(model, OutcomeFields(ok: false))
            throw ExitCode.notLoggedIn
        default:
            cli.output.screen(model, OutcomeFields(ok: false), more: model.message == nil ? [CLIText.notUnlocked.text(cli.language)] : [])
            throw ExitCode.biometricFallback
        }
    }
}
