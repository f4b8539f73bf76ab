import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Send the writes queued while offline, in order, each once (S12.4).")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Delete the writes another login left on this device (they are never sent as you).")
    var discardOtherLogins = false

    func run() async throws {
        let cli = try CLI(global)
        let context = try await cli.signedInContext()
        let driver = cli.driver(context: context)
        let user = await driver.currentUserID()
        let discarded = discardOtherLogins ? try await cli.queue.discardOtherLogins(than: user) : 0
        let report = try await driver.sync()
        let others = try await cli.queue.otherLogins(than: user)
        let waiting = try await cli.queue.pending().count - others
        let l = cli.language
        var text = [CLIText.sentRefusedWaiting.text(l, ["sent": String(report.sent.count), "refused": String(report.refused.count), "waiting": String(waiting)])]
        if others > 0 {
            text.append(CLIText.othersActivitiesFromAnotherLoginWait.text(l, ["others": String(others)]))
        }
        if discarded > 0 { text.append(CLIText.deletedDiscardedFromAnotherLogin.text(l, ["discarded": String(discarded)])) }
        cli.output.emit(
            SyncFields(sent: report.sent.count, refused: report.refused.count, waiting: waiting, otherLogins: others, discarded: discarded),
            text: text
        )
        if report.stopReason == .unavailable { throw ExitCode.offline }
    }
}

private struct SyncFields: Encodable {
    let sent: Int
    let refused: Int
    let waiting: Int
    let otherLogins: Int
    let discarded: Int

    enum CodingKeys: String, CodingKey {
        case sent, refused, waiting, otherLogins = "other_logins", discarded
    }
}
