import Crypto
import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// One request to an organisation's administration pages, after the checks every one of them
/// makes on the server: signed in, a member of the organisation in the path (else 404, as if it
/// did not exist), and the role the page needs (else 403); a form also carries its CSRF token.
struct AdminRequest {
    let services: AdministrationServices
    let pages: PortalPage
    let request: Request
    let signedIn: PortalRoutes.SignedIn
    let organisation: OrganisationRoles
    let organisationName: String
    var frame: PortalPage.Frame
    /// The form's fields, for a POST.
    let form: FormFields?
    /// Signs confirmations bound to this browser's session (the CSRF key).
    let confirmationKey: SymmetricKey
    /// Whether a passkey may confirm this person for the administrators' actions (S18.3):
    /// ``AdministrationServices/offersPasskeyStepUp(userID:roles:)``.
    let passkeyStepUp: Bool

    var language: Language { frame.language }
    var adminID: String { signedIn.portal.userId }
    var organisationID: String { organisation.organisationID }
    var isAdmin: Bool { organisation.roles.contains(.orgAdmin) }
    /// `/admin/{slug}`: every page of the organisation is under it.
    var base: String { "/admin/\(organisation.slug)" }
    var query: FormFields { FormFields(request.uri.query ?? "") ?? FormFields("")! }

    var administration: MemberAdministration { services.administration }

    /// Whether this browser's Portvakt session meets `action`'s policy (``ActionPolicy``), the
    /// same one the JSON API enforces: for revealing, resolving and merging, a BankID or Vipps
    /// login in the last five minutes.
    func hasStepUp(for action: SensitiveAction) async throws -> Bool {
        try await actor()?.satisfies(action, at: services.now()) ?? false
    }

    /// The administrator as the domain's operations take them: this browser's Portvakt session
    /// and their roles as the database holds them now; nil when the session is gone.
    func actor() async throws -> Actor? {
        guard let session = try await services.store.session(id: signedIn.portal.sessionId) else { return nil }
        return Actor(
            session: session, organisations: try await services.store.organisationRoles(userID: session.userId),
            highAssuranceOrganisations: services.highAssuranceOrganisations
        )
    }

    /// A domain refusal as a page: the words for its reason, with a way back to `back`.
    func problem(_ refusal: DomainError, back: String) -> Response {
        let status: HTTPResponse.Status = switch refusal.kind {
        case .notFound: .notFound
        case .notAllowed: .forbidden
        case .stepUpRequired: .unauthorized
        case .conflict: .conflict
        case .invalidInput: .badRequest
        case .throttled: .tooManyRequests
        }
        let heading: AdminText = refusal.kind == .stepUpRequired ? .stepUpTitle : .problemTitle
        return pages.response("problem", frame: frame, values: NoticeView(
            heading: heading.text(language), message: AdminWords.refusal(refusal, language),
            action: NoticeView.Action(href: back, label: AdminText.backToAdministration.text(language))
        ), status: status)
    }

    static let stepUpMaxAge = ActionPolicy.administratorFreshness

    /// A page of the organisation: its name, the section's navigation, and where a step-up returns
    /// (``AdministrationValues``), around the page's own `values`.
    func page(_ template: String, section: AdminSection, values: some PageValues, status: HTTPResponse.Status = .ok) -> Response {
        let administration = AdministrationValues(
            org: AdministrationValues.Organisation(slug: organisation.slug, name: organisationName, admin: isAdmin),
            here: AdministrationValues.Sections(section),
            base: base,
            stepUpBack: FormFields.encode(request.method == .get ? request.uri.description : base),
            passkeyStepUp: passkeyStepUp
        )
        return pages.response(template, frame: frame, values: values, around: [administration], status: status)
    }

    /// A page that says what went wrong, with a way back to `back` (default: the overview).
    func problem(_ message: AdminText, heading: AdminText = .problemTitle, status: HTTPResponse.Status, back: String? = nil) -> Response {
        pages.response("problem", frame: frame, values: NoticeView(
            heading: heading.text(language), message: message.text(language),
            action: NoticeView.Action(href: back ?? base, label: AdminText.backToAdministration.text(language))
        ), status: status)
    }

    func redirect(_ path: String) -> Response { PortalPage.redirect(to: path) }

    /// `page` (from 1) of a list, or nil when the parameter is not a page there.
    func paging(total: Int, size: Int) -> Paging? {
        let text = query["page"] ?? "1"
        guard text.utf8.count <= 6, let page = Int(text), page >= 1 else { return nil }
        let pages = max(1, (total + size - 1) / size)
        guard page <= pages else { return nil }
        return Paging(page: page, pages: pages, size: size, total: total)
    }
}

/// The sections of an organisation's administration, for the navigation's `aria-current`.
enum AdminSection: String {
    case overview, members, sync, deliveries, merge, audit
}

/// Where a list is: page `page` of `pages`.
struct Paging {
    let page: Int
    let pages: Int
    let size: Int
    let total: Int

    var offset: Int { (page - 1) * size }

    /// The navigation's values; `link` makes the address of another page with the same filters.
    func links(_ language: Language, link: (Int) -> String) -> PagingLinks {
        PagingLinks(
            pageText: AdminPhrase.pagePageOfPages.text(language, ["page": String(page), "pages": String(pages)]),
            previous: page > 1 ? link(page - 1) : nil,
            next: page < pages ? link(page + 1) : nil
        )
    }
}

extension FormFields {
    /// The address `path` with these query fields, one of them replaced (nil: left out), empty ones dropped.
    static func link(_ path: String, _ fields: [(String, String?)]) -> String {
        let kept = fields.compactMap { name, value in value.flatMap { $0.isEmpty ? nil : (name, $0) } }
        return URLComponents.appending(kept, to: path)
    }
}
