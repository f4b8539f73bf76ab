import PortvaktDomain
import Foundation
import PortvaktCore
import PortvaktProtocol

/// Where an order stands, as the app is told: `status`, and for each status what the app needs.
extension BankIDOrderState {
    init(_ outcome: BankIDOrderOutcome, language: Language, now: Date) {
        switch outcome {
        case .pending(let hint, let message, let expiresAt):
            self.init(
                status: "pending", hintCode: hint, messageId: message.id, message: message.text(language), error: nil, code: nil,
                expiresIn: max(0, Int(expiresAt.timeIntervalSince(now).rounded(.up)))
            )
        case .failed(let hint, let message, let error):
            self.init(status: "failed", hintCode: hint, messageId: message.id, message: message.text(language), error: error.rawValue, code: nil, expiresIn: nil)
        case .complete(let code):
            self.init(status: "complete", hintCode: nil, messageId: nil, message: nil, error: nil, code: code, expiresIn: nil)
        }
    }
}
