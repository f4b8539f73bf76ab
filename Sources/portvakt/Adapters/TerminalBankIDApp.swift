import Foundation
import PortvaktKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// "Opening the BankID app" from a terminal. A computer has no BankID app, so the answer is
/// no (the QR code is shown), except against the sandbox with a chosen test person: then its
/// simulated BankID app takes the autostart token (this device) or, once the QR code is up, the
/// current frame (another device), and approves or cancels as told.
struct TerminalBankIDApp: URLOpener {
    let serverURL: URL
    /// The sandbox test person and what they do; nil: a real person with a real phone.
    let sandbox: (user: String, action: String)?
    let otherDevice: Bool

    func open(_ url: URL) async -> Bool {
        guard !otherDevice, sandbox != nil,
              let token = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first(where: { $0.name == "autostarttoken" })?.value
        else { return false }
        return await approve(["autostarttoken": token])
    }

    /// The phone scanning the QR code.
    func scan(_ qrData: String) async -> Bool {
        guard sandbox != nil else { return false }
        return await approve(["qr": qrData])
    }

    private func approve(_ proof: [String: String]) async -> Bool {
        guard let sandbox else { return false }
        var request = URLRequest(url: serverURL.appendingPathComponent("sandbox/bankid/app"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(HTTP.form(proof.map { ($0.key, $0.value) } + [("user", sandbox.user), ("action", sandbox.action)]).utf8)
        guard let (_, response) = try? await HTTP.send(request) else { return false }
        return (200..<300).contains(response.statusCode)
    }
}
