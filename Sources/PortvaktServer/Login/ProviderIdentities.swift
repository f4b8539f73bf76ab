import Foundation
import Personnummer
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// Who BankID or Vipps says logged in, the member that is, and (S15) the claim of a membership
/// by email when there is none.
struct ProviderIdentities: Sendable {
    private let linker: IdentityLinker
    private let claims: MembershipClaims
    /// Synthetic (test) personnummer are accepted only when the sandbox is on.
    private let personnummerContext: Personnummer.Context
    /// Binds a claim this offers to the browser it is offered in.
    let browserBinding: BrowserBinding

    init(linker: IdentityLinker, claims: MembershipClaims, personnummerContext: Personnummer.Context, browserBinding: BrowserBinding) {
        self.linker = linker
        self.claims = claims
        self.browserBinding = browserBinding
        self.personnummerContext = personnummerContext
    }

    /// The member behind the login; nil when no member record matches.
    func user(for login: IdentityLinker.Login, now: Date) async throws -> User? {
        try await linker.user(for: login, now: now)
    }

    /// S15: the handle of a new claim for a login that found no member, or nil when it may not
    /// claim one by email (a record carries its personnummer: it is someone's already).
    func offerClaim(
        _ login: PendingLogin, identity: IdentityLinker.Login, provided: ProvidedPersonnummer, method: LoginCompletion.Method
    ) async throws -> String? {
        guard try await claims.mayClaim(identity) else { return nil }
        return try await claims.begin(login, identity: identity, provided: provided, method: method)
    }

    /// Who the provider says logged in: BankID's `nnin_altsub` from the ID token, Vipps's `nin`
    /// and phone number from userinfo. A personnummer that fails validation does not link the
    /// user; the member sync records it as `invalid`.
    func identity(
        provider: IdentityProvider, upstream: UpstreamProvider, tokens: UpstreamTokens, idToken: UpstreamIDToken, now: Date
    ) async throws(UpstreamError) -> (IdentityLinker.Login, ProvidedPersonnummer) {
        var number = idToken.nninAltsub
        var phone: String?
        var name = idToken.name
        if provider == .vipps {
            let info = try await upstream.userinfo(accessToken: tokens.accessToken, subject: idToken.sub, now: now)
            number = info.nin
            phone = IdentityLinker.e164(info.phoneNumber)
            name = info.name ?? name
        }
        let personnummer = number.flatMap { try? Personnummer($0, context: personnummerContext) }
        let provided: ProvidedPersonnummer = if let personnummer { .number(personnummer) } else if number == nil { .absent } else { .invalid }
        return (IdentityLinker.Login(provider: provider, subject: idToken.sub, personnummer: personnummer, phone: phone, name: name), provided)
    }
}
