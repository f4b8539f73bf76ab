import Dispatch
import Foundation
import PortvaktKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A BankID order in the terminal (S3): the animated QR code when the BankID app did not open,
/// a spinner with the time left, and Ctrl-C cancelling the order at Portvakt.
struct OrderProgress {
    let cli: CLI
    let driver: AuthDriver
    let bankIDApp: TerminalBankIDApp

    func run() async throws {
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT)
        let driver = driver
        interrupt.setEventHandler { Task { await driver.send(.cancelTapped) } }
        interrupt.resume()
        defer {
            interrupt.cancel()
            signal(SIGINT, SIG_DFL)
        }
        let display = Task { await draw() }
        await driver.send(.methodChosen(.bankIDOrder))
        display.cancel()
    }

    private func draw() async {
        let language = cli.language
        var scanned = false
        var shown = ""
        var frame = 0
        while !Task.isCancelled {
            let machine = await driver.machine
            guard case .bankIDOrder(let progress) = machine.screen else {
                // Not started yet (this task may run before the order's first transition), or over.
                if frame > 0 { return }
                try? await Task.sleep(for: .milliseconds(50))
                continue
            }
            let model = ScreenModel(machine, language: language)
            // The QR code the screen model carries, drawn as the app draws it (S3.5).
            let qr = model.qrCode?.halfBlocks() ?? ""
            if !scanned, let data = progress.qrData { scanned = await bankIDApp.scan(data) }
            let left = progress.startedAt.map { max(0, Int(AuthMachine.bankIDOrderLimit - Date().timeIntervalSince($0))) }
            let spinner = ["|", "/", "-", "\\"][frame % 4]
            let status = [model.banner, left.map { CLIText.secondsLeft.text(language, ["seconds": String($0)]) }, CLIText.ctrlCCancels.text(language)]
                .compactMap { $0 }.joined(separator: " · ")
            if Terminal.drawsInPlace {
                Terminal.status("\u{1B}[H\u{1B}[2J" + model.title + "\n" + qr + "\n" + spinner + " " + status)
            } else if model.title + (model.banner ?? "") != shown {
                // Not a terminal: each change once, no animation.
                shown = model.title + (model.banner ?? "")
                Terminal.status(model.title + (model.banner.map { ": " + $0 } ?? ""))
            }
            frame += 1
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
