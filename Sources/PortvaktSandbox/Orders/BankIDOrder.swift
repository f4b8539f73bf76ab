import Foundation
import PortvaktCore

/// One BankID order as the relying-party API v6 sees it, from `auth` to a final `collect`.
/// Pure: every transition takes the time, so expiry is tested without waiting.
struct BankIDOrder: Sendable {
    enum Status: Sendable, Equatable {
        /// Waiting for the user's BankID app: `outstandingTransaction` before it opens, `userSign` after.
        case pending(hint: String)
        case failed(hint: String)
        case complete(userID: String)
    }

    let orderRef: String
    let autoStartToken: String
    let qrStartToken: String
    let qrStartSecret: String
    let clientID: String
    let endUserIP: String
    let startedAt: Date
    let expiresAt: Date
    private(set) var status: Status = .pending(hint: "outstandingTransaction")

    init(clientID: String, endUserIP: String, now: Date, lifetime: TimeInterval) {
        orderRef = UUID().uuidString.lowercased()
        autoStartToken = UUID().uuidString.lowercased()
        qrStartToken = UUID().uuidString.lowercased()
        qrStartSecret = UUID().uuidString.lowercased()
        self.clientID = clientID
        self.endUserIP = endUserIP
        startedAt = now
        expiresAt = now.addingTimeInterval(lifetime)
    }

    /// What `collect` reports now: an unfinished order past its lifetime has expired.
    func collected(now: Date) -> Status {
        if case .pending = status, now >= expiresAt { return .failed(hint: "expiredTransaction") }
        return status
    }

    var isFinished: Bool {
        if case .pending = status { return false }
        return true
    }

    /// The user's BankID app opened the order (by autostart token or QR code).
    mutating func open(now: Date, faults: FaultSettings) {
        guard case .pending = collected(now: now) else { return }
        if faults.contains(.startFailed) {
            status = .failed(hint: "startFailed")
        } else {
            status = .pending(hint: faults.contains(.unknownHint) ? "sandboxHintNobodyKnows" : "userSign")
        }
    }

    /// The user approved in the app as `user`.
    mutating func approve(as user: TestUser, now: Date, faults: FaultSettings) {
        guard case .pending = collected(now: now) else { return }
        if faults.contains(.userCancels) {
            status = .failed(hint: "userCancel")
        } else if faults.contains(.certificateError) {
            status = .failed(hint: "certificateErr")
        } else {
            status = .complete(userID: user.id)
        }
    }

    /// The user pressed cancel in the app.
    mutating func cancelByUser(now: Date) {
        guard case .pending = collected(now: now) else { return }
        status = .failed(hint: "userCancel")
    }

    /// The relying party cancelled the order.
    mutating func cancelByRelyingParty(now: Date) {
        guard case .pending = collected(now: now) else { return }
        status = .failed(hint: "cancelled")
    }

    /// Whether `text` is a frame of this order's animated QR code that is at most `maxAge` seconds old.
    func acceptsQRCode(_ text: String, now: Date, maxAge: Int = 30) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "bankid", parts[1] == qrStartToken, let seconds = Int(parts[2]), seconds >= 0 else { return false }
        let elapsed = Int(now.timeIntervalSince(startedAt))
        guard seconds <= elapsed + 1, seconds >= elapsed - maxAge else { return false }
        let expected = BankIDQRCode.authCode(qrStartSecret: qrStartSecret, seconds: seconds)
        return constantTimeEqual(expected, String(parts[3]))
    }
}
