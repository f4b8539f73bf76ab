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
            let devices = try await cli.get("v1/devices")["devices"] as? [[String: Any]] ?? []
            cli.output.emit(["devices": devices], text: devices.map {
                "\($0["id"] as? String ?? "")  \($0["name"] as? String ?? "")  \($0["biometric_kind"] as? String ?? "")\(($0["current"] as? Bool ?? false) ? "  *" : "")"
            })
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
            }
            cli.output.emit(["ok": true, "revoked": id, "this_device": own], text: [cli.language.pick("Enheten er fjernet.", "The device was revoked.")])
        }
    }
}
