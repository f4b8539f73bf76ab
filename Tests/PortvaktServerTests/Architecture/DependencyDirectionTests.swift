import Foundation
import Testing

/// Issue 48 item 1 points the dependency the other way: the domain owns its types and storage
/// implements the domain's protocols. Until it is done, a ratchet: the count of domain files that
/// import storage, and of services holding the concrete store, may only fall. Lower the numbers
/// as files move; the last step replaces this with "none".
@Suite("Architecture: the dependency on storage only shrinks")
struct DependencyDirectionTests {
    static let domainFilesImportingStorage = 48
    static let domainServicesHoldingTheStore = 11
    static let serverFilesHoldingTheStore = 21

    static func count(under folder: String, matching pattern: Regex<Substring>) throws -> [String] {
        let files = try ArchitectureTests.swiftFiles(under: folder)
        #expect(files.count >= 60, "\(folder) was read (\(files.count) files)")
        return files.filter { $0.text.contains(pattern) }.map(\.path)
    }

    @Test("No more domain files import PortvaktStorage than today")
    func domainImportsOfStorage() throws {
        let importing = try Self.count(under: "PortvaktDomain", matching: /(?m)^import PortvaktStorage$/)
        #expect(importing.count <= Self.domainFilesImportingStorage, "new: \(importing.sorted())")
    }

    @Test("No more services hold the concrete PortvaktStore than today, in the domain and in the server")
    func servicesHoldingTheStore() throws {
        let holding = /store: PortvaktStore\b/
        let domain = try Self.count(under: "PortvaktDomain", matching: holding)
        #expect(domain.count <= Self.domainServicesHoldingTheStore, "\(domain.sorted())")
        let server = try Self.count(under: "PortvaktServer", matching: holding)
        #expect(server.count <= Self.serverFilesHoldingTheStore, "\(server.sorted())")
    }
}
