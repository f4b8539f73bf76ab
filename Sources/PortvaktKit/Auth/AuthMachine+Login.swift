import Foundation
import PortvaktProtocol

extension AuthMachine {
    /// The login with BankID, Vipps or a password in the browser (S1, S2, S10, S14).
    mutating func handleLogin(_ event: AuthEvent) -> [AuthEffect] {
        switch event {
        case .methodChosen(let method):
            // What "Try again" repeats; stored for the next launch only once it worked (S16.3).
            context.attemptedMethod = method
            if case .enrolmentConfirmation = screen { context.enrolsAfterLogin = true }
            switch method {
            case .bankIDOrder:
                screen = .bankIDOrder(BankIDOrderProgress())
                return [.startBankIDOrder]
            case .bankID, .vipps, .password:
                // S2.4: every try, "Try again" too, opens with a new PKCE pair.
                screen = .browser(method)
                return [.openBrowser(method)]
            }
        case .browserReturnedCode:
            // Only a login that is waiting for it (or an app relaunched into the login screen).
            switch screen {
            case .browser, .methodSelection, .launching: break
            default: return []
            }
            screen = .completingLogin
            return [.exchangeCode]
        case .browserCancelled:
            guard case .browser(let method) = screen else { return [] }
            loginAbandoned(method.cancelledMessage)
            return [.clearVerifier]
        case .browserFailed(let message):
            switch screen {
            case .browser, .methodSelection: break
            default: return []
            }
            loginAbandoned(message)
            return [.clearVerifier]
        case .loginFailed(let message):
            guard screen == .completingLogin else { return [] }
            loginAbandoned(message)
            return [.clearVerifier]
        case .loginCompleted:
            context.hasSession = true
            var remembered: [AuthEffect] = []
            if let method = context.attemptedMethod, method != context.lastMethod {
                context.lastMethod = method
                remembered = [.storeLastMethod(method)]
            }
            // A BankID or Vipps login raises a key the password enrolled (issue 61 item 12).
            let raise: [AuthEffect] = context.deviceKeyEnrolled && context.deviceKeyIsPasswordLevel
                && [.bankID, .vipps, .bankIDOrder].contains(context.attemptedMethod) ? [.raiseDeviceKey] : []
            // Confirmed by this login, the enrolment asked for in the settings goes on (S7.3).
            if context.enrolsAfterLogin {
                context.enrolsAfterLogin = false
                if !context.deviceKeyEnrolled, case .available = context.biometry {
                    screen = .enrolling
                    return resetBiometricFailures() + remembered + raise + [.fetchNotices, .enrolDeviceKey, .syncOfflineQueue]
                }
            }
            // The notices are asked for before the queue is sent, so they arrive while the offer is up.
            return resetBiometricFailures() + remembered + raise + [.fetchNotices] + offerEnrolment()
        default:
            return []
        }
    }
}
