import Foundation
import PortvaktCore
import PortvaktModels

/// The emails Portvakt sends, each in Bokmål, Nynorsk and English (`mail.<key>`). None holds a personnummer or a
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

    /// The subject and body in `language`. `accountURL` is the portal's account page, where a
    /// member who did not do this ends sessions and removes phones; `brand` is the organisation's
    /// the mail is sent for (its signature and support contact), nil: the neutral service's.
    public func compose(_ language: Language, accountURL: String, brand: MailBrand? = nil) -> (subject: String, body: String) {
        let l = language
        let notYou = MailText.wasItNotYouSignIn.text(l, ["account_url": accountURL])
        let greeting = MailText.hello.text(l)
        var signature = brand?.signature ?? MailText.portvaktTheSignInOfThe.text(l)
        if let contact = brand?.supportContact { signature += "\n" + MailText.questionsContact.text(l, ["contact": contact]) }
        let subject: String
        let paragraphs: [String]
        switch self {
        case .passwordInvite(let link):
            subject = MailText.chooseAPasswordForThePeer.text(l)
            paragraphs = [
                MailText.youAreInvitedToSignIn.text(l),
                link,
                MailText.theLinkWorksOnceFor24.text(l),
            ]
        case .passwordChanged:
            subject = MailText.yourPasswordWasSetOrChanged.text(l)
            paragraphs = [
                MailText.thePasswordOfYourAccountIn.text(l),
                notYou,
            ]
        case .deviceAdded(let name):
            subject = MailText.aNewPhoneCanUnlockYour.text(l)
            let phone = Self.cleaned(name).map { MailText.thePhoneNamed.text(l, ["name": $0]) } ?? MailText.aNewPhone.text(l)
            paragraphs = [
                MailText.phoneCanNowUnlockYourAccount.text(l, ["phone": phone]),
                notYou,
            ]
        case .devicesRemovedByAdmin(let organisation):
            subject = MailText.anAdministratorRemovedYourDevices.text(l)
            let who = Self.cleaned(organisation).map { MailText.anAdministratorOf.text(l, ["organisation": $0]) }
                ?? MailText.anAdministrator.text(l)
            paragraphs = [
                MailText.whoRemovedThePhonesThatCould.text(l, ["who": who]),
                MailText.nextTimeSignInWithBankid.text(l),
            ]
        case .membershipCode(let code):
            subject = MailText.yourCodeForThePeerMentor.text(l)
            paragraphs = [
                MailText.someoneSignedInWithBankidOr.text(l),
                code,
                MailText.enterItOnThePageWhere.text(l),
                MailText.whoeverEntersTheCodeGetsYour.text(l),
            ]
        case .membershipLinked:
            subject = MailText.yourMembershipWasConnectedToA.text(l)
            paragraphs = [
                MailText.theMembershipWithThisEmailAddress.text(l),
                notYou,
            ]
        case .passkeyAdded(let name):
            subject = MailText.aNewPasskeyCanSignIn.text(l)
            let key = Self.cleaned(name).map { MailText.thePasskeyNamed.text(l, ["name": $0]) } ?? MailText.aNewPasskey.text(l)
            paragraphs = [
                MailText.keyCanNowSignInTo.text(l, ["key": key]),
                notYou,
            ]
        case .membershipGranted(let organisation, let role):
            subject = MailText.youWereGivenAMembershipOr.text(l)
            let who = Self.cleaned(organisation) ?? MailText.anOrganisation.text(l)
            let roleName = switch role {
            case .peerMentor: MailText.peerMentor.text(l)
            case .coordinator: MailText.coordinator.text(l)
            case .orgAdmin: MailText.administrator.text(l)
            }
            paragraphs = [
                MailText.whoRegisteredYouAsAsIn.text(l, ["who": who, "role": roleName]),
                MailText.doYouNotRecogniseThisContact.text(l, ["account_url": accountURL]),
            ]
        }
        return (subject, ([greeting] + paragraphs + [signature]).joined(separator: "\n\n"))
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
