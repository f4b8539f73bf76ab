import ArgumentParser
import Foundation
import PortvaktServer

struct SetPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-password",
        abstract: "Invite a member to email/password login, or change their password.",
        discussion: "Reads the password from standard input (one line). A member without an account gets one with the roles of the member records that carry the email."
    )

    @Option(help: "The member's email address, as on their member record.")
    var email: String

    @OptionGroup var options: ModeOptions

    func run() async throws {
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            FileHandle.standardError.write(Data("portvakt-server: give the password on standard input\n".utf8))
            throw ExitCode(64)
        }
        try await withOperatorStartup(options.mode) { configuration, logger in
            let id = try await PortvaktApplication.setPassword(configuration: configuration, logger: logger, email: email, password: line)
            print("Password set for user \(id).")
        }
    }
}
