import ArgumentParser
import Foundation
import PortvaktServer

struct SCIMTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scim-token",
        abstract: "Bearer tokens for the member systems' SCIM clients, each bound to one organisation.",
        subcommands: [Create.self, Revoke.self, List.self]
    )

    /// `--organisation SLUG --name TEXT`, shared by the subcommands that name one token.
    struct TokenOptions: ParsableArguments {
        @Option(help: "The organisation's slug (`organisation list` shows them).")
        var organisation: String

        @Option(help: "The token's name: the member system it is for, for example \"Medlemsregister\".")
        var name: String
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a token for a member system and print it: the only time it is shown (Portvakt keeps only its hash)."
        )

        @OptionGroup var token: TokenOptions
        @OptionGroup var options: ModeOptions

        func run() async throws {
            try await withOperatorStartup(options.mode) { configuration, logger in
                let text = try await PortvaktApplication.createSCIMToken(
                    configuration: configuration, logger: logger, organisation: token.organisation, name: token.name
                )
                print("SCIM token \"\(token.name)\" for \(token.organisation):")
                print(text)
                print("It is shown only now: Portvakt keeps only its hash. Enter it in the member system as its bearer token for \(configuration.publicURL)/scim/v2; a lost token is revoked (`scim-token revoke`) and a new one made.")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop a token at once: its member system's next request answers 401.")

        @OptionGroup var token: TokenOptions
        @OptionGroup var options: ModeOptions

        func run() async throws {
            try await withOperatorStartup(options.mode) { configuration, logger in
                try await PortvaktApplication.revokeSCIMToken(configuration: configuration, logger: logger, organisation: token.organisation, name: token.name)
                print("Revoked SCIM token \"\(token.name)\" of \(token.organisation).")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List an organisation's tokens (never their text): name, created, last used, revoked.")

        @Option(help: "The organisation's slug.")
        var organisation: String

        @OptionGroup var options: ModeOptions

        func run() async throws {
            try await withOperatorStartup(options.mode) { configuration, logger in
                let tokens = try await PortvaktApplication.scimTokens(configuration: configuration, logger: logger, organisation: organisation)
                guard !tokens.isEmpty else {
                    print("\(organisation) has no SCIM tokens: `portvakt-server scim-token create --organisation \(organisation) --name NAME` makes one.")
                    return
                }
                for token in tokens {
                    let used = token.lastUsedAt.map { "last used \(Day.text($0))" } ?? "never used"
                    print("\(token.name)  created \(Day.text(token.createdAt))  \(used)\(token.revoked ? "  REVOKED" : "")")
                }
            }
        }
    }
}
