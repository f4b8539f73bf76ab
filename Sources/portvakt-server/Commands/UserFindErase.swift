import ArgumentParser
import Foundation
import PortvaktServer

// `user find` and `user erase` (issue 45, item 4): subcommands of `user` (UserCommand.swift).

struct UserFind: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find accounts by email, phone or personnummer: id, name, memberships, disabled or not, open sessions, devices and passkeys.",
        discussion: """
        Give one of --email, --phone or --personnummer. A personnummer is looked up through its blind index only; \
        the output masks it (124385*****), and the email and phones partly. Member records that match but that no \
        account holds are listed after the accounts.
        """
    )

    @Option(help: "The email of the account or of a member record (any case).")
    var email: String?

    @Option(help: "A phone number on a member record: +4790000001, 0047 900 00 001 or 90000001 (8 digits are taken as Norwegian).")
    var phone: String?

    @Option(help: "- reads the eleven digits from standard input, which keeps them out of the shell's history and the process list (digits here only with --dev).")
    var personnummer: String?

    @OptionGroup var options: ModeOptions

    func validate() throws {
        guard [email, phone, personnummer].compactMap({ $0 }).count == 1 else {
            throw ValidationError("Give one of --email, --phone or --personnummer.")
        }
        if let personnummer, personnummer != "-", !options.dev {
            throw ValidationError("Give --personnummer - and type the number on standard input: a number on the command line stays in the shell's history and the process list.")
        }
    }

    func run() async throws {
        let search: UserSearch
        if let email {
            search = .email(email)
        } else if let phone {
            search = .phone(phone)
        } else if personnummer == "-" {
            search = .personnummer(readLine(strippingNewline: true) ?? "")
        } else {
            search = .personnummer(personnummer ?? "")
        }
        try await withOperatorStartup(options.mode) { configuration, logger in
            let found = try await PortvaktApplication.findUsers(configuration: configuration, logger: logger, by: search)
            for line in found.lines { print(line) }
        }
    }
}

struct UserErase: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase",
        abstract: "Erase an account (GDPR art. 17) when its organisation asks: its personal data goes, its audit events stay under an id that names nobody.",
        discussion: """
        Removed in one transaction: the account (name, email, password hash, personnummer), its BankID, Vipps and \
        password sign-ins, roles, sessions and portal sessions, devices, passkeys, activities, expense claims, \
        invitations, emails to its addresses and its audit events' client addresses. Kept for the organisation, \
        without the account: its member records (the member system's: end or delete them there), contacts and \
        member-sync entries. Without --yes, a dry run that says what would go and writes nothing. See PRIVACY.md, "Erasure".
        """
    )

    @Option(help: "The account's id (`user find` shows it).")
    var userId: String

    @Option(help: "A reference for the audit trail, such as the organisation's case number; never the person's name, email or phone (refused: it would stay for good).")
    var reason: String

    @Flag(help: "Erase. Without it, a dry run.")
    var yes = false

    @OptionGroup var options: ModeOptions

    func run() async throws {
        try await withOperatorStartup(options.mode) { configuration, logger in
            let report = try await PortvaktApplication.eraseUser(
                configuration: configuration, logger: logger, userID: userId, reason: reason, confirmed: yes
            )
            for line in report.lines { print(line) }
        }
    }
}
