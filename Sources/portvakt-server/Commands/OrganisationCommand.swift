import ArgumentParser
import Foundation
import PortvaktServer

struct OrganisationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "organisation",
        abstract: "The member organisations Portvakt serves.",
        subcommands: [Create.self, List.self]
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

        @OptionGroup var options: ModeOptions

        func run() async throws {
            try await withOperatorStartup(options.mode) { configuration, logger in
                try await PortvaktApplication.createOrganisation(configuration: configuration, logger: logger, slug: slug, name: name)
                print("Created organisation \(slug).")
                print("Next: its first administrator (`portvakt-server members import --organisation \(slug) FILE` with role org_admin) and its member system's token (`portvakt-server scim-token create --organisation \(slug) --name NAME`).")
            }
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
