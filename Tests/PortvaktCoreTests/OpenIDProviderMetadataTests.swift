import Foundation
import PortvaktCore
import Testing

@Suite("OpenID Provider metadata")
struct OpenIDProviderMetadataTests {
    @Test("A provider's document with only what the standard requires reads; what is not set is left out when written")
    func minimalAndOmitted() throws {
        let minimal = #"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/auth","token_endpoint":"https://op.example/token","jwks_uri":"https://op.example/jwks","response_types_supported":["code"],"subject_types_supported":["pairwise"],"id_token_signing_alg_values_supported":["RS256"],"unknown_extension":true}"#
        let document = try JSONDecoder().decode(OpenIDProviderMetadata.self, from: Data(minimal.utf8))
        #expect(document.tokenEndpoint == "https://op.example/token" && document.userinfoEndpoint == nil && document.idTokenSigningAlgValuesSupported == ["RS256"])
        let written = String(decoding: try JSONEncoder().encode(document), as: UTF8.self)
        #expect(!written.contains("userinfo_endpoint") && !written.contains("null") && written.contains(#""jwks_uri""#))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OpenIDProviderMetadata.self, from: Data(#"{"issuer":"https://op.example"}"#.utf8)) }
    }
}
