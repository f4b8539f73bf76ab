import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Send the writes queued while offline, in order, each once (S12.4).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let cli = try CLI(global)
        let context = try await cli.signedInContext()
        let report = try await cli.driver(context: context).sync()
        let waiting = try await cli.queue.pending().count
        let l = cli.language
        cli.output.emit(
            ["sent": report.sent.count, "refused": report.refused.count, "waiting": waiting],
            text: [l.pick("Sendt: \(report.sent.count), avvist: \(report.refused.count), venter: \(waiting)",
                          "Sent: \(report.sent.count), refused: \(report.refused.count), waiting: \(waiting)")]
        )
        if report.stopReason == .unavailable { throw ExitCode.offline }
    }
}
