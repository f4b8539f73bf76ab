import Foundation
import PortvaktProtocol

extension AuthMachine {
    /// The BankID order on this device or by QR code on another (S3).
    mutating func handleBankIDOrder(_ event: AuthEvent) -> [AuthEffect] {
        switch event {
        case .orderStarted(let launchURL, let time):
            guard case .bankIDOrder = screen else { return [.cancelBankIDOrder] }
            screen = .bankIDOrder(BankIDOrderProgress(startedAt: time))
            return [.storeBankIDSessionRef, .openBankIDApp(launchURL), .pollBankIDOrder]
        case .orderResumed(let started):
            guard mayResumeOrder else { return [] }
            context.attemptedMethod = .bankIDOrder
            screen = .bankIDOrder(BankIDOrderProgress(startedAt: started))
            return [.pollBankIDOrder]
        case .bankIDAppOpened(let opened):
            guard case .bankIDOrder(var progress) = screen, !opened else { return [] }
            progress.showsQRCode = true
            screen = .bankIDOrder(progress)
            return []
        case .qrFrameArrived(let data):
            guard case .bankIDOrder(var progress) = screen, progress.showsQRCode else { return [] }
            progress.qrData = data
            screen = .bankIDOrder(progress)
            return []
        case .orderPending(let text):
            guard case .bankIDOrder(var progress) = screen else { return [] }
            progress.message = text
            screen = .bankIDOrder(progress)
            return []
        case .orderCompleted:
            guard case .bankIDOrder = screen else { return [] }
            screen = .completingLogin
            return [.stopPollingBankIDOrder, .clearBankIDSessionRef, .exchangeCode]
        case .orderFailed(let message):
            guard case .bankIDOrder = screen else { return [] }
            loginAbandoned(message)
            return [.stopPollingBankIDOrder, .clearBankIDSessionRef]
        case .tick(let now):
            guard case .bankIDOrder(let progress) = screen, let started = progress.startedAt,
                  now.timeIntervalSince(started) >= Self.bankIDOrderLimit
            else { return [] }
            loginAbandoned(.bankIDExpired)
            return [.stopPollingBankIDOrder, .cancelBankIDOrder, .clearBankIDSessionRef]
        default:
            return []
        }
    }

    /// Whether an order the app was ended during may be taken up now: at the launch or the login
    /// choices, without a session (S3.3).
    var mayResumeOrder: Bool {
        switch screen {
        case .launching, .methodSelection: !context.hasSession
        default: false
        }
    }
}
