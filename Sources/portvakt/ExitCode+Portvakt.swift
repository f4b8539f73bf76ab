import ArgumentParser

/// The documented exit codes (docs/cli.md): scripts tell the outcomes apart by these.
extension ExitCode {
    /// The login did not complete: cancelled, failed, or the provider is unavailable.
    static let loginFailed = ExitCode(3)
    /// Not logged in, or the session has expired: log in again.
    static let notLoggedIn = ExitCode(4)
    /// Biometrics did not unlock: use BankID, Vipps or password.
    static let biometricFallback = ExitCode(5)
    /// Portvakt could not be reached (writes stay queued).
    static let offline = ExitCode(6)
    /// The server refused: not allowed, step-up not given, not found.
    static let refused = ExitCode(7)
}
