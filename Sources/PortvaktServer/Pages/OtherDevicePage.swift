import Foundation
import PortvaktCore
import PortvaktHTTP

/// "BankID on another device" for a desktop browser: the animated QR code, the status in a live
/// region, the time left and a cancel button. The script (``OtherDeviceScript``) swaps the QR
/// frame every second and collects every two; without it, a button checks the status.
enum OtherDevicePage {
    /// - Parameters:
    ///   - methodsURL: the login's method choice, for choosing another way.
    ///   - brand: the organisation of the client the login is for, when it has one.
    static func render(
        sessionID: String, qrSVG: String, message: UserMessage, expiresAt: Date, now: Date, language: Language, methodsURL: String, brand: BrandView?
    ) -> String {
        let seconds = max(0, Int(expiresAt.timeIntervalSince(now).rounded(.up)))
        // The SVG is the server's own QR rendering (no text from outside), so it is not escaped.
        return BrokerPage.render("broker_other_device", language: language, switchLanguage: nil, brand: brand, values: OtherDeviceView(
            session: sessionID, expiresAtMilliseconds: String(Int(expiresAt.timeIntervalSince1970 * 1000)), qrSVG: qrSVG,
            orderStatus: message.text(language), timeLeft: Self.clock(seconds), methods: methodsURL
        ))
    }

    /// `m:ss`
    static func clock(_ seconds: Int) -> String {
        let remainder = seconds % 60
        return "\(seconds / 60):\(remainder < 10 ? "0" : "")\(remainder)"
    }
}

/// What `broker_other_device` reads.
struct OtherDeviceView: PageValues {
    /// The order's session, which the forms and the script post.
    let session: String
    let expiresAtMilliseconds: String
    /// The QR code as SVG, put in unescaped (`{{{qrSVG}}}`).
    let qrSVG: String
    /// The order's status in words, for the live region.
    let orderStatus: String
    /// `m:ss`
    let timeLeft: String
    let methods: String
}

/// The other-device page's script (`Resources/other-device.js`): plain, no framework, same-origin requests only.
enum OtherDeviceScript {
    static let source = EmbeddedFile.text(PackageResources.other_device_js)
}
