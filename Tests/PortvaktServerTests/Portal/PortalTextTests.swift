import Foundation
import PortvaktCore
import Testing
@testable import PortvaktServer

@Suite("Portal texts and pages")
struct PortalTextTests {
    @Test("Every text id has a Bokmål and an English text, and every id and partial a template uses exists")
    func everyTextInBothLanguages() throws {
        for text in PortalText.allCases {
            #expect(!text.text(.nb).isEmpty && !text.text(.en).isEmpty, "\(text.rawValue)")
        }
        let translated = PortalText.allCases.filter { $0.text(.nb) != $0.text(.en) }
        #expect(translated.count >= PortalText.allCases.count - 3, "only names (Portvakt) and the like read the same in both")
        for text in AdminText.allCases {
            #expect(!text.text(.nb).isEmpty && !text.text(.en).isEmpty, "\(text.rawValue)")
        }
        #expect(AdminText.allCases.filter { $0.text(.nb) == $0.text(.en) }.count <= 6, "only names and codes read the same in both")
        for text in ClaimText.allCases {
            #expect(!text.text(.nb).isEmpty && !text.text(.en).isEmpty && text.text(.nb) != text.text(.en), "\(text.rawValue)")
        }
        for text in BrokerText.allCases {
            #expect(!text.text(.nb).isEmpty && !text.text(.en).isEmpty && text.text(.nb) != text.text(.en), "\(text.rawValue)")
        }
        let catalogues = [PortalText.allCases.map(\.rawValue), AdminText.allCases.map(\.rawValue), MailboxText.allCases.map(\.rawValue), BrokerText.allCases.map(\.rawValue), ClaimText.allCases.map(\.rawValue)]
        #expect(Set(catalogues.joined()).count == catalogues.joined().count, "no text id is in two catalogues (the first would hide the other)")
        let ids = Set(catalogues.joined())
        let templates = PortalTemplates.all
        let names = Set(templates.map(\.name))
        for (name, template) in templates {
            for match in template.matches(of: /\{\{[<>] ?([a-z_]+)\}\}/) {
                #expect(names.contains(String(match.1)), "template \(name) uses \(match.1), which is not a template")
            }
            for match in template.matches(of: /\{\{t\.([a-z_]+)\}\}/) {
                #expect(ids.contains(String(match.1)), "template \(name) uses t.\(match.1), which has no text")
            }
            // Scripts only as files of this site (`script-src 'self'`), never inline.
            #expect(template.matches(of: /<script/).count == template.matches(of: /<script src="\/[^"]+"><\/script>/).count, "template \(name) has an inline script")
            #expect(!template.contains("style="), "template \(name) has an inline style")
        }
    }

    @Test("Every template file under Resources/Templates is compiled in and registered under its name")
    func everyTemplateFileRegistered() throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../../Sources/PortvaktServer/Resources/Templates")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.standardized.path).filter { $0.hasSuffix(".mustache") }
        #expect(files.count >= 20)
        #expect(Set(files.map { String($0.dropLast(".mustache".count)) }) == Set(PortalTemplates.all.map(\.name)))
        for file in files {
            let text = try String(contentsOf: folder.appending(path: file), encoding: .utf8)
            let name = String(file.dropLast(".mustache".count))
            #expect(PortalTemplates.all.first { $0.name == name }?.text == String(text.dropLast()), "\(file) as compiled differs from the file")
        }
    }

    @Test("Accept-Language picks the supported language with the highest weight")
    func acceptLanguage() {
        #expect(PortalLanguage.preferred("en-GB,en;q=0.9") == .en)
        #expect(PortalLanguage.preferred("nb-NO,nb;q=0.9,en;q=0.8") == .nb)
        #expect(PortalLanguage.preferred("de-DE, en;q=0.5, nn;q=0.7") == .nn)
        #expect(PortalLanguage.preferred("de, fr") == nil)
        #expect(PortalLanguage.preferred("en;q=0, no") == .nb)
    }

    @Test("Only paths on this site are followed after sign-in or a language switch")
    func localPaths() {
        #expect(PortalRoutes.localPath("/account?done=device_removed") == "/account?done=device_removed")
        for hostile in ["//evil.example/", "https://evil.example", "/\\evil.example", "account", "/a\u{0}b", nil] {
            #expect(PortalRoutes.localPath(hostile) == nil, "\(String(describing: hostile))")
        }
    }
}
