import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

struct Activities: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Register activities (queued while offline) and list them.", subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Register an activity; offline it waits in the queue for `portvakt sync` (S12.1).")

        @OptionGroup var global: GlobalOptions
        @Option(help: "What kind of activity (visit, call, meeting, …).") var kind: String
        @Option(help: "Duration in minutes (1–1440).") var minutes: Int
        @Option(help: "A note.") var note: String?
        @Option(help: "When it happened (ISO 8601; default: now).") var at: String?
        @Option(help: "The organisation (slug); default: your first.") var organisation: String?

        func validate() throws {
            guard (1...1440).contains(minutes) else { throw ValidationError("--minutes must be 1–1440") }
            if let at, (try? Date(at, strategy: .iso8601)) == nil { throw ValidationError("--at must be an ISO 8601 time, such as 2026-11-22T10:00:00Z") }
        }

        func run() async throws {
            let cli = try CLI(global)
            let context = try await cli.signedInContext()
            let cached = await cli.cachedMe()
            guard let slug = organisation ?? cached?.organisations.first?.slug else {
                throw ValidationError("--organisation is needed (no cached organisation yet)")
            }
            let body = NewActivity(organisation: slug, kind: kind, occurredAt: at ?? Date().formatted(.iso8601), durationMinutes: minutes, note: note)
            // Every write goes through the queue, as this user's: sent now when the network is
            // there, kept otherwise, and only ever sent by this user's session.
            let driver = cli.driver(context: context)
            let write = QueuedWrite(
                path: "v1/activities", body: try JSONEncoder().encode(body), userID: await driver.currentUserID(), createdAt: Date()
            )
            try await cli.queue.enqueue(write)
            let report = try await driver.sync()
            let l = cli.language
            if report.sent.contains(write.id) {
                cli.output.emit(Registered(ok: true, id: write.id, queued: false), text: [CLIText.theActivityWasRegistered.text(l)])
            } else if report.refused.contains(write.id) {
                throw cli.output.fail(.notAllowed, exit: .refused)
            } else {
                cli.output.emit(Registered(ok: true, id: write.id, queued: true), text: [
                    CLIText.savedOnThisDevicePortvaktSync.text(l),
                ])
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The activities you may see, and those still waiting to be sent.")

        @OptionGroup var global: GlobalOptions
        @Option(help: "Only this organisation (slug).") var organisation: String?

        func run() async throws {
            let cli = try CLI(global)
            _ = try await cli.signedInContext()
            let waiting = try await cli.queue.pending(of: await cli.tokens.userID()).filter { $0.path == "v1/activities" }
            // S12.3: the whole list is kept for offline use.
            let (listed, offline) = try await cli.liveOrCached(
                "v1/activities" + (organisation.map { "?organisation=\(PercentEncoding.encode($0))" } ?? ""), .activities, as: ActivityList.self,
                offlineAllowed: organisation == nil
            )
            let text = (offline ? [UserMessage.offline.text(cli.language)] : [])
                + listed.activities.map { "\($0.occurredAt)  \($0.kind)  \($0.durationMinutes) min  \($0.note ?? "")" }
                + (waiting.isEmpty ? [] : [CLIText.waitingToBeSentQueued.text(cli.language, ["queued": String(waiting.count)])])
            cli.output.emit(Listed(activities: listed.activities, queued: waiting.map(\.id), offline: offline), text: text)
        }
    }
}

private struct Registered: Encodable {
    let ok: Bool
    /// The queued write's id (its `Idempotency-Key`).
    let id: String
    let queued: Bool
}

private struct Listed: Encodable {
    let activities: [ActivityInfo]
    /// The ids of this user's activities still waiting to be sent.
    let queued: [String]
    let offline: Bool
}
