import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// Issue 62 item 3: each organisation's name, logo, accent colour, mail signature and support
/// contact, set by the operator and shown wherever that one organisation applies.
@Suite("Organisation brands")
struct OrganisationBrandTests {
    static let logo = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><title>HLF</title><circle cx="20" cy="20" r="18" fill="#7a1f5c"/></svg>"##

    @Test("An unsafe SVG and an unreadable accent colour are refused with a sentence that says why; a plain picture and a dark colour pass")
    func rules() throws {
        #expect(try BrandRules.logo(Self.logo) == Self.logo)
        let drawn = ##"<?xml version="1.0" encoding="UTF-8"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><defs><linearGradient id="g"><stop offset="0" stop-color="#123456"/></linearGradient></defs><g transform="rotate(45 4 4) translate(1,1)"><rect fill="url(#g)" width="4" height="4"/><use href="#g"/></g></svg>"##
        #expect(try BrandRules.logo(drawn) == drawn, "a gradient, a transform and a reference inside the logo")
        #expect(throws: BrandProblem.self, "a right-to-left override in a name") { try OrganisationBranding.check([.displayName: "HLF\u{202E}gnp.exe"]) }
        #expect(try BrandRules.accent(" #7A1F5C ") == "#7a1f5c")
        let unsafe: [(String, String)] = [
            (#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#, "<script>"),
            (#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#, "event handler"),
            (#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="https://evil.example/a.svg#x"/></svg>"#, "outside the logo"),
            (#"<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(https://evil.example/p)" width="1" height="1"/></svg>"#, "outside the logo"),
            (#"<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:red" width="1" height="1"/></svg>"#, "style attribute"),
            (#"<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><p>x</p></foreignObject></svg>"#, "<foreignObject>"),
            (#"<svg xmlns="http://www.w3.org/2000/svg"><image href="data:image/png;base64,AAAA"/></svg>"#, "<image>"),
            (#"<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>"#, "DOCTYPE"),
            (#"<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>"#, "<a>"),
            ("<html><body/></html>", "<html>"),
            ("<svg", "well-formed"),
            (#"<svg xmlns="http://www.w3.org/2000/svg"><rect fill="u\rl(https://evil.example/x)"/></svg>"#, "backslash"),
            (##"<svg xmlns="http://www.w3.org/2000/svg" xml:base="https://evil.example/"><use href="#x"/></svg>"##, "xml:base attribute"),
            (#"<svg xmlns="http://www.w3.org/2000/svg"><rect mask="image-set('https://evil.example/a.png' 1x)"/></svg>"#, "outside the logo"),
            (#"<?xml version="1.0" encoding="ISO-2022-JP"?><svg xmlns="http://www.w3.org/2000/svg"/>"#, "UTF-8"),
            // libxml2 would read UTF-7 past the mark and see a comment where the browser sees a script.
            ("\u{FEFF}" + #"<?xml version="1.0" encoding="UTF-7"?><svg xmlns="http://www.w3.org/2000/svg"><text>+ADwAIQAtAC0-</text><script>alert(1)</script><text>--></text></svg>"#, "byte-order mark"),
            (#"<?xml version="1.0" encoding="UTF-7"?><svg xmlns="http://www.w3.org/2000/svg"><text>+ADwAIQAtAC0-</text><script>alert(1)</script><text>--></text></svg>"#, "UTF-8"),
            (#"<?xml version="1.0" encoding="utf-8x"?><svg xmlns="http://www.w3.org/2000/svg"/>"#, "UTF-8"),
            ("\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>", "begin with <svg"),
            ("<svg><rect/></svg>", "SVG namespace"),
            (#"<svg xmlns="http://www.w3.org/2000/svg"><g id="a"/>"# + String(repeating: ##"<use href="#a"/>"##, count: 9) + "</svg>", "<use>"),
            ("<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: "<g/>", count: 6000) + "</svg>", "larger than 20 kB"),
        ]
        for (svg, why) in unsafe {
            #expect(throws: BrandProblem.self, "\(why)") { try BrandRules.logo(svg) }
            do { _ = try BrandRules.logo(svg) } catch { #expect(error.message.hasPrefix("The logo is refused: ") && error.message.contains(why), "\(error.message)") }
        }
        for (colour, why) in [("#ffcc00", "1.5:1 against white"), ("#777777", "4.4:1 against white"), ("red", "#rrggbb"), ("#+12345", "#rrggbb"), ("#0b4f9", "#rrggbb")] {
            do {
                _ = try BrandRules.accent(colour)
                Issue.record("\(colour) was accepted")
            } catch { #expect(error.message.contains(why), "\(colour): \(error.message)") }
        }
        #expect(try BrandRules.accent("#767676") == "#767676", "4.54:1, the lightest grey that passes")
    }

    @Test("A client bound to HLF shows HLF's name, logo and colour on its login pages, and a client of every organisation stays neutral; the logo runs nothing when opened on its own; the change is audited", arguments: TestDatabase.kinds)
    func loginPagesOfABoundClient(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: try RelyingPartyTests.settings()) { broker in
            let hlf = try await broker.withStore { store in
                let hlf = try #require(try await store.organisation(slug: "hlf"))
                _ = try await OrganisationBranding(store: store, now: { Date() }).update(organisationID: hlf.id, changes: [
                    .displayName: "Hørselshemmedes Landsforbund", .shortName: "HLF", .logo: Self.logo, .accentColour: "#7a1f5c",
                    .mailSignature: "Hilsen HLF\nwww.hlf.no", .supportContact: "post@hlf.no",
                ])
                return hlf
            }
            let methods = try await broker.send(RelyingPartyTests.login("hlf-site").authorizeURL(method: nil, extra: [("ui_locales", "nn")]))
            #expect(methods.status == 200)
            #expect(methods.body.contains(#"<html lang="nn">"#))
            #expect(methods.body.contains("Hørselshemmedes Landsforbund") && methods.body.contains("<title>") && methods.body.contains("– Hørselshemmedes Landsforbund</title>"), "\(methods.body.prefix(900))")
            let logo = try #require(methods.body.firstMatch(of: /<img class="logo" src="(\/brands\/hlf\/logo\.svg\?v=[0-9a-f]{16})" alt="">/)).1
            let stylesheet = try #require(methods.body.firstMatch(of: /<link rel="stylesheet" href="(\/brands\/hlf\/brand\.css\?v=[0-9a-f]{16})">/)).1
            #expect(methods.body.contains("Vel korleis du vil logge inn."), "the Nynorsk catalog")
            #expect(methods.headers["content-security-policy"]?.contains("img-src 'self'") == true, "the page may load the logo: \(methods.headers)")

            let password = try await broker.send(RelyingPartyTests.login("hlf-site").authorizeURL(method: "password"))
            #expect(password.body.contains("Hørselshemmedes Landsforbund") && password.body.contains(String(logo)))
            // Every page of that login speaks for HLF: BankID on another device, and claiming a membership by email.
            let otherDevice = try await broker.send(RelyingPartyTests.login("hlf-site").authorizeURL(method: nil).replacingOccurrences(of: "/oauth/authorize?", with: "/oauth/bankid/other-device?"))
            #expect(otherDevice.status == 200 && otherDevice.body.contains("– Hørselshemmedes Landsforbund</title>") && otherDevice.body.contains(String(logo)), "\(otherDevice.body.prefix(600))")
            let start = try await broker.send(RelyingPartyTests.login("hlf-site").authorizeURL(method: "bankid"))
            let atProvider = try await broker.send(try #require(start.location) + "&sandbox_user=lise&sandbox_action=approve")
            let claim = try await broker.send(try #require(atProvider.location))
            #expect(claim.status == 200 && claim.body.contains(#"name="claim""#) && claim.body.contains("– Hørselshemmedes Landsforbund</title>"), "\(claim.body.prefix(600))")

            let svg = try await broker.send(String(logo))
            #expect(svg.status == 200 && svg.body == Self.logo)
            #expect(svg.headers["content-type"]?.hasPrefix("image/svg+xml") == true && svg.headers["content-security-policy"]?.contains("sandbox") == true, "\(svg.headers)")
            let css = try await broker.send(String(stylesheet))
            #expect(css.body == ":root { --accent: #7a1f5c; }\n")
            // A changed colour is a new address at once (the files are cached for an hour); the unchanged logo keeps its own.
            _ = try await broker.withStore { try await OrganisationBranding(store: $0, now: { Date() }).update(organisationID: hlf.id, changes: [.accentColour: "#767676"]) }
            let recoloured = try await broker.send(RelyingPartyTests.login("hlf-site").authorizeURL(method: nil))
            let newStylesheet = try #require(recoloured.body.firstMatch(of: /<link rel="stylesheet" href="(\/brands\/hlf\/brand\.css\?v=[0-9a-f]{16})">/)).1
            #expect(newStylesheet != stylesheet && recoloured.body.contains(String(logo)))
            #expect(try await broker.send(String(newStylesheet)).body == ":root { --accent: #767676; }\n")

            let neutral = try await broker.send(RelyingPartyTests.login("course-site").authorizeURL(method: nil))
            #expect(neutral.body.contains("– Portvakt</title>") && !neutral.body.contains("/brands/"), "a client of every organisation")
            #expect(try await broker.send("/brands/nhf/logo.svg").status == 404, "an organisation without a logo")
            #expect(try await broker.send("/brands/..%2Fetc/logo.svg").status == 404)

            let audit = try await broker.withStore { try await $0.auditEvents(subjectType: "organisation", subjectID: hlf.id) }
            #expect(audit.map(\.action) == [AuditAction.organisationBrandUpdated.rawValue, AuditAction.organisationBrandUpdated.rawValue])
            #expect(Set(audit.compactMap { $0.details["changed"] }) == ["accent_colour,display_name,logo,mail_signature,short_name,support_contact", "accent_colour"])

            // Mail sent for HLF ends with HLF's signature and support contact, not the neutral one.
            let brand = try #require(try await broker.withStore { await Brands(store: $0).mailBrand(organisationID: hlf.id) })
            let mail = MailNotice.passwordInvite(link: "https://portvakt.example/invite/x").compose(.nn, accountURL: "https://portvakt.example/account", brand: brand)
            #expect(mail.body.hasSuffix("Hilsen HLF\nwww.hlf.no\nSpørsmål? Kontakt post@hlf.no."), "\(mail.body)")
            #expect(!mail.body.contains("innlogginga til likepersonsappen\n") && mail.subject == "Vel passord for likepersonsappen")
        }
    }

    @Test("The clients file's brand: by default a first-party client's one organisation; one of its organisations when named (a web client of every organisation has none); never a third party's; any organisation for Portvakt's own app")
    func clientBrand() throws {
        func parse(_ fields: String) throws -> AppClient {
            let entry = #"{"client_id": "w", "redirect_uris": ["https://w.example/cb"], "client_secret": "\#(RelyingPartyTests.secret)", \#(fields)}"#
            return try #require(try ClientsFile.parse(Data(#"{"clients": [\#(entry)]}"#.utf8), directory: "/tmp", environment: .development).first)
        }
        #expect(try parse(#""first_party": true, "organisations": ["hlf"]"#).brand == "hlf")
        #expect(try parse(#""first_party": true, "organisations": ["hlf", "nhf"]"#).brand == nil, "bound to two: neither speaks")
        #expect(try parse(#""first_party": true, "organisations": ["hlf", "nhf"], "brand": "nhf""#).brand == "nhf")
        #expect(try parse(#""first_party": false, "organisations": ["hlf"]"#).brand == nil, "a third party shows no brand")
        let app = try #require(try ClientsFile.parse(Data(#"{"clients": [{"client_id": "no.hlf.app", "token_endpoint_auth_method": "none", "redirect_uris": ["no.hlf.app:/cb"], "portvakt_api": true, "brand": "hlf"}]}"#.utf8), directory: "/tmp", environment: .development).first)
        #expect(app.brand == "hlf" && app.organisations.isEmpty)
        for (fields, words) in [
            (#""first_party": true, "organisations": ["hlf"], "brand": "nhf""#, "not among its organisations"),
            (#""first_party": false, "brand": "hlf""#, "not for a third party"),
            (#""first_party": true, "brand": "HLF!""#, "slug"),
            (#""first_party": true, "brand": "hlf""#, "a web client shows only the brand of an organisation it is bound to"),
            (#""first_party": true, "brand": ["hlf"]"#, "brand"),
        ] {
            let error = #expect(throws: ConfigurationError.self, "\(words)") { try parse(fields) }
            #expect(error?.description.contains("client w: brand") == true && error?.description.contains(words) == true, "\(error?.description ?? "")")
        }
    }

    @Test("Portvakt's own app gets its client's brand in /v1/me for its own screens: HLF's name, short name, logo address, colour and contact; an app whose client names none gets no brand", arguments: TestDatabase.kinds)
    func appBrandInMe(kind: DatabaseKind) async throws {
        let file = #"{"clients": [{"client_id": "no.portvakt.app", "token_endpoint_auth_method": "none", "redirect_uris": ["no.portvakt.app:/oauth/callback"], "portvakt_api": true, "brand": "hlf"}, {"client_id": "no.other.app", "token_endpoint_auth_method": "none", "redirect_uris": ["no.other.app:/oauth/callback"], "portvakt_api": true}]}"#
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("clients-\(UUID().uuidString).json").path
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await LiveBroker.run(kind, settings: ["PORTVAKT_CLIENTS_FILE": path, "PORTVAKT_LEGACY_CLIENTS": ""]) { broker in
            let access = try #require(try await broker.tokens(provider: "vipps", user: "kari")["access_token"] as? String)
            #expect(try await broker.api(.GET, "/v1/me", token: access).json["brand"] == nil, "HLF has no brand yet: the app shows its own")
            try await broker.withStore { store in
                let hlf = try #require(try await store.organisation(slug: "hlf"))
                _ = try await OrganisationBranding(store: store, now: { Date() }).update(organisationID: hlf.id, changes: [
                    .displayName: "Hørselshemmedes Landsforbund", .shortName: "HLF", .logo: Self.logo, .accentColour: "#7a1f5c", .supportContact: "post@hlf.no",
                ])
            }
            let me = try await broker.api(.GET, "/v1/me", token: access)
            let brand = try #require(me.json["brand"] as? [String: Any], "\(me.body)")
            #expect(brand["slug"] as? String == "hlf" && brand["name"] as? String == "Hørselshemmedes Landsforbund" && brand["short_name"] as? String == "HLF")
            #expect(brand["accent_colour"] as? String == "#7a1f5c" && brand["support_contact"] as? String == "post@hlf.no")
            let logo = try #require(brand["logo_uri"] as? String)
            #expect(logo.hasPrefix(broker.baseURL + "/brands/hlf/logo.svg?v="), "\(logo)")
            #expect(try await broker.send(String(logo.dropFirst(broker.baseURL.count))).body == Self.logo, "the address serves the logo")

            var other = AppLogin()
            other.clientID = "no.other.app"
            other.redirectURI = "no.other.app:/oauth/callback"
            let (app, _) = try await broker.providerLogin(other, provider: "vipps", user: "kari")
            let otherTokens = try await other.redeem(try #require(app.code), at: broker)
            let otherAccess = try #require(otherTokens.string("access_token"))
            #expect(try await broker.api(.GET, "/v1/me", token: otherAccess).json["brand"] == nil, "another app's client names no brand")
        }
    }

    @Test("Two operators changing different parts of a brand at the same moment both keep theirs, and an empty value unsets only its part", arguments: TestDatabase.kinds)
    func concurrentUpdates(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let hlf = try await store.createOrganisation(slug: "hlf-brand", name: "Hørselshemmedes Landsforbund")
            let branding = OrganisationBranding(store: store, now: { Date() })
            for round in 0..<5 {
                async let name = branding.update(organisationID: hlf.id, changes: [.displayName: "HLF \(round)"])
                async let colour = branding.update(organisationID: hlf.id, changes: [.accentColour: round.isMultiple(of: 2) ? "#7a1f5c" : "#0b4f9c"])
                _ = try await (name, colour)
                let brand = try #require(try await store.organisationBrand(organisationID: hlf.id))
                #expect(brand.displayName == "HLF \(round)" && brand.accentColour == (round.isMultiple(of: 2) ? "#7a1f5c" : "#0b4f9c"), "round \(round): \(brand)")
            }
            let unset = try await branding.update(organisationID: hlf.id, changes: [.displayName: ""])
            #expect(unset.displayName == nil && unset.accentColour == "#7a1f5c", "round 4 set #7a1f5c")
        }
    }
}
