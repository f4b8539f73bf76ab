import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The devices with biometric login, and revoking one (a lost phone).", subcommands: [List.self, Revoke.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your devices with biometric login.")
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let cli = try CLI(global)
            _ = try await cli.signedInContext()
            let listed = try await cli.get("v1/devices", as: DeviceList.self)
            cli.output.emit(listed, text: listed.devices.map { "\($0.id)  \($0.name)  \($0.biometricKind)\($0.current ? "  *" : "")" })
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a device: its key stops working and the sessions it unlocked end.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The device id (from `portvakt devices list`).") var id: String

        func run() async throws {
            let cli = try CLI(global)
            _ = try await cli.signedInContext()
            do {
                try await cli.client.revokeDevice(id, accessToken: try await cli.accessToken())
            } catch let error as PortvaktError {
                throw cli.output.fail(error, exit: error.status == 401 ? .notLoggedIn : .refused)
            }
            let own = ((try? await cli.storage.readString(.deviceID)) ?? nil) == id
            if own {
                await cli.key.delete()
                try? await cli.storage.delete(.deviceID)
                try? await cli.storage.delete(.deviceAssurance)
            }
            cli.output.emit(Revoked(ok: true, revoked: id, thisDevice: own), text: [CLIText.theDeviceWasRevoked.text(cli.language)])
        }
    }
}

private struct Revoked: Encodable {
    let ok: Bool
    /// The device id.
    let revoked: String
    let thisDevice: Bool

    enum CodingKeys: String, CodingKey {
        case ok, revoked, thisDevice = "this_device"
    }
}
