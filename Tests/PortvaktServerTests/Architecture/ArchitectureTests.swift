import Foundation
import Testing

/// Issue 34's shape, held by the sources themselves: no all-knowing object, routes and pages that
/// receive a few services, a domain without HTTP, files a reader can hold in mind.
@Suite("Architecture")
struct ArchitectureTests {
    static let sources = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../../Sources").standardized

    static func swiftFiles(under folder: String) throws -> [(path: String, text: String)] {
        let root = sources.appending(path: folder)
        let walker = FileManager.default.enumerator(atPath: root.path)
        var files: [(String, String)] = []
        while let relative = walker?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            files.append((folder + "/" + relative, try String(contentsOf: root.appending(path: relative), encoding: .utf8)))
        }
        return files
    }

    @Test("No type named Broker, and no route or page type with more than four stored dependencies")
    func routesReceiveFewServices() throws {
        let files = try Self.swiftFiles(under: "PortvaktServer")
        #expect(files.count > 100)
        for (path, text) in files {
            #expect(text.firstMatch(of: /\bBroker\b/) == nil, "\(path) names Broker")
        }
        var checked = 0
        for (path, text) in files where path.hasSuffix("Routes.swift") || path.hasSuffix("Page.swift") || path.hasSuffix("Pages.swift") {
            let declared = Set(text.matches(of: #/\n(?:public )?(?:struct|final class) (\w+)/#).map { String($0.1) })
            let read = text.matches(of: #/\n(?:public )?(struct|final class) (\w+)([^\n{]*)\{\n((?:    [^\n]*\n|\n)*?)\}/#)
            #expect(Set(read.map { String($0.2) }) == declared, "\(path): a type's body could not be read")
            // A page's view model (`PageValues`) holds the values its template reads, not services.
            for declaration in read where !declaration.3.contains("PageValues") {
                // Stored properties of the type itself: four spaces in, `let`/`var`, no value, not computed.
                let stored = declaration.4.split(separator: "\n").filter { line in
                    line.wholeMatch(of: #/    (?:(?:public|private|fileprivate|internal) )?(let|var) \w+: [^={]+/#) != nil
                }
                checked += 1
                #expect(stored.count <= 4, "\(path): \(declaration.2) holds \(stored.count): \(stored.joined(separator: "; "))")
            }
        }
        #expect(checked >= 20, "route and page types found: \(checked)")
    }

    @Test("Routes and pages reach the database only through services and the read protocols: no `PortvaktStore` in them")
    func routesWithoutTheStore() throws {
        let files = try Self.swiftFiles(under: "PortvaktServer").filter {
            $0.path.hasSuffix("Routes.swift") || $0.path.hasSuffix("Page.swift") || $0.path.hasSuffix("Pages.swift") || $0.path.hasSuffix("AdminRequest.swift")
        }
        #expect(files.count >= 20)
        for (path, text) in files {
            #expect(!text.contains(/\bPortvaktStore\b/), "\(path) names PortvaktStore")
        }
    }

    @Test("Audit events are written with an AuditAction: only the store, reading the trail back, names a recorded action as text")
    func auditActionsAreTheEnum() throws {
        for folder in try FileManager.default.contentsOfDirectory(atPath: Self.sources.path) {
            for (path, text) in try Self.swiftFiles(under: folder) where text.contains("recordedAction:") {
                #expect(path.hasSuffix("PortvaktStore+Audit.swift") || path.hasSuffix("AuditEvent.swift"), "\(path) writes an action as text")
            }
        }
    }

    @Test("Issue 48: each route is declared where it is registered: no table of `METHOD /path` strings, and no route put on the router past DeclaredRoutes")
    func routesDeclaredWhereRegistered() throws {
        let files = try Self.swiftFiles(under: "PortvaktServer")
        for (path, text) in files {
            #expect(text.firstMatch(of: /"(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \//) == nil, "\(path) names a route as a `METHOD /path` string")
        }
        // Only these build a router: the helper itself, the server's and the standalone sandbox's
        // routers, the 405 answers (registered from the routes already there), and the metrics port's.
        let routerFiles: Set<String> = [
            "DeclaredRoutes.swift", "PortvaktApplication+Router.swift", "SandboxServer.swift", "MethodNotAllowed.swift", "MetricsServer.swift",
        ]
        for (path, text) in files where !routerFiles.contains(URL(filePath: path).lastPathComponent) {
            #expect(text.firstMatch(of: /\b(Router|RouterGroup|RouteCollection|RouterMethods)\s*[<(]/) == nil, "\(path) reaches the router past DeclaredRoutes")
        }
        let routeFiles = files.filter { $0.path.hasSuffix("Routes.swift") && !$0.path.hasSuffix("/DeclaredRoutes.swift") }
        #expect(routeFiles.count >= 25)
        for (path, text) in routeFiles {
            #expect(text.contains("on routes: DeclaredRoutes"), "\(path) registers its routes through DeclaredRoutes")
        }
    }

    @Test("Issue 48: refusals become answers in one place per surface: no route or page turns an OAuthFailure or a SCIMError into a response, or catches either")
    func errorsAnsweredInOnePlace() throws {
        // The error types define their shapes, and middlewares answer (ErrorAnswerMiddleware and UnexpectedErrorMiddleware
        // by the surface; the others render an HTTPResponseError to add their headers to it, as Hummingbird's do).
        let files = try Self.swiftFiles(under: "PortvaktServer").filter { file in
            let name = URL(filePath: file.path).lastPathComponent
            return !name.hasSuffix("Middleware.swift") && !["OAuthFailure.swift", "SCIMError.swift"].contains(name)
        }
        #expect(files.count >= 150)
        for (path, text) in files {
            #expect(!text.contains(/\.response\((for|from):\s/), "\(path) turns an error into an answer itself")
            #expect(!text.contains(/catch\s+(let\s+\w+\s+)?(as|is)\s+(OAuthFailure|SCIMError)\b/), "\(path) catches a refusal meant for the surface's answer")
        }
    }

    @Test("The domain imports no HTTP")
    func domainWithoutHTTP() throws {
        let files = try Self.swiftFiles(under: "PortvaktDomain")
        #expect(files.count >= 15)
        for (path, text) in files {
            #expect(text.firstMatch(of: #/import (\w+ )?(Hummingbird\w*|HTTPTypes|NIO\w*|AsyncHTTPClient)\b/#) == nil, "\(path)")
        }
    }

    @Test("Issue 48: /v1 bodies are described once, in PortvaktProtocol's wire types: the CLI decodes and prints typed values (no `[String: Any]`), and neither the server's API nor the Kit declares its own `Me`")
    func oneDescriptionOfTheWire() throws {
        let cli = try Self.swiftFiles(under: "portvakt")
        #expect(cli.count >= 10)
        for (path, text) in cli {
            #expect(text.firstMatch(of: /\[\s*String\s*:\s*Any\s*\]/) == nil, "\(path) holds a [String: Any]")
        }
        let readers = try Self.swiftFiles(under: "PortvaktServer/API") + Self.swiftFiles(under: "PortvaktKit")
        #expect(readers.count >= 20)
        for (path, text) in readers {
            #expect(text.firstMatch(of: /\bstruct Me\b/) == nil, "\(path) declares its own struct Me; use MeResponse")
        }
    }

    @Test("Issue 48 item 6: a page's template reads a view model (`PageValues`), never a `[String: Any]`, in the portal, the broker's pages and the sandbox's")
    func pagesReadViewModels() throws {
        // The audit export writes JSON lines with JSONSerialization: a file, not a page.
        let notPages: Set<String> = ["AuditExport.swift"]
        let pages = try Self.swiftFiles(under: "PortvaktServer/Portal") + Self.swiftFiles(under: "PortvaktServer/Pages")
            + Self.swiftFiles(under: "PortvaktServer/Sandbox") + Self.swiftFiles(under: "PortvaktSandbox/Pages")
        #expect(pages.count >= 40)
        for (path, text) in pages where !notPages.contains(URL(filePath: path).lastPathComponent) {
            #expect(text.firstMatch(of: /\[\s*String\s*:\s*Any\s*\]/) == nil, "\(path) holds a [String: Any]; give the page a view model")
        }
        // One renderer: only PortvaktHTTP's PageRenderer speaks Mustache.
        for folder in ["PortvaktServer", "PortvaktSandbox"] {
            for (path, text) in try Self.swiftFiles(under: folder) {
                #expect(text.firstMatch(of: /(?m)^import Mustache$/) == nil, "\(path) imports Mustache; render through PageRenderer")
            }
        }
    }

    @Test("No Swift source is over 400 lines, the text catalogues aside")
    func shortFiles() throws {
        let catalogues: Set<String> = ["PortalText.swift", "AdminText.swift", "BrokerText.swift", "MailboxText.swift", "SandboxText.swift", "UserMessage.swift"]
        for folder in try FileManager.default.contentsOfDirectory(atPath: Self.sources.path) {
            for (path, text) in try Self.swiftFiles(under: folder) where !catalogues.contains(URL(filePath: path).lastPathComponent) {
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
                #expect(lines <= 400, "\(path): \(lines) lines")
            }
        }
    }
}
