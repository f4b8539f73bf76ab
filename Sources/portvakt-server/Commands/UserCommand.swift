import ArgumentParser
import Foundation
import PortvaktModels
import PortvaktServer

/// `portvakt-server user …`: one account at a time (issue 45, item 4). `find` and `erase` are in
/// `UserFindErase.swift`.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "One account: find it, disable or enable it, sign it out everywhere, or erase it.",
        subcommands: [UserFind.self, UserDisable.self, UserEnable.self, UserSignOut.self, UserErase.self]
    )
}

/// `--email` or `--user-id`: which account a command acts on.
struct UserOptions: ParsableArguments {
    @Option(help: "The email of the account (any case).")
    var email: String?

    @Option(help: "The account's id (`portvakt-server user find` shows it).")
    var userId: String?

    func validate() throws {
        guard (email == nil) != (userId == nil) else { throw ValidationError("Give one of --email or --user-id.") }
    }

    var reference: UserReference {
        if let userId { return .id(userId) }
        return .email(email ?? "")
    }
}

struct UserDisable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable",
        abstract: "Disable an account: every session and portal sign-in ends now, and every way in refuses it until `user enable`.",
        discussion: """
        BankID and Vipps (in the browser and by order), password, passkey, biometric unlock, step-up and refresh all \
        refuse the account with the same message ("Your account is disabled. Contact your coordinator."). Its phones \
        and passkeys are kept, refused while it is disabled, so `user enable` gives them back. Audited `user.disabled` \
        with the reason.
        """
    )

    @OptionGroup var user: UserOptions

    @Option(help: "Why, for the audit trail, such as a case number; it stays there for good, so never the person's name or email.")
    var reason: String

    @OptionGroup var options: ModeOptions

    func run() async throws {
        try await withOperatorStartup(options.mode) { configuration, logger in
            let report = try await PortvaktApplication.disableUser(configuration: configuration, logger: logger, user: user.reference, reason: reason)
            for line in report.lines { print(line) }
        }
    }
}

struct UserEnable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable",
        abstract: "Enable a disabled account: its phones and passkeys work again, and its next login opens a session.",
        discussion: "What ended when it was disabled stays ended: the person logs in again. Audited `user.enabled` with the reason."
    )

    @OptionGroup var user: UserOptions

    @Option(help: "Why, for the audit trail, such as a case number; never the person's name or email.")
    var reason: String

    @OptionGroup var options: ModeOptions

    func run() async throws {
        try await withOperatorStartup(options.mode) { configuration, logger in
            let report = try await PortvaktApplication.enableUser(configuration: configuration, logger: logger, user: user.reference, reason: reason)
            for line in report.lines { print(line) }
        }
    }
}

struct UserSignOut: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-out",
        abstract: "Sign an account out everywhere: every session (app, portal, biometric unlock) and portal sign-in ends now.",
        discussion: "The account stays usable: its next BankID, Vipps, password or passkey login, or biometric unlock, works. Audited `user.signed_out`."
    )

    @OptionGroup var user: UserOptions

    @Option(help: "Why, for the audit trail (optional); never the person's name or email.")
    var reason: String?

    @OptionGroup var options: ModeOptions

    func run() async throws {
        try await withOperatorStartup(options.mode) { configuration, logger in
            let report = try await PortvaktApplication.signOutUser(configuration: configuration, logger: logger, user: user.reference, reason: reason)
            for line in report.lines { print(line) }
        }
    }
}
