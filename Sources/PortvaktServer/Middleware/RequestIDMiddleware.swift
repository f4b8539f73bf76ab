import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id: the caller's `X-Request-Id` when it is a sensible one (1–128 of
/// letters, digits, `-`, `_`, `.`, `:`), else a new one. It is on every log line of the request
/// (`request_id`) and on the response, errors included, so a user's report can be found in the logs.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = request.headers[.xRequestID].flatMap(Self.accepted) ?? RequestID().description
        var context = context
        context.logger[metadataKey: "hb.request.id"] = nil
        context.logger[metadataKey: "request_id"] = .string(id)
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.xRequestID] = id
        return response
    }

    static func accepted(_ id: String) -> String? {
        let allowed = id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "-_.:".utf8.contains(byte)
            }
        }
        return allowed && (1...128).contains(id.utf8.count) ? id : nil
    }
}

extension HTTPField.Name {
    static let xRequestID = Self("X-Request-Id")!
}
