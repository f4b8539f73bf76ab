import SQLKit

/// Version 38: each organisation's brand (issue 62 item 3), a row of its own that an operator's
/// `organisation create|update` writes; without one the pages and mail stay neutral.
enum OrganisationBrands {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "organisation_brands")
            .column("organisation_id", type: .text, .primaryKey(autoIncrement: false), .references("organisations", "id", onDelete: .cascade))
            .column("display_name", type: .text)
            .column("short_name", type: .text)
            .column("logo_svg", type: .text)
            .column("accent_colour", type: .text)
            .column("mail_signature", type: .text)
            .column("support_contact", type: .text)
            .column("updated_at", type: .bigint, .notNull)
            .run()
    }
}
