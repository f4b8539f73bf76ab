import PortvaktCore
import QRCode

extension QRCode {
    /// The SVG of a BankID QR frame, named for screen readers in the user's language.
    func bankIDSVG(language: Language) -> String {
        svg(escapedLabel: PortalPhrase.qrCodeForBankidScanIt.text(language).htmlEscaped)
    }
}
