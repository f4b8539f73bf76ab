import ArgumentParser
import PortvaktServer

/// `portvakt-server bankid public-key`: what to hand to BankID for `private_key_jwt`.
struct BankIDCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bankid",
        abstract: "BankID's registration: print the public key of PORTVAKT_BANKID_PRIVATE_KEY.",
        subcommands: [PublicKey.self]
    )

    struct PublicKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "public-key",
            abstract: "Print the public JWK Set of BankID's private_key_jwt key, to register with BankID (no secret in it)."
        )

        @OptionGroup var options: ModeOptions

        func run() async throws {
            try await withOperatorStartup(options.mode) { configuration, _ in
                print(try PortvaktApplication.bankIDPublicKeys(configuration: configuration))
            }
        }
    }
}

/// `portvakt-server mail test --to ADDRESS`: one mail through the SMTP settings, now.
struct MailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mail",
        abstract: "Mail: send a test message through PORTVAKT_SMTP_URL.",
        subcommands: [Test.self]
    )

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send one test mail now (not through the outbox); exit 69 with the server's answer when it refuses."
        )

        @Option(help: "Where to send it.") var to: String
        @OptionGroup var options: ModeOptions

        func run() async throws {
            try await withOperatorStartup(options.mode) { configuration, logger in
                try await PortvaktApplication.sendTestMail(configuration: configuration, to: to)
                print("The mail server took the test mail for \(to).")
            }
        }
    }
}
