import Foundation
import PortvaktProtocol
import Testing

/// Issue 48 item 4: the `error` of every answer is one of ``OAuthErrorCode``'s cases, written
/// once, so a misspelt code cannot compile and a client can switch over them.
@Suite("Architecture: one list of error codes")
struct ErrorCodeTests {
    @Test("No OAuth or API error code is spelt as a string outside OAuthErrorCode.swift (the sandbox, a third party, aside), escaped in a header either")
    func errorCodesAreTheEnum() throws {
        let codes = OAuthErrorCode.allCases.map(\.rawValue).filter { $0.contains("_") }
        #expect(codes.count >= 20)
        var checked = 0
        let folders = try FileManager.default.contentsOfDirectory(atPath: ArchitectureTests.sources.path).filter { $0 != "PortvaktSandbox" }
        for folder in folders {
            for (path, text) in try ArchitectureTests.swiftFiles(under: folder) where !path.hasSuffix("OAuthErrorCode.swift") {
                checked += 1
                // Other vocabularies (a message id, a page text key, a domain reason) may share a word: their
                // declarations are not error codes.
                let lines = text.split(separator: "\n").filter { $0.firstMatch(of: /\bcase \w+ = "|Reason\(rawValue: "/) == nil }
                for code in codes {
                    let spelt = lines.contains { $0.contains("\"\(code)\"") || $0.contains("\"\(code)\\\"") }
                    #expect(!spelt, "\(path) spells \"\(code)\"; use OAuthErrorCode")
                }
            }
        }
        #expect(checked > 300)
    }

    @Test("A code interpolated into text writes its wire form, never the Swift case name")
    func interpolationWritesTheWireForm() {
        #expect("\(OAuthErrorCode.invalidGrant)" == "invalid_grant")
        #expect("error=\"\(OAuthErrorCode.useDPoPNonce)\"" == #"error="use_dpop_nonce""#)
    }

    @Test("Each code's text is the standard's: snake case, and the cases the OAuth answers need are there")
    func codesAreWireText() {
        for code in OAuthErrorCode.allCases {
            #expect(code.rawValue.wholeMatch(of: /[a-z]+(_[a-z]+)*/) != nil, "\(code)")
        }
        #expect(OAuthErrorCode(rawValue: "invalid_grant") == .invalidGrant)
        #expect(OAuthErrorCode(rawValue: "use_dpop_nonce") == .useDPoPNonce)
        #expect(OAuthErrorCode(rawValue: "something_else") == nil, "outside input that is no code stays unknown")
    }
}
