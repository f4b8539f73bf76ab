import Foundation
import Testing

/// Issue 48 item 1: the dependency points from storage to the rules. The domain decides in
/// PortvaktModels' values and asks each store protocol for the few functions it needs; storage
/// implements those protocols. The server, which composes both, may still hold the store.
@Suite("Architecture: storage depends on the domain, not the other way")
struct DependencyDirectionTests {
    static let packageManifest = ArchitectureTests.sources.appending(path: "../Package.swift").standardized

    /// The names in a target's `dependencies: [...]` list in Package.swift (brackets inside it balanced).
    static func dependencies(of target: String) throws -> [String] {
        let manifest = try String(contentsOf: packageManifest, encoding: .utf8)
        let declaration = try Regex(#"\.target\(\s*name: ""# + target + #"","#)
        let start = try #require(manifest.firstMatch(of: declaration), "\(target) is declared as a target").range.upperBound
        let list = try #require(manifest[start...].firstRange(of: "dependencies: ["), "\(target) lists its dependencies")
        var depth = 1
        var end = list.upperBound
        while depth > 0, end < manifest.endIndex {
            if manifest[end] == "[" { depth += 1 } else if manifest[end] == "]" { depth -= 1 }
            end = manifest.index(after: end)
        }
        return manifest[list.upperBound..<end].matches(of: #/"(\w+)"/#).map { String($0.output.1) }
    }

    @Test("No domain file imports PortvaktStorage, names PortvaktStore, or holds a store other than through a protocol")
    func domainWithoutStorage() throws {
        let files = try ArchitectureTests.swiftFiles(under: "PortvaktDomain")
        #expect(files.count >= 60, "the domain was read (\(files.count) files)")
        for (path, text) in files {
            let importsStorage = #/(?m)^\s*(@\w+(\([^)]*\))?\s+)*((public|package|internal|fileprivate|private)\s+)?import\s+((struct|class|enum|protocol|func|var|let|typealias)\s+)?PortvaktStorage(?!\w)/#
            #expect(text.firstMatch(of: importsStorage) == nil, "\(path) imports storage")
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
            #expect(text.firstMatch(of: #/import (SQLKit|SQLiteKit|PostgresKit|PostgresNIO|Hummingbird\w*|NIO\w*|PortvaktHTTP|PortvaktStorage|PortvaktDomain)\b/#) == nil, "\(path)")
        }
    }

    @Test("A row's storage-only columns (its sealed parts, blind index, handle hash) are named by storage and the models alone")
    func storageOnlyColumnsStayInStorage() throws {
        var columns = Set<String>()
        for (_, text) in try ArchitectureTests.swiftFiles(under: "PortvaktModels") {
            var inPublicType = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                // A declaration at the start of a line opens a type (or an extension) at the top level.
                if line.firstMatch(of: #/^(\w+ )*(struct|enum|class|actor|protocol|extension) /#) != nil { inPublicType = line.hasPrefix("public ") }
                if inPublicType, let column = line.firstMatch(of: #/^\s{4,}package (let|var) (\w+): [^{]*$/#) { columns.insert(String(column.output.2)) }
            }
        }
        #expect(columns.isSuperset(of: ["personnummerSealed", "personnummerIndex", "payloadSealed", "handleHash"]), "\(columns.sorted())")
        let outside = try ["PortvaktDomain", "PortvaktServer", "PortvaktSandbox", "PortvaktHTTP", "portvakt-server", "portvakt"]
            .flatMap { try ArchitectureTests.swiftFiles(under: $0) }
        for (path, text) in outside {
            for column in columns {
                #expect(text.firstMatch(of: try Regex("\\.\(column)(?!\\w)")) == nil, "\(path) reads \(column)")
            }
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
