import Foundation
import Hummingbird
import Logging
import PortvaktProtocol
import ServiceLifecycle

/// Receives the authorization response on `http://127.0.0.1:PORT/callback` (RFC 8252 §7.3): the
/// CLI's redirect URI, on a port the system picks.
final class LoopbackReceiver: Sendable {
    let redirectURI: String
    private let callbacks: AsyncStream<URL>
    private let services: ServiceGroup

    private init(redirectURI: String, callbacks: AsyncStream<URL>, services: ServiceGroup) {
        self.redirectURI = redirectURI
        self.callbacks = callbacks
        self.services = services
    }

    static func start(language: Language) async throws -> LoopbackReceiver {
        var logger = Logger(label: "portvakt.loopback")
        logger.logLevel = .critical
        let (callbacks, received) = AsyncStream<URL>.makeStream()
        let (ports, bound) = AsyncStream<Int>.makeStream()
        let router = Router()
        router.get("/callback") { request, _ -> Response in
            if let url = URL(string: "http://127.0.0.1" + request.uri.description) { received.yield(url) }
            let page = """
            <!doctype html><html lang="\(language.rawValue)"><head><meta charset="utf-8"><title>Portvakt</title></head>
            <body><main><h1>\(CLIText.youCanCloseThisWindow.text(language))</h1>
            <p>\(CLIText.returnToTheTerminal.text(language))</p></main></body></html>
            """
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { bound.yield($0.localAddress?.port ?? 0) },
            logger: logger
        )
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        Task { try? await services.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw CLIError.loopbackUnavailable }
        return LoopbackReceiver(redirectURI: "http://127.0.0.1:\(port)/callback", callbacks: callbacks, services: services)
    }

    /// The next redirect that arrives, or nil after `timeout`.
    func next(timeout: Duration) async -> URL? {
        await withTaskGroup(of: URL?.self) { group in
            group.addTask {
                var iterator = self.callbacks.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    func stop() async {
        await services.triggerGracefulShutdown()
    }
}

enum CLIError: Error {
    case loopbackUnavailable
}
