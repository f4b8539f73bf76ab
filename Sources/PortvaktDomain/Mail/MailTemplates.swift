import Foundation
import Mustache
import PortvaktCore

/// The bodies of the mail, one Mustache template per language (`Resources/Mail/<language>.mustache`),
/// in which each kind of mail is the section of its name (``MailNotice/kind``).
enum MailTemplates {
    /// Parsed once; the templates are part of the build, so one that does not parse is a
    /// programming error (`MailTemplateTests` renders every kind in every language).
    static let templates: [Language: MustacheTemplate] = [
        .nb: parse(PackageResources.nb_mustache), .nn: parse(PackageResources.nn_mustache), .en: parse(PackageResources.en_mustache),
    ]

    /// The body in `language` for `values`; the sections not taken leave no empty paragraphs.
    static func body(_ language: Language, _ values: [String: Any]) -> String {
        let text = (templates[language] ?? templates[.nb]!).render(values)
        return text.replacing(/\n{3,}/, with: "\n\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func parse(_ bytes: [UInt8]) -> MustacheTemplate {
        try! MustacheTemplate(string: String(decoding: bytes, as: UTF8.self))
    }
}
