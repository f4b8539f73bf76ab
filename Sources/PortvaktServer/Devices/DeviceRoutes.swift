import Foundation
import Hummingbird
import PortvaktCore
import PortvaktProtocol
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// The user's device keys and their challenges:
///
/// - `POST /v1/devices` registers a P-256 public key (Bearer; a BankID, Vipps or password login
///   in the last few minutes, or the password entered again: a step-up for `device.enrol`), of
///   that login's level;
/// - `POST /v1/devices/{id}/raise` raises a password-level key to BankID's or Vipps's level (Bearer;
///   their login in the last few minutes);
/// - `GET /v1/devices` lists the active ones, `DELETE /v1/devices/{id}` revokes one (and ends
///   the sessions it unlocked);
/// - `POST /v1/devices/{id}/challenges` issues a single-use challenge: `unlock` needs nothing
///   but the device id (the app is locked), `step-up` needs the user's Bearer token.
struct DeviceRoutes {
    let devices: DeviceRegistry
    let callers: CallerAuthenticator

    func register(on routes: DeclaredRoutes) {
        routes.post("/v1/devices", .member.taking(.deviceEnrol), surface: .json) { request, context in
            let caller = try context.caller()
            let device = try await devices.register(try await request.decodeJSON(DeviceRegistration.self), for: caller)
            return try APIResponse.json(DeviceInfo(device, current: nil), status: .created)
        }
        routes.post("/v1/devices/:id/raise", .member.taking(.deviceRaise), surface: .json) { _, context in
            let caller = try context.caller()
            let device = try await devices.raise(context.parameters.get("id") ?? "", for: caller)
            return try APIResponse.json(DeviceInfo(device, current: caller.session.deviceId))
        }
        routes.get("/v1/devices", .member, surface: .json) { request, context in
            let caller = try context.caller()
            let active = try await devices.active(of: caller)
            return try APIResponse.json(DeviceList(devices: active.map { DeviceInfo($0, current: caller.session.deviceId) }))
        }
        routes.delete("/v1/devices/:id", .member, surface: .json) { request, context in
            try await devices.revoke(context.parameters.get("id") ?? "", for: try context.caller())
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
        routes.post("/v1/devices/:id/challenges", .anonymous, surface: .json) { request, context in
            let body = try await request.decodeJSON(DeviceChallengeRequest.self)
            // The route is anonymous (an unlock's signature is its credential); a step-up's challenge is the signed-in user's.
            let issued = try await devices.challenge(body, deviceID: context.parameters.get("id") ?? "", address: context.clientAddress) {
                try await callers.caller(of: request)
            }
            return try APIResponse.json(issued, status: .created)
        }
    }
}

extension DeviceInfo {
    init(_ device: Device, current: String?) {
        self.init(
            id: device.id, name: device.name, platform: device.platform, biometricKind: device.biometricKind,
            createdAt: Date(millisecondsSince1970: device.createdAt).formatted(.iso8601),
            lastUsedAt: device.lastUsedAt.map { Date(millisecondsSince1970: $0).formatted(.iso8601) }, current: current == device.id,
            assurance: DeviceAssurance(rawValue: device.assurance)
        )
    }
}
