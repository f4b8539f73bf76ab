import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Log out: the session ends at Portvakt and the device key is deleted.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Log out even though activities registered offline have not been sent (they are deleted).")
    var discardQueued = false

    func run() async throws {
        let cli = try CLI(global)
        let context = await cli.context()
        // Writes made offline belong to this user: send them first, and never lose them silently.
        // Another login's stay on the device for that person (review III, item 3).
        let user = context.hasSession ? await cli.driver(context: context).currentUserID() : nil
        if context.hasSession { _ = try? await cli.driver(context: context).sync() }
        let waiting = try await cli.queue.pending(of: user).count
        if waiting > 0, !discardQueued {
            cli.output.emit(QueueNotSent(ok: false, waiting: waiting), text: [CLIText.waitingRegistrationsHaveNotBeenSent.text(cli.language, ["waiting": String(waiting)])])
            throw ExitCode.offline
        }
        let driver = cli.driver(context: context)
        await driver.send(.logout)
        // Logouts made earlier without a network: sent by the revocation when it went through,
        // now when there was nothing to revoke (`portvakt logout` again, online).
        let pending = context.hasSession ? await driver.pendingRevocations() : await driver.sendPendingRevocations()
        let reached = await driver.lastLogoutReachedServer
        await OfflineCache(storage: cli.storage).clear()
        // What versions before the SDK's cache kept.
        try? await cli.storage.delete(SecureStorageKey(rawValue: "portvakt_cached_me_v1"))
        try? await cli.queue.discard(of: user)
        var text = [CLIText.youAreLoggedOut.text(cli.language)]
        if pending > 0 {
            text.append(CLIText.portvaktCouldNotBeReachedSo.text(cli.language))
        }
        cli.output.emit(LoggedOut(ok: true, revokedAtServer: reached && pending == 0, revocationsPending: pending), text: text)
    }
}

private struct LoggedOut: Encodable {
    let ok: Bool
    /// Whether every session logged out on this device has ended at the server too.
    let revokedAtServer: Bool
    /// Logouts whose revocation waits for the network.
    let revocationsPending: Int

    enum CodingKeys: String, CodingKey {
        case ok
        case revokedAtServer = "revoked_at_server"
        case revocationsPending = "revocations_pending"
    }
}

private struct QueueNotSent: Encodable {
    let ok: Bool
    /// How many of this user's writes would be lost.
    let waiting: Int
}
