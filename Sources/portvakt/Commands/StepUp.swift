import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

struct StepUp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "step-up",
        abstract: "Confirm with (simulated) biometrics, then open contact details or submit an expense claim (S11)."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "contacts.read or expenses.submit.")
    var action: StepUpAction

    @Option(help: "contacts.read: the contact whose details to show (default: every contact you may see).")
    var contact: String?

    @Option(help: "expenses.submit: the amount in øre.")
    var amountOre: Int?

    @Option(help: "expenses.submit: what the expense was for.")
    var description: String?

    @Option(help: "The organisation (slug); default: your first.")
    var organisation: String?

    func validate() throws {
        if action == .deviceEnrol { throw ValidationError("device.enrol is confirmed by `portvakt biometrics enable --password`") }
        if action == .expensesSubmit, amountOre == nil || description == nil {
            throw ValidationError("expenses.submit needs --amount-ore and --description")
        }
    }

    @Flag(help: "Confirm with your password instead of biometrics (S11.3); it is read from standard input when that is not a terminal.")
    var password = false

    func run() async throws {
        let cli = try CLI(global)
        let language = cli.language
        let context = try await cli.signedInContext()
        let deviceID = (try? await cli.storage.readString(.deviceID)) ?? nil
        let access = try await cli.accessToken()
        let biometricsUsable = context.deviceKeyEnrolled && deviceID != nil && global.biometry.availability.isUsable
        // --password: the person chose the password, so no prompt is shown first.
        var gate = StepUpGate(action: action, biometricsUsable: biometricsUsable && !password)
        var elevated: String?
        var effects = gate.handle(.opened)
        // The field's text; the gate never holds it.
        var typed = ""
        // The person's choices, in the order the screen offers them: the password after a failed
        // prompt; an empty field is not sent.
        func choose() -> [StepUpGate.Effect] {
            switch gate.state {
            case .hidden where password:
                return gate.handle(.usePassword) + choose()
            // Standard input is read only when asked to, or from a person at a terminal.
            case .enteringPassword(nil) where password || Terminal.isInteractive:
                typed = Terminal.secret(CLIText.password.text(language))
                return typed.isEmpty ? [] : gate.handle(.passwordSubmitted)
            default:
                return []
            }
        }
        effects += choose()
        while let effect = effects.first {
            effects.removeFirst()
            switch effect {
            case .stepUp(let action):
                guard let deviceID else { break }
                let unlocker = DeviceUnlocker(client: cli.client, key: cli.key, deviceID: deviceID, language: cli.language)
                do {
                    let token = try await unlocker.stepUp(action, accessToken: access)
                    elevated = token.token
                    effects += gate.handle(.succeeded(expiresAt: token.expiresAt))
                } catch let failure as BiometricFailure {
                    effects += gate.handle(.failed(failure))
                } catch let error as PortvaktError {
                    effects += gate.handle(.refused(error.message))
                } catch {
                    effects += gate.handle(.refused(.offline))
                }
                effects += choose()
            case .stepUpWithPassword(let action):
                do {
                    let token = try await cli.client.stepUp(action, password: typed, accessToken: access)
                    elevated = token.token
                    effects += gate.handle(.succeeded(expiresAt: token.expiresAt))
                } catch let error as PortvaktError {
                    effects += gate.handle(.refused(error.message))
                } catch {
                    effects += gate.handle(.refused(.offline))
                }
            case .deleteDeviceKey:
                // A changed enrolment: the stale key goes, here and at the server.
                await cli.key.delete()
                if let deviceID { try? await cli.client.revokeDevice(deviceID, accessToken: access) }
                try? await cli.storage.delete(.deviceID)
            case .close:
                break
            }
        }
        guard let elevated, gate.isRevealed else {
            let screen = StepUpScreenModel(gate, language: language)
            let hint = CLIText.confirmWithYourPasswordPortvaktStep.text(language, ["raw_value": action.rawValue])
            cli.output.emit(
                NotConfirmed(ok: false, message: screen.message ?? "", messageID: Self.messageID(gate.state) ?? "", actions: screen.actions.map(\.id)),
                text: [screen.message ?? "", hint]
            )
            throw ExitCode.biometricFallback
        }
        switch action {
        case .contactsRead, .personnummerRead:
            try await showContacts(cli, elevated: elevated)
        case .expensesSubmit:
            try await submitExpense(cli, elevated: elevated)
        case .deviceEnrol:
            break
        }
    }

    private func showContacts(_ cli: CLI, elevated: String) async throws {
        var ids = contact.map { [$0] } ?? []
        if ids.isEmpty {
            let listed = try await cli.get("v1/contacts" + (organisation.map { "?organisation=\(PercentEncoding.encode($0))" } ?? ""), as: ContactList.self)
            ids = listed.contacts.map(\.id)
        }
        var shown: [ContactInfo] = []
        var text: [String] = []
        for id in ids {
            let opened = try await cli.get("v1/contacts/\(PercentEncoding.encode(id))", as: ContactInfo.self, token: elevated)
            shown.append(opened)
            let details = [opened.details?.phone, opened.details?.address, opened.details?.note].compactMap { $0 }
            text.append("\(opened.displayName): " + details.joined(separator: " · "))
        }
        cli.output.emit(ContactsShown(ok: true, contacts: shown), text: text.isEmpty ? [CLIText.noContacts.text(cli.language)] : text)
    }

    private func submitExpense(_ cli: CLI, elevated: String) async throws {
        let slug = try await defaultOrganisation(cli)
        let body = try JSONEncoder().encode(NewExpense(organisation: slug, amountOre: Int64(amountOre ?? 0), description: description ?? ""))
        let write = QueuedWrite(path: "v1/expenses", body: body, stepUp: action.rawValue, userID: await cli.tokens.userID(), createdAt: Date())
        switch await cli.client.send(write, accessToken: elevated) {
        case .sent:
            cli.output.emit(Submitted(ok: true, id: write.id), text: [CLIText.theExpenseClaimWasSubmitted.text(cli.language)])
        case .unavailable:
            throw cli.output.fail(.offline, exit: .offline)
        case .needsStepUp:
            throw cli.output.fail(.stepUpRequired, exit: .refused)
        case .refused(let status):
            throw cli.output.fail(status == 403 ? .notAllowed : .notFound, exit: .refused)
        }
    }

    private func defaultOrganisation(_ cli: CLI) async throws -> String {
        if let organisation { return organisation }
        guard let slug = try await cli.me().organisations.first?.slug else { throw cli.output.fail(.notAllowed, exit: .refused) }
        return slug
    }
}

extension StepUpAction: ExpressibleByArgument {}

extension StepUp {
    /// The id of the message the gate shows, for `--json`.
    static func messageID(_ state: StepUpGate.State) -> String? {
        switch state {
        case .hidden(let message), .enteringPassword(let message): message?.id
        case .prompting, .checkingPassword, .revealed: nil
        }
    }
}

/// A step-up that did not open anything: the gate's message and what the person may do next.
private struct NotConfirmed: Encodable {
    let ok: Bool
    let message: String
    let messageID: String
    let actions: [String]

    enum CodingKeys: String, CodingKey {
        case ok, message, messageID = "message_id", actions
    }
}

private struct ContactsShown: Encodable {
    let ok: Bool
    let contacts: [ContactInfo]
}

private struct Submitted: Encodable {
    let ok: Bool
    /// The write's id (its `Idempotency-Key`).
    let id: String
}
