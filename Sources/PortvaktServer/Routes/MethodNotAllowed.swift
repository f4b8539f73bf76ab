import HTTPTypes
import Hummingbird
import PortvaktHTTP
import PortvaktProtocol

/// A known path asked with a method it does not serve answers 405 with `Allow` (RFC 9110
/// §15.5.6), not 404: the path exists. Registered last, from the routes already there. Under
/// `/scim` it is SCIM's error, as every answer there is.
enum MethodNotAllowed {
    static let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .options, .trace, HTTPRequest.Method("QUERY")!]

    static func register(on router: Router<PortvaktRequestContext>) {
        for routes in Dictionary(grouping: router.routes, by: { $0.path.description }).values {
            let served = Set(routes.map(\.method))
            let allow = methods.filter(served.contains).map(\.rawValue).joined(separator: ", ")
            let scim = RouteTable.isSCIM(routes[0].path.description)
            for method in methods where !served.contains(method) {
                router.on(routes[0].path, method: method) { _, _ in
                    if scim {
                        throw SCIMError(status: .methodNotAllowed, kind: nil, detail: "This address answers \(allow) only.", headers: [.allow: allow])
                    }
                    var response = try Responses.oauthError(OAuthErrorCode.methodNotAllowed.rawValue, "This address answers \(allow) only.", status: .methodNotAllowed)
                    response.headers[.allow] = allow
                    return response
                }
            }
        }
    }
}
