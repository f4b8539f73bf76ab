import HTTPTypes
import Hummingbird
import PortvaktDomain

/// Refuses a form of the broker's own pages posted from another site (review IV, item 1): the
/// routes declared with a `sameOriginForm` ``RoutePolicy`` answer only a request the browser says came
/// from this origin. `Sec-Fetch-Site` decides when the browser sends it (`same-origin`, or `none`
/// for one the person started); otherwise `Origin`, when present, must be this server's. A
/// client that sends neither is no browser acting for someone else, and the route's own
/// credential (the flow's handle, the claim's cookie) still has to hold.
struct SameOriginFormMiddleware: RouterMiddleware {
    typealias Context = PortvaktRequestContext
    let address: PublicAddress
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let path = context.endpointPath, routes.declaration(of: request, context: context)?.policy.sameOriginForm == true,
              !Self.isSameOrigin(request, origin: PortalSessionCookie.origin(of: address.current))
        else { return try await next(request, context) }
        context.logger.notice("A form of the login pages was posted from another site", metadata: ["route": "\(path)"])
        return BrokerPage.problem(.invalidLoginRequest, reason: "the form was sent from another site", language: PortalLanguage.of(request), status: .forbidden)
    }

    static func isSameOrigin(_ request: Request, origin: String) -> Bool {
        if let site = request.headers[.secFetchSite] { return site == "same-origin" || site == "none" }
        if let sender = request.headers[.origin] { return sender == origin }
        return true
    }
}

extension HTTPField.Name {
    static let secFetchSite = Self("Sec-Fetch-Site")!
}
