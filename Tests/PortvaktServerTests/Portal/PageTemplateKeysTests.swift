import Foundation
import PortvaktCore
@testable import PortvaktHTTP
import Testing
@testable import PortvaktSandbox
@testable import PortvaktServer

/// Issue 48 item 6: a page's template reads only what its view model holds. Every name a
/// template reads (`{{name}}`, `{{{name}}}`, `{{&name}}`, `{{#name}}`, `{{^name}}`, in the page, its
/// partials and its layout) is a property of the page's view model, of a row of one of its lists,
/// of the values around it (the administration's) or of the layout; every `t.<id>` is a text. A
/// misspelt name fails here instead of rendering empty. Each sample has a row in every list and a
/// value in every Optional, so the rows' properties are seen.
@Suite("Page templates read their view models")
struct PageTemplateKeysTests {
    /// A page template and what it is rendered with: its view model first, then any values around it.
    struct Sample {
        let template: String
        let values: [any PageValues]
    }

    @Test("Every name a portal or broker template reads is in its view model, the administration's values or the layout")
    func portalTemplates() {
        let templates = Dictionary(uniqueKeysWithValues: PortalTemplates.all.map { ($0.name, $0.text) })
        let catalogues = [
            PortalText.allCases.map(\.rawValue), AdminText.allCases.map(\.rawValue), BrokerText.allCases.map(\.rawValue),
            ClaimText.allCases.map(\.rawValue), MailboxText.allCases.map(\.rawValue),
        ]
        var frame = PortalPage.Frame(language: .en, path: "/", csrf: "csrf", status: "status", switchLanguage: { "/language?to=\($0.rawValue)" })
        frame.brand = BrandView(name: "HLF", logo: "/brands/hlf/logo.svg", stylesheet: "/brands/hlf/brand.css")
        let layout = PortalPage.Layout(frame)
        Self.check(Self.portalSamples, layout: layout, layoutTemplate: "layout", templates: templates, texts: Set(catalogues.joined()))
    }

    @Test("Every name a sandbox template reads is in its view model or the sandbox's layout")
    func sandboxTemplates() {
        let templates = Dictionary(uniqueKeysWithValues: SandboxPages.templates.map { ($0.name, EmbeddedFile.text($0.bytes)) })
        let layout = SandboxPages.Layout(t: [:], lang: "en", stylesheet: "/sandbox/assets/sandbox.css")
        Self.check(Self.sandboxSamples, layout: layout, layoutTemplate: "sandbox_layout", templates: templates, texts: Set(SandboxText.allCases.map(\.rawValue)))
    }

    struct Row: PageValues { let name: String; let lang: String? }
    struct Own: PageValues { let a: String; let c: String?; let rows: [Row] }
    struct Around: PageValues { let a: String; let b: String; let c: String }
    struct Layout: PageValues { let lang: String }

    @Test("PageRenderer: a name is the page's first, then the values around it, then the layout's; a nil Optional reads as absent, in a row too")
    func lookupOrder() {
        let renderer = PageRenderer(templates: [(name: "page", text: "{{a}}|{{b}}|{{c}}|{{lang}}|{{#rows}}{{name}}:{{lang}};{{/rows}}")])
        let own = Own(a: "page", c: nil, rows: [Row(name: "one", lang: nil), Row(name: "two", lang: "sv")])
        let html = renderer.render("page", values: own, around: [Around(a: "around", b: "around", c: "around")], layout: Layout(lang: "nb"))
        #expect(html == "page|around|around|nb|one:nb;two:sv;")
    }

    @Test("The reader of names finds a misspelt one")
    func misspeltNameIsFound() {
        let read = Self.names(readBy: "page", in: ["page": "{{#hasRows}}{{#rows}}{{nmae}}{{/rows}}{{/hasRows}}{{{svg}}}{{^empty}}{{t.title}}{{/empty}}{{> part}}", "part": "{{&raw}} {{.}} {{! note}}"])
        #expect(read == ["hasRows", "rows", "nmae", "svg", "empty", "t.title", "raw"])
        #expect(!Self.properties(of: NoticeView(heading: "", message: "", action: nil)).contains("nmae"))
    }

    // MARK: - The check

    /// Every page template (one that extends `layoutTemplate`) has a sample, and reads nothing
    /// its sample, the rows in it, or the layout lacks.
    static func check(_ samples: [Sample], layout: some PageValues, layoutTemplate: String, templates: [String: String], texts: Set<String>) {
        let pages = Set(templates.filter { $0.value.hasPrefix("{{<\(layoutTemplate)}}") }.keys)
        #expect(pages.count >= 3, "page templates found: \(pages.sorted())")
        #expect(Set(samples.map(\.template)) == pages, "every page template has one sample, and every sample a page template")
        let layoutNames = properties(of: layout)
        for sample in samples {
            // A page never sets a layout value: PageRenderer's own check, which it asserts in debug builds only.
            let hidden = PageScope.layoutNames(setBy: sample.values, layout: layout)
            #expect(hidden.isEmpty, "\(sample.template): \(sample.values.map { type(of: $0) }) set layout values: \(hidden)")
            let known = sample.values.reduce(into: layoutNames) { $0.formUnion(properties(of: $1)) }
            for name in names(readBy: sample.template, in: templates) {
                if name.hasPrefix("t.") {
                    #expect(texts.contains(String(name.dropFirst(2))), "\(sample.template) reads \(name), which has no text")
                    continue
                }
                for part in name.split(separator: ".") {
                    #expect(known.contains(String(part)), "\(sample.template) reads \(name), which no view model of it has (\(sample.values.map { type(of: $0) }))")
                }
            }
        }
    }

    /// The names `template` reads, with those of the partials it includes and the layout it extends.
    static func names(readBy template: String, in templates: [String: String]) -> Set<String> {
        guard let text = templates[template] else { return [] }
        var names = Set(text.matches(of: /\{\{[#^&{]?([A-Za-z_][A-Za-z0-9_.]*)\}?\}\}/).map { String($0.1) })
        for included in text.matches(of: /\{\{[<>] ?([a-z_]+)\}\}/) where String(included.1) != template {
            names.formUnion(Self.names(readBy: String(included.1), in: templates))
        }
        return names
    }

    /// The property names of `value` and of the values it holds (a list's rows, a nested value,
    /// an Optional's value); the texts table (`t`) aside, which the text check reads.
    static func properties(of value: Any) -> Set<String> {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional, .collection, .set:
            return mirror.children.reduce(into: []) { $0.formUnion(properties(of: $1.value)) }
        case .struct, .class:
            return mirror.children.reduce(into: []) { names, child in
                guard let label = child.label, label != "t" else { return }
                names.insert(label)
                names.formUnion(properties(of: child.value))
            }
        default:
            return []
        }
    }

    // MARK: - Samples

    static let administration = AdministrationValues(
        org: .init(slug: "lag", name: "Laget", admin: true), here: .init(.members), base: "/admin/lag", stepUpBack: "%2Fadmin%2Flag", passkeyStepUp: true
    )
    static let paging = PagingLinks(pageText: "Page 2 of 3", previous: "?page=1", next: "?page=3")
    static let option = AdminOption(value: "value", label: "Label", selected: true)
    static let account = MergedAccount(
        id: "id", name: "Kari", email: "kari@example.org", logins: "BankID", roles: "peer mentor", devices: 1, activities: 1, claims: 1, contacts: 1, syncEntries: 1
    )
    static let notice = NoticeView(heading: "Heading", message: "Message", action: .init(href: "/", label: "Label"))

    static let portalSamples: [Sample] = [
        Sample(template: "account", values: [MyAccountView(
            name: "Kari", roles: ["peer mentor"], hasRoles: true, administers: [.init(href: "/admin/lag", label: "Administer")],
            method: "BankID", signedInAt: "today", devices: [.init(id: "id", name: "Phone", kind: "Face ID", lastUsed: "today")], hasDevices: true,
            sessions: [.init(id: "id", current: false, where: "The app", since: "today", method: "BankID")],
            browserSignIns: [.init(id: "sso", current: true, where: "A browser", since: "today", method: "BankID")], others: true,
            applications: [.init(id: "client", name: "Kurs", gets: "name", since: "today")], hasApplications: true,
            events: [.init(when: "today", what: "Signed in")], hasEvents: true, passkeysAvailable: true,
            passkeys: [.init(id: "id", name: "Key", created: "today", lastUsed: "today")], hasPasskeys: true, mayAddPasskey: true
        )]),
        Sample(template: "admin_audit", values: [AuditView(
            verification: "Verified", intact: true, kinds: [option], members: [option],
            events: [.init(sequence: "#1", when: "today", what: "Signed in", who: "Kari")], hasEvents: true, summary: "1 event", paging: paging, today: "2026-01-01"
        ), administration]),
        Sample(template: "admin_deliveries", values: [DeliveriesView(
            statuses: [option],
            messages: [.init(id: "id", created: "today", member: "Kari", what: "Update", state: "Waiting", attempts: 1, next: "soon", error: "–", retryable: true)],
            hasMessages: true
        ), administration]),
        Sample(template: "admin_home", values: [AdminHomeView(organisations: [.init(name: "Laget", href: "/admin/lag", role: "administrator")], hasOrganisations: true)]),
        Sample(template: "admin_member", values: [MemberView(
            name: "Kari", path: "/admin/lag/members/id", role: "peer mentor", ended: false, email: "kari@example.org", canInvite: true, logins: "BankID",
            onFile: "Yes", devices: [.init(name: "Phone", kind: "Face ID", lastUsed: "today")], hasDevices: true, removable: true, devicesElsewhere: true, steppedUp: true,
            canSuspend: true, holder: "user", suspended: false, suspendSteppedUp: true, invited: false
        ), administration]),
        Sample(template: "admin_members", values: [MembersView(
            query: "Kari", members: [.init(name: "Kari", role: "peer mentor", logins: "BankID", onFile: "Yes", link: "/admin/lag/members/id")], hasMembers: true,
            summary: "Showing 1–1 of 1", paging: paging, filter: "devices", filterLabel: "With devices"
        ), administration]),
        Sample(template: "admin_merge", values: [MergeChoiceView(
            query: "Kari",
            accounts: [.init(id: "id", name: "Kari", email: "kari@example.org", logins: "BankID", created: "today", keep: true, remove: false)],
            hasAccounts: true, error: "Pick both"
        ), administration]),
        Sample(template: "admin_merge_done", values: [MergeDoneView(kept: account), administration]),
        Sample(template: "admin_merge_preview", values: [MergePreviewView(
            kept: account, removed: account, keep: "a", remove: "b", moves: ["Logins: BankID"], steppedUp: true, confirmation: "mac", back: "/admin/lag/merge",
            refusal: "Refused"
        ), administration]),
        Sample(template: "admin_overview", values: [OverviewView(counts: [.init(count: 1, label: "Open conflicts", href: "/admin/lag/sync")]), administration]),
        Sample(template: "admin_step_up", values: [AdminStepUpView(back: "/admin/lag/sync/id", stepUpBack: "%2Fadmin"), administration]),
        Sample(template: "admin_sync", values: [SyncView(
            outcomes: [option], statuses: [option], from: "2026-01-01", to: "2026-01-02",
            entries: [.init(href: "/admin/lag/sync/id", when: "today", member: "Kari", what: "Conflict", state: "Open")], hasEntries: true,
            summary: "1 entry", paging: paging
        ), administration]),
        Sample(template: "admin_sync_entry", values: [SyncEntryView(
            path: "/admin/lag/sync/id", when: "today", member: "Kari", memberLink: "/admin/lag/members/id", what: "Conflict", state: "Open",
            isConflict: true, open: true, memberNumber: "******", loginNumber: "******", revealed: false, steppedUp: true, error: "Choose one"
        ), administration]),
        Sample(template: "broker_claim_code", values: [ClaimCodeView(
            handle: "handle", sentTo: "Sent", email: .init(address: "kari@example.org", signature: "signature"), error: "Wrong code"
        )]),
        Sample(template: "broker_claim_email", values: [ClaimEmailView(handle: "handle", email: "kari@example.org", error: "Unknown")]),
        Sample(template: "broker_logged_out", values: [EmptyValues()]),
        Sample(template: "broker_methods", values: [MethodsView(bankid: "/b", otherDevice: "/o", vipps: "/v", password: "/p", passkey: "/k")]),
        Sample(template: "broker_other_device", values: [OtherDeviceView(
            session: "session", expiresAtMilliseconds: "0", qrSVG: "<svg/>", orderStatus: "Waiting", timeLeft: "1:00", methods: "/methods"
        )]),
        Sample(template: "broker_passkey", values: [PasskeyView(handle: "handle", methods: "/methods", error: "Cancelled")]),
        Sample(template: "broker_password", values: [PasswordView(handle: "handle", email: "kari@example.org", methods: "/methods", passkeys: true, error: "Wrong")]),
        Sample(template: "broker_problem", values: [BrokerProblemView(message: "Message", reason: "reason")]),
        Sample(template: "broker_notice", values: [BrokerNoticeView(heading: "Heading", message: "Message", reason: "reason", action: .init(href: "/", label: "Back"))]),
        Sample(template: "broker_sign_out", values: [SessionRoutes.SignOutView(heading: "Heading", message: "Message", fields: [.init(name: "token", value: "token")])]),
        Sample(template: "broker_consent", values: [ConsentView(heading: "Heading", claims: ["your name"], clientID: "client", handle: "handle", token: "token")]),
        Sample(template: "notice", values: [notice]),
        Sample(template: "password_invite", values: [PasswordInviteView(
            action: "/portal/password/token", errors: [.init(field: "password", text: "Too short")], hasErrors: true, passwordError: "Too short", repeatError: "Differs"
        )]),
        Sample(template: "problem", values: [notice]),
        Sample(template: "sandbox_mailbox", values: [MailboxView(
            messages: [.init(subject: "Subject", recipient: "kari@example.org", paragraphs: [.init(text: "https://example.org", isLink: true)], when: "today", status: "Sent")],
            hasMessages: true
        )]),
        Sample(template: "start", values: [StartView(
            sandbox: true, bankid: true, vipps: true, passkeys: true, people: [TryItPeople.Person(id: "kari", name: "Kari", member: "peer mentor", shows: "All matches")]
        )]),
    ]

    static let sandboxSamples: [Sample] = [
        Sample(template: "sandbox_bankid_app", values: [BankIDAppView(
            formAction: "/app", people: [.init(id: "kari", name: "Kari", checked: true)], autoStartToken: "token", redirect: "/back", problem: "Problem"
        )]),
        Sample(template: "sandbox_login", values: [SandboxLoginView(
            provider: "Vipps", clientID: "client", scopes: "openid", formAction: "/authorize", people: [.init(id: "kari", name: "Kari", detail: "LAG", checked: true)],
            languages: [LanguageLink(href: "/authorize?ui_locales=nb", lang: "nb", name: "Norsk (bokmål)")]
        )]),
        Sample(template: "sandbox_message", values: [SandboxMessageView(title: "Title", message: "Message", isError: true, link: .init(url: "/", text: "Back"))]),
    ]
}
