import Foundation
import PortvaktCore
import PortvaktModels

/// The emails Portvakt sends, each in Bokmål, Nynorsk and English (subjects `mail.<key>` in the
/// catalogs, bodies in `Resources/Mail/<language>.mustache`). None holds a personnummer or a
/// secret besides the invitation's one-time link and the membership code, which are sealed in
/// the outbox and purged once the message is sent.
public enum MailNotice: Sendable, Hashable {
    /// An administrator's invitation to password login, with its one-time link.
    case passwordInvite(link: String)
    /// The account's password was set or changed.
    case passwordChanged
    /// A phone was registered to unlock the account; its name as the member gave it, if any.
    case deviceAdded(deviceName: String?)
    /// An administrator of `organisation` (its name) removed the member's devices.
    case devicesRemovedByAdmin(organisation: String?)
    /// The one-time code that claims the membership with this email (S15), valid 10 minutes.
    case membershipCode(code: String)
    /// The membership with this email was connected to a BankID or Vipps login by its code (S15).
    case membershipLinked
    /// A passkey was added to the account (S18.1); its name as the member gave it.
    case passkeyAdded(name: String?)
    /// A member system or an import of `organisation` (its name) gave the account a membership
    /// or a role above peer mentor (issue 58).
    case membershipGranted(organisation: String?, role: Role)

    /// The outbox's `kind`.
    public var kind: String {
        switch self {
        case .passwordInvite: "password_invite"
        case .passwordChanged: "password_changed"
        case .deviceAdded: "device_added"
        case .devicesRemovedByAdmin: "devices_removed_by_admin"
        case .membershipCode: "membership_code"
        case .membershipLinked: "membership_linked"
        case .passkeyAdded: "passkey_added"
        case .membershipGranted: "membership_granted"
        }
    }

    /// The subject and body in `language`: the subject from the catalog, the body from the
    /// language's mail template (``MailTemplates``). `accountURL` is the portal's account page,
    /// where a member who did not do this ends sessions and removes phones; `brand` is the
    /// organisation's the mail is sent for (its signature and support contact), nil: the neutral service's.
    public func compose(_ language: Language, accountURL: String, brand: MailBrand? = nil) -> (subject: String, body: String) {
        var values: [String: Any] = [kind: true, "account_url": accountURL]
        if let signature = brand?.signature { values["signature"] = signature }
        if let contact = brand?.supportContact { values["contact"] = contact }
        let subject: MailText
        switch self {
        case .passwordInvite(let link):
            subject = .chooseAPasswordForThePeer
            values["link"] = link
        case .passwordChanged:
            subject = .yourPasswordWasSetOrChanged
        case .deviceAdded(let name):
            subject = .aNewPhoneCanUnlockYour
            values["name"] = Self.cleaned(name)
        case .devicesRemovedByAdmin(let organisation):
            subject = .anAdministratorRemovedYourDevices
            values["organisation"] = Self.cleaned(organisation)
        case .membershipCode(let code):
            subject = .yourCodeForThePeerMentor
            values["code"] = code
        case .membershipLinked:
            subject = .yourMembershipWasConnectedToA
        case .passkeyAdded(let name):
            subject = .aNewPasskeyCanSignIn
            values["name"] = Self.cleaned(name)
        case .membershipGranted(let organisation, let role):
            subject = .youWereGivenAMembershipOr
            values["organisation"] = Self.cleaned(organisation)
            values[role.rawValue] = true
        }
        values["not_you"] = isSecurityNotice
        return (subject.text(language), MailTemplates.body(language, values))
    }

    /// A notice of a change to the account that the member may not have made: it ends with what to
    /// do then (the template's `not_you`).
    private var isSecurityNotice: Bool {
        switch self {
        case .passwordChanged, .deviceAdded, .membershipLinked, .passkeyAdded: true
        case .passwordInvite, .devicesRemovedByAdmin, .membershipCode, .membershipGranted: false
        }
    }

    /// A name a member or administrator typed, made safe for one line of text: no control
    /// characters, at most 60 characters; nil when nothing is left.
    private static func cleaned(_ text: String?) -> String? {
        guard let text else { return nil }
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
            .trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? nil : String(kept.prefix(60))
    }
}
