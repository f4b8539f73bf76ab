import Hummingbird
import PortvaktCore

/// A browser that asks for an address that does not exist, or with a method it does not take,
/// gets a page in its language that says so and leads on, not an empty 404 or a JSON 405.
/// Programs (no `text/html` in `Accept`) keep the JSON answers, and so does a JSON endpoint's
/// own 404 for an id it does not know; anything under `/scim` keeps SCIM's answers.
struct BrowserErrorPages: RouterMiddleware {
    typealias Context = PortvaktRequestContext
    let pages: PortalPage
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.accept]?.contains("text/html") == true else { return try await next(request, context) }
        let status: HTTPResponse.Status
        do {
            let response = try await next(request, context)
            guard [.notFound, .methodNotAllowed].contains(response.status),
                  response.headers[.contentType]?.hasPrefix("text/html") != true
            else { return response }
            // A JSON endpoint's own "no such id" stays its JSON: the address exists. A member system's
            // request keeps SCIM's shape, whatever its address.
            let surface = routes.surface(of: request, context: context)
            if surface == .scim || (response.status == .notFound && routes.declaration(of: request, context: context) != nil && surface != .page) { return response }
            status = response.status
        } catch let error as HTTPError where error.status == .notFound {
            status = .notFound
        }
        let frame = PortalPage.Frame(language: PortalLanguage.of(request), path: "/", csrf: nil)
        return pages.response("problem", frame: frame, values: NoticeView(
            heading: PortalText.notFoundTitle.text(frame.language), message: PortalText.notFound.text(frame.language), action: nil
        ), status: status)
    }
}
