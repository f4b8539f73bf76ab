import ArgumentParser
import PortvaktProtocol

/// `portvakt`: Portvakt from a terminal, on the same SDK as the app.
@main
struct PortvaktCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "portvakt",
        abstract: "Log in to Portvakt with BankID, Vipps or password, unlock with (simulated) biometrics, and use the app's API.",
        discussion: """
        Exit codes: 0 done; 1 unexpected error; 2 wrong usage; 3 the login did not complete (cancelled, failed, provider \
        unavailable); 4 not logged in or the session has expired; 5 biometrics did not unlock (use BankID, Vipps or \
        password); 6 Portvakt could not be reached (writes stay queued); 7 the server refused (not allowed, step-up not given, not found).
        """,
        version: PortvaktVersion.described(commit: BuildCommit.hash),
        subcommands: [
            Login.self, Unlock.self, Resume.self, Status.self, Biometrics.self, StepUp.self, Activities.self, Sync.self, Devices.self, Logout.self,
        ]
    )
}
