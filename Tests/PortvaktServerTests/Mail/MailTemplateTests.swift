import Foundation
import PortvaktCore
import Testing
@testable import PortvaktDomain

/// Issue 62 item 1: the mail bodies are one Mustache template per language
/// (`Sources/PortvaktDomain/Resources/Mail/<language>.mustache`), each kind of mail its section.
@Suite("Mail templates")
struct MailTemplateTests {
    static let account = "https://portvakt.example/account"
    static let every: [MailNotice] = [
        .passwordInvite(link: "https://portvakt.example/invite/x"), .passwordChanged, .deviceAdded(deviceName: "Kari sin iPhone"), .deviceAdded(deviceName: nil),
        .devicesRemovedByAdmin(organisation: "NHF"), .devicesRemovedByAdmin(organisation: nil), .membershipCode(code: "123456"), .membershipLinked,
        .passkeyAdded(name: "YubiKey"), .passkeyAdded(name: nil), .membershipGranted(organisation: "HLF", role: .coordinator),
        .membershipGranted(organisation: nil, role: .orgAdmin),
    ]

    @Test("The bodies read as the texts they replaced, word for word: a phone's name, an organisation's role and signature, a link with & and < kept as written (plain text, nothing escaped)")
    func sameTexts() {
        let phone = MailNotice.deviceAdded(deviceName: "Kari sin iPhone").compose(.nb, accountURL: Self.account).body
        #expect(phone == "Hei!\n\nTelefonen «Kari sin iPhone» kan nå låse opp kontoen din i likepersonsappen med ansikt eller fingeravtrykk.\n\nVar det ikke deg? Logg inn med BankID eller Vipps på https://portvakt.example/account, fjern det du ikke kjenner igjen, og kontakt organisasjonen din.\n\nHilsen Portvakt, innloggingen til likepersonsappen")
        let brand = MailBrand(name: "Hørselshemmedes Landsforbund", signature: "Hilsen HLF\nwww.hlf.no", supportContact: "post@hlf.no")
        let granted = MailNotice.membershipGranted(organisation: "Hørselshemmedes Landsforbund", role: .coordinator).compose(.nn, accountURL: Self.account, brand: brand)
        #expect(granted.body == "Hei!\n\nHørselshemmedes Landsforbund har registrert deg som koordinator i medlemssystemet sitt, og kontoen din i likepersonsappen har no den rolla der.\n\nKjenner du ikkje att dette? Kontakt organisasjonen, eller sjå Min konto på https://portvakt.example/account.\n\nHilsen HLF\nwww.hlf.no\nSpørsmål? Kontakt post@hlf.no.")
        let invite = MailNotice.passwordInvite(link: "https://portvakt.example/invite?a=1&b=<2>").compose(.en, accountURL: Self.account)
        #expect(invite.subject == "Choose a password for the peer-mentor app")
        #expect(invite.body == "Hello,\n\nYou are invited to sign in to the peer-mentor app with email and password. Open the link and choose your password:\n\nhttps://portvakt.example/invite?a=1&b=<2>\n\nThe link works once, for 24 hours. Nobody else sees the password you choose. If you did not expect this email, you can ignore it.\n\nPortvakt, the sign-in of the peer-mentor app")
    }

    @Test("Every kind of mail in nb, nn and en: a subject, a greeting, its own body (one section, no other kind's), no tag or empty paragraph left, the values it carries, and the signature last")
    func everyKindInEveryLanguage() throws {
        for language in Language.allCases {
            let greeting = MailNotice.passwordChanged.compose(language, accountURL: Self.account).body.prefix { $0 != "\n" }
            var bodies: Set<String> = []
            for notice in Self.every {
                let (subject, body) = notice.compose(language, accountURL: Self.account, brand: MailBrand(name: "HLF", signature: "Hilsen HLF", supportContact: nil))
                #expect(!subject.isEmpty && !subject.contains("{{"), "\(language) \(notice)")
                #expect(body.hasPrefix(greeting + "\n\n") && body.hasSuffix("\n\nHilsen HLF"), "\(language) \(notice): \(body)")
                #expect(!body.contains("{{") && !body.contains("}}") && !body.contains("\n\n\n") && !body.contains("&amp;"), "\(language) \(notice): \(body)")
                let paragraphs = body.components(separatedBy: "\n\n").count
                #expect((4...6).contains(paragraphs), "\(language) \(notice): \(paragraphs) paragraphs")
                switch notice {
                case .passwordInvite(let link): #expect(body.contains("\n\n\(link)\n\n"))
                case .membershipCode(let code): #expect(body.contains("\n\n\(code)\n\n"))
                case .deviceAdded(let name?), .passkeyAdded(let name?): #expect(body.contains(language == .en ? "“\(name)”" : "«\(name)»"))
                case .devicesRemovedByAdmin(let organisation?), .membershipGranted(let organisation?, _): #expect(body.contains(organisation))
                default: break
                }
                if case .membershipGranted = notice { #expect(body.contains(Self.account)) }
                bodies.insert(body)
            }
            #expect(bodies.count == Self.every.count, "\(language): each kind and value gives its own body")
        }
    }

    @Test("The three templates have the same sections and the same values, so no language lacks a mail or a value")
    func sameShape() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Sources/PortvaktDomain/Resources/Mail")
        var shapes: [String: Set<String>] = [:]
        for language in Language.allCases {
            let text = try String(contentsOf: directory.appendingPathComponent("\(language.rawValue).mustache"), encoding: .utf8)
            shapes[language.rawValue] = Set(text.matches(of: /\{\{\{?([#^\/]?[a-z_]+)\}?\}\}/).map { String($0.1) })
            let doubled = text.replacing("{{{", with: "").replacing("}}}", with: "")
            #expect(!doubled.contains(/\{\{[a-z_]+\}\}/), "\(language): a value in {{…}} would be HTML-escaped in a plain-text mail")
        }
        #expect(shapes["nb"] == shapes["nn"] && shapes["nb"] == shapes["en"], "\(shapes)")
        let kinds = Set(Self.every.map(\.kind))
        #expect(kinds.isSubset(of: try #require(shapes["nb"]).compactMap { $0.hasPrefix("#") ? String($0.dropFirst()) : nil }), "every kind has its section")
    }
}
