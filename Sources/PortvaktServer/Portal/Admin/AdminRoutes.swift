import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// An organisation's administration in the portal, under `/admin/{slug}`: overview, members,
/// member sync, deliveries to the member system, merging accounts, and the audit trail. Every
/// page and action checks the role on the server (``AdminRequest``); coordinators see the member
/// list only, read-only.
struct AdminRoutes {
    let portal: PortalRoutes
    let services: AdministrationServices
    let brands: Brands

    /// Who may open a page: administrators only, or coordinators too (read-only pages).
    enum Audience {
        case administrators
        case coordinatorsToo

        /// Declared with the route; the page checks the role itself too, and answers in the portal's words.
        var policy: RoutePolicy { self == .administrators ? .portalAdministrators : .portalCoordinators }
    }

    func register(on routes: DeclaredRoutes) {
        routes.get("/admin", .portalMember, surface: .page) { request, _ in try await organisations(request) }
        let organisation = routes.group("/admin/:slug")
        get(organisation, "") { admin, _ in try await OverviewPage(admin: admin).response() }
        get(organisation, "/members", audience: .coordinatorsToo) { admin, _ in try await MembersPage(admin: admin).list() }
        get(organisation, "/members/:id") { admin, id in try await MembersPage(admin: admin).member(id) }
        post(organisation, "/members/:id/devices/remove", taking: .devicesRemoveAll) { admin, id in try await MembersPage(admin: admin).removeDevices(id) }
        post(organisation, "/members/:id/invite") { admin, id in try await MembersPage(admin: admin).invite(id) }
        // Suspending a membership can end every way in of the member: the administrators' step-up (issue 45 item 5).
        post(organisation, "/members/:id/suspend", taking: .membershipSuspend) { admin, id in try await MembersPage(admin: admin).suspend(id) }
        post(organisation, "/members/:id/suspension/lift", taking: .membershipSuspend) { admin, id in try await MembersPage(admin: admin).liftSuspension(id) }
        get(organisation, "/sync") { admin, _ in try await SyncPages(admin: admin).list() }
        get(organisation, "/sync/:id") { admin, id in try await SyncPages(admin: admin).entry(id, reveal: false) }
        post(organisation, "/sync/:id/reveal", taking: .personnummerReveal) { admin, id in try await SyncPages(admin: admin).entry(id, reveal: true) }
        post(organisation, "/sync/:id/resolve", taking: .conflictResolve) { admin, id in try await SyncPages(admin: admin).resolve(id) }
        get(organisation, "/deliveries") { admin, _ in try await DeliveriesPage(admin: admin).list() }
        post(organisation, "/deliveries/:id/retry") { admin, id in try await DeliveriesPage(admin: admin).retry(id) }
        get(organisation, "/merge") { admin, _ in try await MergePages(admin: admin).choose() }
        get(organisation, "/merge/preview") { admin, _ in try await MergePages(admin: admin).preview() }
        post(organisation, "/merge", taking: .accountsMerge) { admin, _ in try await MergePages(admin: admin).merge() }
        get(organisation, "/merge/done") { admin, _ in try await MergePages(admin: admin).done() }
        get(organisation, "/audit") { admin, _ in try await AuditPages(admin: admin).list() }
        get(organisation, "/audit/export") { admin, _ in try await AuditPages(admin: admin).export() }
    }

    /// A page's handler: the checked request and the path's `:id` ("" when it has none).
    private typealias Handler = @Sendable (AdminRequest, String) async throws -> Response

    private func get(_ organisation: DeclaredRoutes, _ path: String, audience: Audience = .administrators, _ handler: @escaping Handler) {
        organisation.get(RouterPath(path), audience.policy, surface: .page) { request, context in
            guard let signedIn = try await portal.signedIn(request) else { return portal.notSignedIn(request) }
            return try await admin(request, context, signedIn: signedIn, form: nil, audience: audience, handler)
        }
    }

    /// An administrators' form; `action`, when it takes a sensitive one.
    private func post(_ organisation: DeclaredRoutes, _ path: String, taking action: SensitiveAction? = nil, _ handler: @escaping Handler) {
        let policy: RoutePolicy = action.map { RoutePolicy.portalAdministrators.taking($0) } ?? .portalAdministrators
        organisation.post(RouterPath(path), policy, surface: .page) { request, context in
            try await portal.withForm(request) { signedIn, form in
                try await admin(request, context, signedIn: signedIn, form: form, audience: .administrators, handler)
            }
        }
    }

    private func admin(
        _ request: Request, _ context: PortvaktRequestContext, signedIn: PortalRoutes.SignedIn, form: FormFields?, audience: Audience, _ handler: Handler
    ) async throws -> Response {
        var frame = portal.frame(request, signedIn)
        let slug = context.parameters.get("slug") ?? ""
        if request.method == .post { frame = PortalPage.Frame(language: frame.language, path: "/admin/\(slug)", csrf: frame.csrf) }
        let roles = try await services.store.organisationRoles(userID: signedIn.portal.userId)
        // Another organisation's pages do not exist for this person: the same 404 as a wrong address.
        guard let organisation = roles.first(where: { $0.slug == slug }), let stored = try await services.store.organisation(slug: slug) else {
            return PortalRoutes.problem(.notFound, heading: .notFoundTitle, frame: frame, status: .notFound, retry: false, pages: portal.pages)
        }
        frame.brand = await brands.view(stored)
        let admin = AdminRequest(
            services: services, pages: portal.pages, request: request, signedIn: signedIn, organisation: organisation,
            organisationName: stored.name, frame: frame, form: form, confirmationKey: portal.cookie.csrfKey,
            passkeyStepUp: try await services.offersPasskeyStepUp(userID: signedIn.portal.userId, roles: roles)
        )
        let allowed = organisation.roles.contains(.orgAdmin) || (audience == .coordinatorsToo && organisation.roles.contains(.coordinator))
        guard allowed else {
            return admin.problem(.administratorsOnly, heading: .notAllowedTitle, status: .forbidden,
                                 back: organisation.roles.contains(.coordinator) ? "/admin/\(slug)/members" : "/account")
        }
        do {
            return try await handler(admin, context.parameters.get("id") ?? "")
        } catch let refusal as DomainError {
            // One mapping of the domain's refusals to pages, for every administration page.
            return admin.problem(refusal, back: admin.base)
        }
    }

    /// `/admin`: the organisations this person administers or coordinates.
    private func organisations(_ request: Request) async throws -> Response {
        guard let signedIn = try await portal.signedIn(request) else { return portal.notSignedIn(request) }
        let frame = portal.frame(request, signedIn)
        let names = Dictionary(uniqueKeysWithValues: try await services.store.organisations().map { ($0.id, $0.name) })
        let managed = try await services.store.organisationRoles(userID: signedIn.portal.userId).compactMap { organisation -> AdminHomeView.Organisation? in
            let isAdmin = organisation.roles.contains(.orgAdmin)
            guard isAdmin || organisation.roles.contains(.coordinator) else { return nil }
            let name = names[organisation.organisationID] ?? organisation.slug
            return AdminHomeView.Organisation(
                name: name, href: isAdmin ? "/admin/\(organisation.slug)" : "/admin/\(organisation.slug)/members",
                role: PortalWords.role(isAdmin ? .orgAdmin : .coordinator, organisation: name, frame.language)
            )
        }
        return portal.pages.response("admin_home", frame: frame, values: AdminHomeView(organisations: managed, hasOrganisations: !managed.isEmpty))
    }
}

/// What `admin_home` reads: the organisations this person administers or coordinates.
struct AdminHomeView: PageValues {
    let organisations: [Organisation]
    let hasOrganisations: Bool

    struct Organisation: PageValues {
        let name: String
        /// The overview, or the member list for a coordinator.
        let href: String
        let role: String
    }
}
