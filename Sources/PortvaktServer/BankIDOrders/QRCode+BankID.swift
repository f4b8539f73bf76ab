import PortvaktCore
import QRCode

extension QRCode {
    /// The SVG of a BankID QR frame, named for screen readers in the user's language.
    func bankIDSVG(language: Language) -> String {
        svg(escapedLabel: language.pick(
            "QR-kode for BankID. Skann den med BankID-appen på mobilen din.", "QR code for BankID. Scan it with the BankID app on your phone."
        ).htmlEscaped)
    }
}
