import ArgumentParser
import Foundation
import PortvaktDomain
import PortvaktModels
import PortvaktServer

struct OrganisationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "organisation",
        abstract: "The member organisations Portvakt serves.",
        subcommands: [Create.self, Update.self, List.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an organisation.",
            discussion: "Its first administrator is a member record with role org_admin, from `members import` or the member system's SCIM client (`scim-token create`)."
        )

        @Argument(help: "Its short name in URLs (/admin/SLUG): 2 to 32 characters of a-z, 0-9 and -, starting with a letter.")
        var slug: String

        @Argument(help: "Its name as members read it, for example \"Funksjonshemmedes Fellesorganisasjon\".")
        var name: String

        @OptionGroup var brand: BrandOptions
        @OptionGroup var options: ModeOptions

        func run() async throws {
            let changes = try brand.changes()
            try await withOperatorStartup(options.mode) { configuration, logger in
                try PortvaktApplication.checkOrganisationBrand(changes)
                try await PortvaktApplication.createOrganisation(configuration: configuration, logger: logger, slug: slug, name: name)
                try await PortvaktApplication.updateOrganisationBrand(configuration: configuration, logger: logger, slug: slug, changes: changes)
                print("Created organisation \(slug).")
                print("Next: its first administrator (`portvakt-server members import --organisation \(slug) FILE` with role org_admin) and its member system's token (`portvakt-server scim-token create --organisation \(slug) --name NAME`).")
            }
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change an organisation's brand: its names, logo, accent colour, mail signature and support contact.",
            discussion: "Only the parts given change; an empty value (--logo \"\") unsets a part, which then shows the neutral service's. Each change is audited (organisation.brand_updated)."
        )

        @Argument(help: "The organisation's slug (`organisation list`).")
        var slug: String

        @OptionGroup var brand: BrandOptions
        @OptionGroup var options: ModeOptions

        func run() async throws {
            let changes = try brand.changes()
            guard !changes.isEmpty else { throw ValidationError("Give at least one part to change (--display-name, --short-name, --logo, --accent-colour, --mail-signature, --support-contact).") }
            try await withOperatorStartup(options.mode) { configuration, logger in
                try await PortvaktApplication.updateOrganisationBrand(configuration: configuration, logger: logger, slug: slug, changes: changes)
                print("Updated the brand of \(slug): \(changes.keys.map(\.rawValue).sorted().joined(separator: ", ")).")
            }
        }
    }

    /// The brand's parts, for `create` and `update`.
    struct BrandOptions: ParsableArguments {
        @Option(help: "Its full name on its pages and mail, for example \"Hørselshemmedes Landsforbund\".")
        var displayName: String?
        @Option(help: "Its short name where the full one is too long, for example HLF.")
        var shortName: String?
        @Option(help: "An SVG file with its logo (at most 20 kB; no script, style attribute or reference outside the file).")
        var logo: String?
        @Option(help: "Its accent colour as #rrggbb, at least 4.5:1 against white.")
        var accentColour: String?
        @Option(help: "The lines that end its mail (\\n between lines).")
        var mailSignature: String?
        @Option(help: "Whom its members ask: an address, a phone number or a web page.")
        var supportContact: String?

        func changes() throws -> [BrandPart: String] {
            var changes: [BrandPart: String] = [:]
            changes[.displayName] = displayName
            changes[.shortName] = shortName
            changes[.accentColour] = accentColour
            changes[.mailSignature] = mailSignature.map { $0.replacingOccurrences(of: "\\n", with: "\n") }
            changes[.supportContact] = supportContact
            if let logo {
                if logo.isEmpty {
                    changes[.logo] = ""
                } else {
                    let size = (try? FileManager.default.attributesOfItem(atPath: logo)[.size] as? Int) ?? nil
                    guard let size, size <= BrandRules.logoLimit else { throw ValidationError("The logo file \(logo) is missing, not a file, or larger than \(BrandRules.logoLimit / 1000) kB.") }
                    guard let data = FileManager.default.contents(atPath: logo) else { throw ValidationError("Cannot read the logo file \(logo).") }
                    guard let text = String(data: data, encoding: .utf8) else { throw ValidationError("The logo file \(logo) is not UTF-8 text (an SVG).") }
                    changes[.logo] = text
                }
            }
            return changes
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the organisations: slug, creation date and name.")

        @OptionGroup var options: ModeOptions

        func run() async throws {
            try await withOperatorStartup(options.mode) { configuration, logger in
                let organisations = try await PortvaktApplication.organisations(configuration: configuration, logger: logger)
                guard !organisations.isEmpty else {
                    print("No organisations yet: `portvakt-server organisation create SLUG NAME` adds one.")
                    return
                }
                let width = organisations.map { $0.slug.count }.max() ?? 0
                for organisation in organisations {
                    let slug = organisation.slug.padding(toLength: width, withPad: " ", startingAt: 0)
                    print("\(slug)  \(Day.text(organisation.createdAt))  \(organisation.name)")
                }
            }
        }
    }
}

/// A date as `2026-11-26` (UTC), for the operator's lists.
enum Day {
    static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}
