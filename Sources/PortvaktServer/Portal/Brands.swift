import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage

/// What a page shows of the organisation it acts for (issue 62 item 3): its name, its logo and
/// its accent colour, which a stylesheet of its own sets as the one custom property
/// (`--accent`) the portal's stylesheet reads. No organisation applies: the neutral service.
struct BrandView: PageValues, Equatable {
    let name: String
    /// The logo's address; nil: none set.
    let logo: String?
    /// The brand's stylesheet; nil: no accent colour set.
    let stylesheet: String?
}

/// Organisations' brands as the pages show them, and their two files: `GET /brands/{slug}/logo.svg`
/// and `GET /brands/{slug}/brand.css` (anonymous: a login page shows them before anyone signs in).
struct Brands: Sendable {
    let store: any OrganisationBrandReadStore

    /// The brand a login page of a client with `policy` shows: its `brand`; nil for a third
    /// party's, which never speaks in an organisation's name.
    func view(for policy: ClientPolicy) async -> BrandView? {
        guard let (organisation, brand) = await shown(for: policy) else { return nil }
        return Self.view(organisation, brand)
    }

    /// The brand of an organisation's own pages (its administration); nil when it has none to show.
    func view(_ organisation: Organisation) async -> BrandView? {
        guard let brand = await shown(organisation) else { return nil }
        return Self.view(organisation, brand)
    }

    /// The brand `/v1/me` gives Portvakt's own app for its screens: by the same rule as its pages
    /// (``view(for:)``), the logo's address under `issuer`.
    func app(for policy: ClientPolicy, issuer: String) async -> MeResponse.Brand? {
        guard let (organisation, brand) = await shown(for: policy) else { return nil }
        return MeResponse.Brand(
            slug: organisation.slug, name: brand.displayName ?? organisation.name, shortName: brand.shortName,
            logoURI: brand.logoSvg == nil ? nil : issuer + Self.logoPath(organisation, brand), accentColour: brand.accentColour,
            supportContact: brand.supportContact
        )
    }

    private static func view(_ organisation: Organisation, _ brand: OrganisationBrand) -> BrandView {
        BrandView(
            name: brand.displayName ?? organisation.name,
            logo: brand.logoSvg == nil ? nil : logoPath(organisation, brand),
            stylesheet: brand.accentColour.map { "/brands/\(organisation.slug)/brand.css?v=\(version(of: $0))" }
        )
    }

    /// The one rule for a client's brand: a first party's `brand`, when that organisation has one
    /// to show (a brand that cannot be read shows none: a page never fails for its brand).
    private func shown(for policy: ClientPolicy) async -> (Organisation, OrganisationBrand)? {
        guard policy.firstParty, let slug = policy.brand, let organisation = try? await store.organisation(slug: slug),
              let brand = await shown(organisation) else { return nil }
        return (organisation, brand)
    }

    /// The organisation's brand when it has a part a screen shows: a brand of only a mail
    /// signature or contact leaves the pages neutral.
    private func shown(_ organisation: Organisation) async -> OrganisationBrand? {
        guard let brand = try? await store.organisationBrand(organisationID: organisation.id),
              brand.displayName != nil || brand.logoSvg != nil || brand.accentColour != nil else { return nil }
        return brand
    }

    private static func logoPath(_ organisation: Organisation, _ brand: OrganisationBrand) -> String {
        "/brands/\(organisation.slug)/logo.svg?v=\(version(of: brand.logoSvg ?? ""))"
    }

    /// A file's cache key: its content's digest, so a changed file is a new address however soon
    /// after the last change it came (the files are cached for an hour).
    private static func version(of content: String) -> String {
        SHA256.hash(data: Data(content.utf8)).prefix(8).hexEncoded()
    }

    /// The mail signature and support contact of the organisation with this id, when it has them.
    func mailBrand(organisationID: String) async -> MailBrand? {
        guard let organisation = try? await store.organisation(id: organisationID),
              let brand = try? await store.organisationBrand(organisationID: organisationID) else { return nil }
        return MailBrand(name: brand.displayName ?? organisation.name, signature: brand.mailSignature, supportContact: brand.supportContact)
    }

    func register(on routes: DeclaredRoutes) {
        routes.get("/brands/:slug/logo.svg", .anonymous, surface: .json) { request, context in
            guard let brand = try await brand(context), let svg = brand.logoSvg else { return Self.notFound }
            // The logo is also opened on its own: nothing in it may run, load or style the page around it.
            return Self.file(svg, contentType: "image/svg+xml; charset=utf-8", extra: [.contentSecurityPolicy: "default-src 'none'; sandbox"])
        }
        routes.get("/brands/:slug/brand.css", .anonymous, surface: .json) { request, context in
            // Checked again as it leaves: only the rule's #rrggbb may reach a stylesheet, whatever put the row there.
            guard let brand = try await brand(context), let stored = brand.accentColour, let accent = try? BrandRules.accent(stored) else { return Self.notFound }
            return Self.file(":root { --accent: \(accent); }\n", contentType: "text/css; charset=utf-8")
        }
    }

    private func brand(_ context: some RequestContext) async throws -> OrganisationBrand? {
        guard let slug = context.parameters.get("slug"), OrganisationSlug.isValid(slug),
              let organisation = try await store.organisation(slug: slug) else { return nil }
        return try await store.organisationBrand(organisationID: organisation.id)
    }

    private static let notFound = Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "No such file.\n")))

    private static func file(_ text: String, contentType: String, extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: contentType, .cacheControl: "public, max-age=3600", HTTPField.Name("X-Content-Type-Options")!: "nosniff"]
        headers.append(contentsOf: extra)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
