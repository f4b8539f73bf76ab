import Foundation
import PortvaktProtocol
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plain HTTP for the CLI's browser part: redirects are returned, not followed.
enum HTTP {
    private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
            completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    private static let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)

    static func request(_ url: URL) -> URLRequest {
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.setValue("text/html", forHTTPHeaderField: "Accept")
        return request
    }

    static func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }

    static func form(_ fields: [(String, String)]) -> String {
        fields.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
    }
}
