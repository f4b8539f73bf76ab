import Foundation
import PortvaktProtocol

extension AuthMachine {
    /// The session: silent refresh, expiry, logout, connectivity (S8, S12).
    mutating func handleSession(_ event: AuthEvent) -> [AuthEffect] {
        switch event {
        case .silentRefreshSucceeded:
            guard case .launching = screen else { return [] }
            screen = .home(nil)
            return [.syncOfflineQueue]
        case .silentRefreshUnavailable:
            guard case .launching = screen else { return [] }
            context.online = false
            screen = .home(.offline)
            return []
        case .sessionExpired:
            context.hasSession = false
            screen = .methodSelection(.sessionExpired)
            return [.clearSession]
        case .logout:
            context.hasSession = false
            context.deviceKeyEnrolled = false
            screen = .methodSelection(nil)
            return [.stopPollingBankIDOrder, .clearBankIDSessionRef, .deleteDeviceKey, .clearSession]
        case .networkChanged(let online):
            let wasOffline = !context.online
            context.online = online
            guard online, wasOffline, case .home = screen else { return [] }
            return [.syncOfflineQueue]
        default:
            return []
        }
    }
}
