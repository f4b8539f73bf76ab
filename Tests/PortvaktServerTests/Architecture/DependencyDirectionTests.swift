import Foundation
import Testing

/// Issue 48 item 1: the dependency points from storage to the rules. The domain decides in
/// PortvaktModels' values and asks each store protocol for the few functions it needs; storage
/// implements those protocols. The server, which composes both, may still hold the store.
@Suite("Architecture: storage depends on the domain, not the other way")
struct DependencyDirectionTests {
    static let packageManifest = ArchitectureTests.sources.appending(path: "../Package.swift").standardized

    /// The names in a target's `dependencies: [...]` list in Package.swift.
    static func dependencies(of target: String) throws -> [String] {
        let manifest = try String(contentsOf: packageManifest, encoding: .utf8)
        let declaration = try #require(manifest.firstRange(of: "name: \"\(target)\","), "\(target) is declared")
        let rest = manifest[declaration.upperBound...]
        let list = try #require(rest.firstMatch(of: #/dependencies: \[(?<names>[^\]]*)\]/#))
        return list.output.names.matches(of: #/"(\w+)"/#).map { String($0.output.1) }
    }

    @Test("No domain file imports PortvaktStorage, names PortvaktStore, or holds a store other than through a protocol")
    func domainWithoutStorage() throws {
        let files = try ArchitectureTests.swiftFiles(under: "PortvaktDomain")
        #expect(files.count >= 60, "the domain was read (\(files.count) files)")
        for (path, text) in files {
            #expect(text.firstMatch(of: #/(?m)^(@testable )?import PortvaktStorage$/#) == nil, "\(path) imports storage")
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            #expect(code.firstMatch(of: #/\bPortvaktStore\b/#) == nil, "\(path) names the concrete store")
        }
    }

    @Test("The models and the domain do not depend on storage in Package.swift; storage depends on the domain")
    func manifestPointsFromStorageToTheDomain() throws {
        let models = try Self.dependencies(of: "PortvaktModels")
        let domain = try Self.dependencies(of: "PortvaktDomain")
        let storage = try Self.dependencies(of: "PortvaktStorage")
        #expect(!models.contains("PortvaktStorage") && !models.contains("PortvaktDomain"), "\(models)")
        #expect(domain.contains("PortvaktModels") && !domain.contains("PortvaktStorage"), "\(domain)")
        #expect(storage.contains("PortvaktDomain") && storage.contains("PortvaktModels"), "\(storage)")
    }

    @Test("The models are plain values: no SQL, no HTTP, no store")
    func modelsArePlainValues() throws {
        let files = try ArchitectureTests.swiftFiles(under: "PortvaktModels")
        #expect(files.count >= 20, "the models were read (\(files.count) files)")
        for (path, text) in files {
            #expect(text.firstMatch(of: #/import (SQLKit|SQLiteKit|PostgresKit|PostgresNIO|Hummingbird\w*|NIO\w*|PortvaktStorage|PortvaktDomain)\b/#) == nil, "\(path)")
        }
    }

    /// The server composes the store with the services; its count of files that hold the
    /// concrete store may only fall.
    static let serverFilesHoldingTheStore = 21

    @Test("No more server files hold the concrete PortvaktStore than today")
    func serverFilesHoldingTheStore() throws {
        let files = try ArchitectureTests.swiftFiles(under: "PortvaktServer")
        let holding = files.filter { $0.text.contains(/store: PortvaktStore\b/) }.map(\.path)
        #expect(holding.count <= Self.serverFilesHoldingTheStore, "\(holding.sorted())")
    }
}
