import Foundation
import PortvaktCore
import PortvaktHTTP
import Testing
@testable import PortvaktDomain
@testable import PortvaktKit
@testable import PortvaktProtocol
@testable import PortvaktSandbox
@testable import PortvaktServer
@testable import portvakt

/// Issue 62 item 1: every text once, by key, in one catalog file per language. A key missing in a
/// language, a key no Swift type asks for, or placeholders that differ between languages fail here.
@Suite("Text catalogs")
struct TextCatalogTests {
    /// What one key type asks of its catalog.
    struct Asked {
        let catalog: TextCatalog
        let keys: [(key: String, placeholders: Set<String>)]

        init<Keys: CatalogKeys>(_ type: Keys.Type) {
            catalog = Keys.catalog
            keys = Keys.allCases.map { ($0.key, $0.placeholders) }
        }
    }

    static let catalogs: [(name: String, languages: [Language], asked: [Asked])] = [
        ("server", Language.allCases, [
            Asked(PortalText.self), Asked(AdminText.self), Asked(BrokerText.self), Asked(BrokerPhrase.self), Asked(ClaimText.self),
            Asked(ClaimPhrase.self), Asked(MailboxText.self), Asked(AdminPhrase.self), Asked(PortalPhrase.self),
        ]),
        ("sandbox", SandboxCatalog.languages, [Asked(SandboxText.self), Asked(SandboxPhrase.self)]),
        ("protocol", Language.allCases, [Asked(UserMessage.self), Asked(RoleName.self), Asked(HomeScreenName.self)]),
        ("app", Language.allCases, [Asked(KitText.self)]),
        ("mail", Language.allCases, [Asked(MailText.self)]),
        ("cli", Language.allCases, [Asked(CLIText.self)]),
    ]

    @Test("Every key a Swift type asks for is in every language of its catalog, with the placeholders it declares; plural keys have both forms")
    func everyKeyInEveryLanguage() {
        for (name, languages, asked) in Self.catalogs {
            for language in languages {
                for entry in asked.flatMap(\.keys) {
                    let texts = asked[0].catalog.keys(language)
                    if entry.placeholders.contains("count") {
                        let one = texts[entry.key + "_one"], other = texts[entry.key + "_other"]
                        #expect(one != nil && other != nil, "\(name) \(language): \(entry.key) needs _one and _other")
                        #expect(other.map(TextCatalog.placeholders) == entry.placeholders, "\(name) \(language): \(entry.key)_other")
                        #expect(one.map(TextCatalog.placeholders)?.isSubset(of: entry.placeholders) ?? false, "\(name) \(language): \(entry.key)_one")
                    } else {
                        #expect(!(texts[entry.key] ?? "").isEmpty, "\(name) \(language): \(entry.key) is missing")
                        #expect(texts[entry.key].map(TextCatalog.placeholders) == entry.placeholders, "\(name) \(language): \(entry.key) placeholders")
                    }
                }
            }
        }
    }

    @Test("No catalog has a key that no Swift type asks for, and every language of a catalog has the same keys")
    func noUnusedKey() {
        for (name, languages, asked) in Self.catalogs {
            let keys = asked.flatMap(\.keys).flatMap { entry in
                entry.placeholders.contains("count") ? [entry.key + "_one", entry.key + "_other"] : [entry.key]
            }
            #expect(Set(keys).count == keys.count, "\(name): a key is asked for by two types")
            for language in languages {
                let written = Set(asked[0].catalog.keys(language).keys)
                #expect(written.subtracting(keys).sorted() == [], "\(name) \(language): keys nobody asks for")
                #expect(Set(keys).subtracting(written).sorted() == [], "\(name) \(language): keys missing")
            }
        }
    }

    @Test("Nynorsk is its own catalog, not a copy of the Bokmål")
    func nynorskIsTranslated() {
        for (name, languages, asked) in Self.catalogs where languages.contains(.nn) {
            let nb = asked[0].catalog.keys(.nb), nn = asked[0].catalog.keys(.nn)
            let same = nb.filter { nn[$0.key] == $0.value }
            // Names, codes and many short words and labels (Status, Utlegg, Logg inn, Avbryt) read the same in both.
            #expect(same.count * 2 < nb.count, "\(name): \(same.count) of \(nb.count) texts read the same: \(same.keys.sorted().prefix(40))")
        }
    }

    @Test("No Swift source picks a text between two literals any more: every text is in a catalog")
    func noTextLeftInSwift() throws {
        let sources = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../../Sources").standardized
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)).compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 100)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains(".pick("), "\(file.lastPathComponent) still picks a text in Swift")
        }
    }

    @Test("The lookup: nested keys, placeholders filled, the plural form by the number, the nearest language when one lacks a key")
    func lookup() {
        let catalog = TextCatalog([
            .nb: Array(#"{"a": {"hello": "Hei, {{name}}", "tries_one": "Ett forsøk", "tries_other": "{{count}} forsøk", "only_nb": "Bare her"}}"#.utf8),
            .nn: Array(#"{"a": {"hello": "Hei, {{name}}", "tries_one": "Eitt forsøk", "tries_other": "{{count}} forsøk"}}"#.utf8),
            .en: Array(#"{"a": {"hello": "Hello, {{name}}", "tries_one": "One try", "tries_other": "{{count}} tries", "only_en": "Only here"}}"#.utf8),
        ])
        #expect(catalog.text("a.hello", .en, ["name": "Kari"]) == "Hello, Kari")
        #expect(catalog.text("a.tries", .nn, count: 1) == "Eitt forsøk")
        #expect(catalog.text("a.tries", .en, count: 0) == "0 tries")
        #expect(catalog.text("a.tries", .nb, count: 3) == "3 forsøk")
        #expect(catalog.text("a.only_nb", .nn) == "Bare her", "Nynorsk falls back to Bokmål")
        #expect(catalog.text("a.only_en", .nn) == "Only here", "then to English")
        #expect(catalog.text("a.hello", .nb, ["name": "{{name}}"]) == "Hei, {{name}}", "a value is put in once, never read as a placeholder")
        #expect(TextCatalog.placeholders(in: "{{first}} eller {{last}}") == ["first", "last"])
    }

    @Test("Language tags: nn is Nynorsk, nb and no Bokmål; nb and nn fall back to each other, then English; BankID and Vipps get the nearest they offer")
    func languageTags() {
        #expect(Language(tag: "nn-NO") == .nn && Language(tag: "no") == .nb && Language(tag: "nb_NO") == .nb && Language(tag: "en-GB") == .en)
        #expect(Language(tag: "sv") == nil && Language(tag: "nnx") == nil)
        #expect(Language(uiLocales: "de nn en") == .nn)
        #expect(Language(preferred: ["sv-SE", "nn-NO", "en"]) == .nn)
        #expect(Language.nn.nearest(inTags: ["nb", "en"]) == "nb")
        #expect(Language.nb.nearest(inTags: ["nn-NO", "en"]) == "nn-NO")
        #expect(Language.en.nearest(inTags: ["nb"]) == "nb")
        #expect(Language.nn.nearest(inTags: ["sv"]) == nil)
        #expect(PortalLanguage.preferred("de-DE, en;q=0.5, nn;q=0.7") == .nn)
    }
}
