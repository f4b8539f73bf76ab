#if canImport(SwiftUI)
import QRCode
import SwiftUI

/// Draws a ``ScreenModel``: title, message, banner, spinner and buttons, with VoiceOver labels
/// and hints from the model and system fonts (so Dynamic Type applies). Every decision is in
/// the model; this view only lays it out.
public struct AuthScreenView: View {
    public let model: ScreenModel
    public let send: (AuthEvent) -> Void
    /// The password typed where the model shows a field (``ScreenModel/passwordField``), for
    /// ``PortvaktModel/confirmEnrolment(password:)``.
    /// Nil: the field is not shown (an app that does not take the password there).
    public let submitPassword: ((String) -> Void)?
    /// The name typed for this phone (``ScreenModel/deviceNameField``), for ``PortvaktModel/nameThisDevice(_:)``;
    /// nil: no field.
    public let nameDevice: ((String) -> Void)?
    @State private var password = ""
    @State private var passwordMissing = false
    @State private var deviceName = ""

    public init(
        model: ScreenModel, send: @escaping (AuthEvent) -> Void, submitPassword: ((String) -> Void)? = nil,
        nameDevice: ((String) -> Void)? = nil
    ) {
        self.model = model
        self.send = send
        self.submitPassword = submitPassword
        self.nameDevice = nameDevice
    }

    public var body: some View {
        // Scrolls: at the accessibility text sizes the screen is taller than the phone.
        ScrollView {
            VStack(spacing: 16) {
                ScreenTitle(text: model.title)
                if let message = model.message {
                    MessageText(text: message, isError: model.tone == .error)
                }
                if let banner = model.banner {
                    Text(banner)
                        .font(.callout)
                        .padding()
                        .background(Color.secondary.opacity(0.15), in: RoundedRectangle(cornerRadius: 8))
                }
                if let qrCode = model.qrCode {
                    // A Canvas has no accessibility of its own: the whole code is one labelled image.
                    QRCodeView(code: qrCode)
                        .frame(width: 240, height: 240)
                        .accessibilityElement()
                        .accessibilityAddTraits(.isImage)
                        .accessibilityLabel(model.qrCodeLabel ?? "")
                }
                if let label = model.passwordField, submitPassword != nil {
                    SecureField(label, text: $password)
                        .textContentType(.password)
                        .submitLabel(.done)
                        .onSubmit { submitTypedPassword() }
                        .accessibilityLabel(label)
                        .padding(8)
                        .overlay(RoundedRectangle(cornerRadius: 8).stroke(Color.secondary))
                    if passwordMissing, let why = model.passwordMissing {
                        MessageText(text: why, isError: true)
                    }
                }
                if let label = model.deviceNameField, nameDevice != nil {
                    TextField(label, text: $deviceName)
                        .submitLabel(.done)
                        .accessibilityLabel(label)
                        .padding(8)
                        .overlay(RoundedRectangle(cornerRadius: 8).stroke(Color.secondary))
                }
                if model.showsSpinner {
                    ProgressView().accessibilityLabel(model.title)
                }
                // Without the field, its button would do nothing.
                ForEach(model.actions.filter { $0.event != .enrolmentPasswordSubmitted || submitPassword != nil }) { action in
                    ActionButton(label: action.label, hint: action.accessibilityHint, isProminent: action.isProminent, isDestructive: action.isDestructive) {
                        perform(action.event)
                    }
                }
            }
            .padding()
        }
        .accessibilityElement(children: .contain)
        // Each status change is heard once: the model says what changed.
        .onChange(of: model) { previous, current in announce(current.announcement(after: previous)) }
        // The typed password lives only while its field is on screen.
        .onChange(of: model.kind) {
            password = ""
            passwordMissing = false
        }
        .onDisappear { password = "" }
    }

    private func perform(_ event: AuthEvent) {
        switch event {
        case .enrolmentPasswordSubmitted: submitTypedPassword()
        case .enrolmentAccepted:
            if !deviceName.isEmpty { nameDevice?(deviceName) }
            send(event)
        default: send(event)
        }
    }

    /// The field empties once sent: the password is not kept on screen.
    private func submitTypedPassword() {
        // An empty field says why nothing happened, and is announced.
        passwordMissing = password.isEmpty
        guard !password.isEmpty else { return announce(model.passwordMissing) }
        submitPassword?(password)
        password = ""
    }
}

/// A message; an error in ``Palette``'s red, which has 4.5:1 on the light and dark backgrounds.
struct MessageText: View {
    let text: String
    let isError: Bool
    @Environment(\.colorScheme) private var colorScheme

    var body: some View {
        Text(text)
            .font(.body)
            .foregroundStyle(isError ? Color(colorScheme == .dark ? Palette.errorOnDark : Palette.errorOnLight) : Color.primary)
    }
}

extension Color {
    init(_ colour: Palette.Colour) {
        self.init(red: Double(colour.red) / 255, green: Double(colour.green) / 255, blue: Double(colour.blue) / 255)
    }
}

/// The QR code's modules, dark on white with the quiet zone the standard asks for.
struct QRCodeView: View {
    let code: QRCode

    var body: some View {
        Canvas { context, size in
            let quiet = 4
            let cells = code.size + 2 * quiet
            let side = min(size.width, size.height) / CGFloat(cells)
            context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
            for y in 0..<code.size {
                for x in 0..<code.size where code.isDark(x: x, y: y) {
                    let rect = CGRect(x: CGFloat(x + quiet) * side, y: CGFloat(y + quiet) * side, width: side, height: side)
                    context.fill(Path(rect), with: .color(.black))
                }
            }
        }
    }
}
#endif
