import Foundation
import Personnummer
import PortvaktCore
import PortvaktModels

/// An entry checked and normalised: what the directory writes.
struct ValidEntry: Sendable {
    enum Number: Sendable {
        case keep, remove
        case set(Personnummer)
    }

    /// `fullName` nil: no name was given (a new record takes the user name; a changed one keeps its own).
    let values: MemberRecordValues
    let personnummer: Number
    /// The entry as it will be written (trimmed, email lowercased, phone in E.164).
    let normalised: MemberEntry

    var externalID: String { values.externalRef ?? "" }
}

extension MemberEntry {
    /// The entry checked and normalised.
    /// - Parameter context: `.production` refuses synthetic (test) personnummer.
    /// - Throws: ``DirectoryError`` (`invalidValue`) naming the first attribute that is wrong.
    func validated(context: Personnummer.Context) throws(DirectoryError) -> ValidEntry {
        let externalID = try Self.text(self.externalID, field: "externalId", maxBytes: 128)
        let userName = try Self.text(self.userName, field: "userName", maxBytes: 254)
        guard let externalID else { throw DirectoryError.invalid("externalId", "is required: the member system's own id for the member") }
        guard let userName else { throw DirectoryError.invalid("userName", "is required: the member number or the email") }
        let givenName = try Self.text(self.givenName, field: "name", maxBytes: 200)
        let familyName = try Self.text(self.familyName, field: "name", maxBytes: 200)
        let memberNumber = try Self.text(self.memberNumber, field: "memberNumber", maxBytes: 64)
        var address: String?
        if let email = try Self.text(self.email, field: "emails", maxBytes: 254) {
            do {
                address = try MailAddress(email).address.lowercased()
            } catch {
                throw DirectoryError.invalid("emails", String(describing: error))
            }
        }
        var e164: String?
        if let phone = try Self.text(self.phone, field: "phoneNumbers", maxBytes: 32) {
            guard let normalised = Self.e164(phone) else {
                throw DirectoryError.invalid("phoneNumbers", "is not a phone number: write it with its country code (+47 912 34 567) or as eight Norwegian digits")
            }
            e164 = normalised
        }
        let number: ValidEntry.Number
        switch personnummer {
        case .keep: number = .keep
        case .remove: number = .remove
        case .set(let text):
            do {
                number = .set(try Personnummer(text, context: context))
            } catch {
                // PersonnummerError names the rule that failed, never the digits.
                let rule = String(describing: error).replacingOccurrences(of: "personnummer: ", with: "")
                throw DirectoryError.invalid("personnummer", "is not a valid personnummer: \(rule)")
            }
        }
        let name = [givenName, familyName].compactMap { $0 }.joined(separator: " ")
        let values = MemberRecordValues(
            externalRef: externalID, userName: userName, givenName: givenName, familyName: familyName, fullName: name.isEmpty ? nil : name,
            email: address, phone: e164, role: role, memberNumber: memberNumber, active: active
        )
        let normalised = MemberEntry(
            externalID: externalID, userName: userName, givenName: givenName, familyName: familyName, email: address, phone: e164,
            role: role, active: active, memberNumber: memberNumber, personnummer: personnummer
        )
        return ValidEntry(values: values, personnummer: number, normalised: normalised)
    }

    /// The text trimmed; nil when empty.
    /// - Throws: when longer than `maxBytes` UTF-8 bytes or holding a control character.
    private static func text(_ text: String?, field: String, maxBytes: Int) throws(DirectoryError) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty else { return nil }
        guard trimmed.utf8.count <= maxBytes else { throw DirectoryError.invalid(field, "is longer than \(maxBytes) bytes") }
        guard !TextInput.hasControlCharacters(trimmed) else { throw DirectoryError.invalid(field, "holds a line break or another control character") }
        return trimmed
    }

    /// A phone number in E.164, as a Vipps login's is compared (``IdentityLinker/e164(_:)``):
    /// `+47 912 34 567`, `0047 91234567` and `91234567` (eight digits alone: Norway) are all
    /// `+4791234567`. Nil for anything but digits, spaces, `-`, `.`, `(`, `)` and a leading `+`.
    static func e164(_ text: String) -> String? {
        let allowed = Set("0123456789 -.()")
        var rest = Substring(text)
        let international = rest.hasPrefix("+")
        if international { rest = rest.dropFirst() }
        guard rest.allSatisfy(allowed.contains) else { return nil }
        var digits = String(rest.filter { $0.isASCII && $0.isNumber })
        if !international {
            if digits.hasPrefix("00") {
                digits = String(digits.dropFirst(2))
            } else if digits.count == 8 {
                digits = "47" + digits
            } else {
                return nil
            }
        }
        return IdentityLinker.e164(digits)
    }
}
