import Foundation
import PortvaktProtocol

extension AuthMachine {
    /// The login with BankID, Vipps or a password in the browser (S1, S2, S10, S14).
    mutating func handleLogin(_ event: AuthEvent) -> [AuthEffect] {
        switch event {
        case .methodChosen(let method):
            let remembered: [AuthEffect] = context.lastMethod == method ? [] : [.storeLastMethod(method)]
            context.lastMethod = method
            switch method {
            case .bankIDOrder:
                screen = .bankIDOrder(BankIDOrderProgress())
                return remembered + [.startBankIDOrder]
            case .bankID, .vipps, .password:
                // S2.4: every try, "Try again" too, opens with a new PKCE pair.
                screen = .browser(method)
                return remembered + [.openBrowser(method)]
            }
        case .browserReturnedCode:
            screen = .completingLogin
            return [.exchangeCode]
        case .browserCancelled:
            guard case .browser(let method) = screen else { return [] }
            screen = .methodSelection(method.cancelledMessage)
            return [.clearVerifier]
        case .browserFailed(let message):
            screen = .methodSelection(message)
            return [.clearVerifier]
        case .loginFailed(let message):
            screen = .methodSelection(message)
            return [.clearVerifier]
        case .loginCompleted:
            context.hasSession = true
            return resetBiometricFailures() + offerEnrolment() + [.fetchNotices]
        default:
            return []
        }
    }
}
