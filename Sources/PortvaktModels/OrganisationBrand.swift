import Foundation

/// How an organisation shows itself on the pages and mail that act for it (issue 62 item 3): its
/// names, logo, accent colour, mail signature and support contact. Every part may be unset; an
/// unset part shows the neutral service's.
public struct OrganisationBrand: Sendable, Hashable, Codable {
    public let organisationId: String
    /// "Hørselshemmedes Landsforbund"; unset: the organisation's name.
    public var displayName: String?
    /// "HLF", where the full name is too long (the page's title, the mail's subject).
    public var shortName: String?
    /// An SVG the brand rules passed (no script, no reference outside itself).
    public var logoSvg: String?
    /// `#rrggbb`, at least 4.5:1 against white.
    public var accentColour: String?
    /// The lines that end a mail sent for the organisation.
    public var mailSignature: String?
    /// Whom a member asks (an address, a phone number, a web page), as written.
    public var supportContact: String?
    public var updatedAt: Int64

    public init(
        organisationID: String, displayName: String? = nil, shortName: String? = nil, logoSVG: String? = nil, accentColour: String? = nil,
        mailSignature: String? = nil, supportContact: String? = nil, updatedAt: Int64
    ) {
        organisationId = organisationID
        self.displayName = displayName
        self.shortName = shortName
        logoSvg = logoSVG
        self.accentColour = accentColour
        self.mailSignature = mailSignature
        self.supportContact = supportContact
        self.updatedAt = updatedAt
    }
}

/// A part of an organisation's brand, as the operator's options name it.
public enum BrandPart: String, Sendable, CaseIterable {
    case displayName = "display_name"
    case shortName = "short_name"
    case logo
    case accentColour = "accent_colour"
    case mailSignature = "mail_signature"
    case supportContact = "support_contact"

    /// Its column in `organisation_brands`.
    public var column: String { self == .logo ? "logo_svg" : rawValue }
}
