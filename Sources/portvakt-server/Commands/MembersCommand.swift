import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PortvaktServer

struct MembersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "Member records from the organisations' member systems.",
        subcommands: [Import.self]
    )

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Compare a member system's file with an organisation's member records; with --apply, write the differences.",
            discussion: """
            FILE is CSV (RFC 4180, UTF-8) whose first line names its columns, in any order: external_id (required), \
            given_name, family_name, email, phone, personnummer, role (peer_mentor, coordinator or org_admin; empty: \
            peer_mentor) and member_number; or JSON lines, one object per line with the same keys. A member's user name \
            is the member number, else the email. The file is the truth for what it names: an empty cell clears the \
            attribute (an empty personnummer removes the number on record; no personnummer column leaves the numbers as they are).

            Without --apply nothing is written: the command prints what it would add, change and remove. With --apply \
            everything is written in one transaction. A file with any bad line (each is printed with its line number) \
            writes nothing and exits 65. Running the same file again changes nothing.
            """
        )

        @Option(help: "The organisation's slug (`organisation list` shows them).")
        var organisation: String

        @Argument(help: "The member file, CSV or JSON lines; - reads standard input.")
        var file: String

        @Flag(help: "Write the changes. Without it, a dry run that writes nothing.")
        var apply = false

        @Flag(help: "End the records of members who are not in the file (their role goes at once). Without it they are left as they are.")
        var removeMissing = false

        @OptionGroup var options: ModeOptions

        func run() async throws {
            let data: Data
            let fileName: String
            do {
                if file == "-" {
                    data = FileHandle.standardInput.readDataToEndOfFile()
                    fileName = "standard input"
                } else {
                    data = try Data(contentsOf: URL(fileURLWithPath: file))
                    fileName = URL(fileURLWithPath: file).lastPathComponent
                }
            } catch {
                try refuse(.usage("cannot read \(file): \(error.localizedDescription)"))
            }
            var failed = false
            try await withOperatorStartup(options.mode) { configuration, logger in
                defer { ProgressLine.clear() }
                let report = try await PortvaktApplication.importMembers(
                    configuration: configuration, logger: logger, organisation: organisation, file: data, fileName: fileName,
                    apply: apply, removeMissing: removeMissing, progress: { ProgressLine.show($0) }
                )
                ProgressLine.clear()  // before the report's lines (the defer is for a refusal)
                guard report.errors.isEmpty else {
                    for line in report.errors { standardError(line) }
                    standardError(report.summary)
                    failed = true
                    return
                }
                for line in report.changes { print(line) }
                print(report.summary)
            }
            if failed { throw ExitCode(65) }
        }
    }
}

/// One line on standard error, redrawn in place, and only when standard error is a terminal:
/// a log file or a pipe gets none of it.
enum ProgressLine {
    static let isTerminal = isatty(STDERR_FILENO) == 1

    static func show(_ progress: MemberImportProgress) {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\r\(progress.description)\u{1B}[K".utf8))
    }

    static func clear() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
