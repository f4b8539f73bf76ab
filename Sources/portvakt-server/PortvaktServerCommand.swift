import ArgumentParser
import PortvaktProtocol
import PortvaktServer

@main
struct PortvaktServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "portvakt-server",
        abstract: "Portvakt: BankID, Vipps and biometric login for the peer-mentor app.",
        discussion: "Settings come from environment variables and PORTVAKT_CONFIG_FILE; see docs/configuration.md.",
        version: PortvaktVersion.described(commit: BuildCommit.hash),
        subcommands: [Serve.self, Dev.self, Migrate.self, RotateSigningKey.self, RotateEncryptionKey.self, Reindex.self, SetPassword.self, MergeUsers.self, AuditCommand.self, SandboxCommand.self,
                      OrganisationCommand.self, MembersCommand.self, SCIMTokenCommand.self, UserCommand.self, BankIDCommand.self, MailCommand.self],
        defaultSubcommand: Serve.self
    )
}
