import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// S20: the organisation's administration in the portal, over real HTTP: roles and isolation,
/// the step-up before numbers and decisions, Retry now (page and JSON API), bad input.
@Suite("Web portal II: administration")
struct AdminPortalTests {
    /// A portal sign-in with email and password (no step-up yet); returns the cookie.
    static func signInWithPassword(_ broker: LiveBroker, email: String, password: String) async throws -> String {
        let start = try await broker.send("/portal/login?method=password&back=%2Fadmin")
        let binder = try PortalTests.signInCookie(start)
        let page = try await broker.send(try #require(start.location))
        let flow = String(try #require(page.body.firstMatch(of: /name="flow" value="([^"]+)"/)).1)
        let submitted = try await PasswordLoginTests.submit(flow, email: email, password: password, at: broker)
        let signedIn = try await broker.send(try #require(submitted.location), headers: [("Cookie", binder)])
        #expect(signedIn.status == 303, "\(signedIn.body.prefix(300))")
        return try #require(signedIn.cookie("portvakt"))
    }

    static func get(_ broker: LiveBroker, _ path: String, cookie: String) async throws -> LiveBroker.Reply {
        try await broker.send(path, headers: [("Cookie", cookie), ("Accept", "text/html")])
    }

    static func post(_ broker: LiveBroker, _ path: String, cookie: String, form: [(String, String)]) async throws -> LiveBroker.Reply {
        try await broker.send(path, method: .POST, form: form, headers: [("Cookie", cookie)])
    }

    /// Sofie's open conflict in NHF, made by her Vipps login (matched by phone to a record with
    /// another number: not linked, on the review list).
    static func sofiesConflict(_ broker: LiveBroker) async throws -> String {
        let (app, _) = try await broker.providerLogin(AppLogin(), provider: "vipps", user: "sofie")
        #expect(app.error == "access_denied" && app.code == nil)
        return try await broker.withStore { store in
            let nhf = try #require(try await store.organisation(slug: "nhf"))
            return try #require(try await store.memberSyncEntries(organisationID: nhf.id, outcome: .conflict).first).id
        }
    }

    @Test("An administrator's pages are theirs only: a coordinator gets 403 pages and a read-only member list, another organisation's administrator 404s", arguments: TestDatabase.kinds)
    func rolesAndIsolation(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let entry = try await Self.sofiesConflict(broker)
            let ingrid = try await PortalTests.signIn(broker, person: "ingrid").cookie
            let ola = try await PortalTests.signIn(broker, person: "ola", method: "bankid").cookie
            let lars = try await PortalTests.signIn(broker, person: "lars").cookie
            for path in ["/admin/nhf", "/admin/nhf/members", "/admin/nhf/sync/\(entry)", "/admin/nhf/deliveries", "/admin/nhf/merge", "/admin/nhf/audit"] {
                #expect(try await Self.get(broker, path, cookie: ingrid).status == 200, "\(path)")
                let coordinator = try await Self.get(broker, path, cookie: ola)
                #expect(coordinator.status == (path == "/admin/nhf/members" ? 200 : 403), "\(path)")
                #expect(coordinator.headers["content-type"]?.hasPrefix("text/html") == true)
                let other = try await Self.get(broker, path, cookie: lars)
                #expect(other.status == 404, "\(path)")
                #expect(other.body.contains("Fant ikke siden"))
                #expect(try await broker.send(path).status == 401, "not signed in: \(path)")
            }
            let list = try await Self.get(broker, "/admin/nhf/members", cookie: ola)
            #expect(list.body.contains("Sofie Lien") && !list.body.contains("/admin/nhf/members/"), "read-only: no links to the member pages")
            #expect(!list.body.contains("14489237688") && !list.body.contains("144892"), "never a number on the member list")
            // A form to another organisation's entry changes nothing.
            let forged = try await Self.post(broker, "/admin/blindeforbundet/sync/\(entry)/resolve", cookie: ingrid,
                                             form: [("csrf", PortalTests.csrf(in: try await Self.get(broker, "/admin/nhf", cookie: ingrid).body)), ("keep", "login")])
            #expect(forged.status == 404)
            #expect(try await broker.withStore { try await $0.memberSyncEntry(id: entry)?.status } == "open")
        }
    }

    @Test("Numbers in full and a resolution need a BankID or Vipps login of the same administrator within 5 minutes (prompt=login, max_age=0); both are audited", arguments: TestDatabase.kinds)
    func stepUpBeforeRevealAndResolve(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let entry = try await Self.sofiesConflict(broker)
            // Issue 58: her record carries her number, so her account is made by BankID; then the password.
            _ = try await broker.bankIDLogin("ingrid")
            _ = try await PortvaktApplication.setPassword(
                configuration: broker.configuration, logger: TestDatabase.logger, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password
            )
            var cookie = try await Self.signInWithPassword(broker, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password)
            let page = try await Self.get(broker, "/admin/nhf/sync/\(entry)", cookie: cookie)
            #expect(page.body.contains("144892*****") && page.body.contains("148892*****"))
            #expect(page.body.contains("step_up=1") && !page.body.contains("/reveal"), "a password sign-in must step up first")
            var csrf = try PortalTests.csrf(in: page.body)
            for action in ["reveal", "resolve"] {
                let refused = try await Self.post(broker, "/admin/nhf/sync/\(entry)/\(action)", cookie: cookie, form: [("csrf", csrf), ("keep", "login")])
                #expect(refused.status == 401, "\(action)")
                #expect(!refused.body.contains("14489237688"))
            }
            #expect(try await broker.withStore { try await $0.memberSyncEntry(id: entry)?.status } == "open")

            // A step-up as someone else is refused and changes nothing.
            let other = try await stepUp(broker, cookie: cookie, person: "ola", back: "/admin/nhf/sync/\(entry)")
            #expect(other.status == 403)
            #expect(try await Self.get(broker, "/admin/nhf/sync/\(entry)", cookie: cookie).body.contains("step_up=1"))

            let done = try await stepUp(broker, cookie: cookie, person: "ingrid", back: "/admin/nhf/sync/\(entry)")
            #expect(done.status == 303 && done.location == "/admin/nhf/sync/\(entry)")
            // The step-up renews the cookie (and with it the CSRF token); the old one is worthless.
            let renewed = try #require(done.cookie("portvakt"))
            #expect(renewed != cookie && renewed.hasPrefix("portvakt="))
            #expect(try await Self.get(broker, "/admin/nhf/sync/\(entry)", cookie: cookie).status == 401)
            cookie = renewed
            csrf = try PortalTests.csrf(in: try await Self.get(broker, "/admin/nhf/sync/\(entry)", cookie: cookie).body)
            let revealed = try await Self.post(broker, "/admin/nhf/sync/\(entry)/reveal", cookie: cookie, form: [("csrf", csrf)])
            #expect(revealed.status == 200)
            #expect(revealed.body.contains("14489237688") && revealed.body.contains("14889235307"))
            #expect(revealed.headers["cache-control"] == "no-store")
            let resolved = try await Self.post(broker, "/admin/nhf/sync/\(entry)/resolve", cookie: cookie, form: [("csrf", csrf), ("keep", "login")])
            #expect(resolved.status == 303)
            let again = try await Self.post(broker, "/admin/nhf/sync/\(entry)/resolve", cookie: cookie, form: [("csrf", csrf), ("keep", "member")])
            #expect(again.status == 409 && again.body.contains("allerede løst"))
            let actions = try await broker.withStore { store in
                try await store.auditEvents(subjectType: "member_sync", subjectID: entry).map(\.action)
            }
            #expect(actions == ["member.personnummer.viewed"])
            #expect(try await broker.withStore { try await $0.memberSyncEntry(id: entry)?.resolution } == "took_login")
            // Five minutes on, the step-up has run out.
            broker.clock.advance(by: 301)
            #expect(try await Self.post(broker, "/admin/nhf/sync/\(entry)/reveal", cookie: cookie, form: [("csrf", csrf)]).status == 401)
        }
    }

    @Test("Review II item 7: a BankID sign-in on which the provider reused an earlier sign-in is not a fresh step-up; prompt=login makes one", arguments: TestDatabase.kinds)
    func stepUpFreshnessFromTheProvider(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let entry = try await Self.sofiesConflict(broker)
            try await broker.setFaults(["single_sign_on"], for: "bankid")
            let cookie = try await PortalTests.signIn(broker, person: "ingrid", method: "bankid").cookie
            let page = try await Self.get(broker, "/admin/nhf/sync/\(entry)", cookie: cookie)
            #expect(page.body.contains("step_up=1"), "the provider's auth_time is ten minutes old")
            let csrf = try PortalTests.csrf(in: page.body)
            #expect(try await Self.post(broker, "/admin/nhf/sync/\(entry)/reveal", cookie: cookie, form: [("csrf", csrf)]).status == 401)

            let done = try await stepUp(broker, cookie: cookie, person: "ingrid", back: "/admin/nhf/sync/\(entry)")
            #expect(done.status == 303, "prompt=login makes the provider authenticate now")
            let renewed = try #require(done.cookie("portvakt"))
            let fresh = try await Self.get(broker, "/admin/nhf/sync/\(entry)", cookie: renewed)
            let revealed = try await Self.post(broker, "/admin/nhf/sync/\(entry)/reveal", cookie: renewed, form: [("csrf", try PortalTests.csrf(in: fresh.body))])
            #expect(revealed.status == 200 && revealed.body.contains("14889235307"))
        }
    }

    /// The portal's step-up through the sandbox as `person`; returns the portal callback's answer.
    private func stepUp(_ broker: LiveBroker, cookie: String, person: String, back: String) async throws -> LiveBroker.Reply {
        let start = try await Self.get(broker, "/portal/login?method=vipps&step_up=1&back=\(FormFields.encode(back))", cookie: cookie)
        let binder = try PortalTests.signInCookie(start)
        let authorize = try await broker.send(try #require(start.location))
        let provider = try #require(authorize.location)
        #expect(provider.contains("prompt=login") && provider.contains("max_age=0"), "the provider is asked for a new authentication")
        let approved = try await broker.send(provider + "&sandbox_user=\(person)&sandbox_action=approve")
        let back = try await broker.send(try #require(approved.location))
        return try await Self.get(broker, try #require(back.location), cookie: cookie + "; " + binder)
    }

    @Test("Retry now over JSON and in the portal: a dead message is sent again with the same idempotency key, audited; a delivered one is a 409", arguments: TestDatabase.kinds)
    func retryNow(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: ["PORTVAKT_OUTBOX_MAX_ATTEMPTS": "1"]) { broker in
            try await broker.setMemberSystemFault("nhf", "outage")
            _ = try await broker.tokens(provider: "vipps", user: "kari")
            #expect(try await broker.eventually { try await broker.outbox("nhf").first?.status == .dead })
            let id = try #require(try await broker.outbox("nhf").first?.id)
            let ingrid = try await broker.bankIDLogin("ingrid").access
            let lars = try await broker.bankIDLogin("lars").access
            #expect(try await broker.api(.POST, "/v1/organisations/nhf/outbox/\(id)/retry", token: lars).status == 403)
            #expect(try await broker.api(.POST, "/v1/organisations/blindeforbundet/outbox/\(id)/retry", token: lars).status == 404)
            try await broker.setMemberSystemFault("nhf", nil)
            let retried = try await broker.api(.POST, "/v1/organisations/nhf/outbox/\(id)/retry", token: ingrid)
            #expect(retried.status == 200)
            #expect(retried.string("id") == id && retried.string("status") == "pending")
            #expect(try await broker.eventually { try await broker.outbox("nhf").first?.status == .delivered })
            let received = try await broker.memberSystemReceived("nhf")
            #expect(received.count == 1)
            #expect(received.first?["idempotency_key"] as? String == id, "the receiver sees the message's own key")
            let late = try await broker.api(.POST, "/v1/organisations/nhf/outbox/\(id)/retry", token: ingrid)
            #expect(late.status == 409)
            let audited = try await broker.withStore { try await $0.auditEvents(subjectType: "outbox", subjectID: id) }
            #expect(audited.map(\.action) == ["member.outbox.retried"])
            #expect(audited.first?.details["status_before"] == "dead")
            // The portal's button, from the deliveries page, answers the same way once delivered.
            let cookie = try await PortalTests.signIn(broker, person: "ingrid").cookie
            let page = try await Self.get(broker, "/admin/nhf/deliveries", cookie: cookie)
            #expect(page.body.contains("Levert") && !page.body.contains("/deliveries/\(id)/retry"))
            let button = try await Self.post(broker, "/admin/nhf/deliveries/\(id)/retry", cookie: cookie, form: [("csrf", try PortalTests.csrf(in: page.body))])
            #expect(button.status == 409)
        }
    }

    @Test("S20: bad input is a clear page with a 4xx and changes nothing: paging, filters, exports, self-merge, another organisation's account, forged CSRF", arguments: TestDatabase.kinds)
    func badInput(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let cookie = try await PortalTests.signIn(broker, person: "ingrid").cookie
            for path in ["/admin/nhf/members?page=2", "/admin/nhf/members?page=0", "/admin/nhf/members?page=abc", "/admin/nhf/audit?page=-1",
                         "/admin/nhf/sync?page=9999999", "/admin/nhf/members?filter=everyone", "/admin/nhf/sync?outcome=stolen",
                         "/admin/nhf/sync?from=2026-13-01", "/admin/nhf/audit?kind=drop%20table", "/admin/nhf/deliveries?status=lost",
                         "/admin/nhf/audit/export?from=2026-02-01&to=2026-01-01&format=csv", "/admin/nhf/audit/export?from=2026-01-01&to=2026-01-02&format=xml"] {
                let reply = try await Self.get(broker, path, cookie: cookie)
                #expect(reply.status == 400, "\(path)")
                #expect(reply.body.contains("<h1>") && reply.headers["content-type"]?.hasPrefix("text/html") == true, "\(path)")
            }
            let ingridID = try await broker.withStore { try #require(try await $0.user(email: "ingrid@sandbox.portvakt.test")).id }
            let page = try await Self.get(broker, "/admin/nhf/merge", cookie: cookie)
            let csrf = try PortalTests.csrf(in: page.body)
            let same = try await Self.post(broker, "/admin/nhf/merge", cookie: cookie, form: [("csrf", csrf), ("keep", ingridID), ("remove", ingridID), ("confirmation", "x")])
            #expect(same.status == 400)
            let forged = try await Self.post(broker, "/admin/nhf/merge", cookie: cookie, form: [("csrf", "forged"), ("keep", ingridID), ("remove", "x")])
            #expect(forged.status == 403)
            _ = try await broker.tokens(provider: "vipps", user: "lars")
            let larsID = try await broker.withStore { try #require(try await $0.user(email: "lars@sandbox.portvakt.test")).id }
            let preview = try await Self.get(broker, "/admin/nhf/merge/preview?keep=\(ingridID)&remove=\(larsID)", cookie: cookie)
            #expect(preview.status == 404, "another organisation's account does not exist here")
            let own = try await Self.get(broker, "/admin/nhf/merge/preview?keep=\(ingridID)&remove=\(ingridID)", cookie: cookie)
            #expect(own.status == 400 && own.body.contains("error-summary"))
            let export = try await Self.get(broker, "/admin/nhf/audit/export?from=2020-01-01&to=2030-12-31&format=jsonl", cookie: cookie)
            #expect(export.status == 200 && export.headers["content-type"] == "application/x-ndjson")
            for line in export.body.split(separator: "\n") {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil)
            }
            #expect(!export.body.contains("23466814679"), "the export holds ids, never a number")
        }
    }

    @Test("An invitation to password sign-in is a one-time link for 24 hours; the member chooses the password; the link is never logged", arguments: TestDatabase.kinds)
    func passwordInvitation(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let cookie = try await PortalTests.signIn(broker, person: "ingrid").cookie
            let record = try await broker.withStore { store in
                let nhf = try #require(try await store.organisation(slug: "nhf"))
                return try #require(try await store.memberRecords(organisationID: nhf.id).first { $0.fullName == "Sofie Lien" }).id
            }
            let page = try await Self.get(broker, "/admin/nhf/members/\(record)", cookie: cookie)
            let made = try await Self.post(broker, "/admin/nhf/members/\(record)/invite", cookie: cookie, form: [("csrf", try PortalTests.csrf(in: page.body))])
            #expect(made.status == 200)
            #expect(made.body.contains("Invitasjonen er sendt på e-post"))
            #expect(!made.body.contains("/portal/password/"), "review II item 1: the link never reaches the administrator's screen")
            let token = try #require(try await Self.mailedInvitation(broker, to: "sofie@sandbox.portvakt.test"))
            let path = "/portal/password/\(token)"
            #expect(try await broker.send(path).status == 200)
            let mismatch = try await broker.send(path, method: .POST, form: [("password", "a-long-password-1"), ("repeat", "a-long-password-2")])
            #expect(mismatch.status == 400 && mismatch.body.contains(##"href="#repeat""##))
            let short = try await broker.send(path, method: .POST, form: [("password", "short"), ("repeat", "short")])
            #expect(short.status == 400 && short.body.contains(##"href="#password""##))
            let foreign = try await broker.send(path, method: .POST, form: [("password", "a-long-password-1"), ("repeat", "a-long-password-1")],
                                                headers: [("Origin", "https://evil.example")])
            #expect(foreign.status == 403)
            let set = try await broker.send(path, method: .POST, form: [("password", "a-long-password-1"), ("repeat", "a-long-password-1")])
            #expect(set.status == 200)
            #expect(try await broker.send(path).status == 410, "used once")
            #expect(try await broker.send(path, method: .POST, form: [("password", "b-long-password-1"), ("repeat", "b-long-password-1")]).status == 410)
            let flow = try await PasswordLoginTests.form(AppLogin(), at: broker)
            let login = try await PasswordLoginTests.submit(flow, email: "sofie@sandbox.portvakt.test", password: "a-long-password-1", at: broker)
            #expect(login.status == 303 && login.location?.contains("code=") == true, "the member signs in with the password she chose")
            #expect(!broker.logs.text.contains(token), "the link's token is never logged")
            #expect(broker.logs.text.contains("path=/portal/password/{token}"))
            // The member is told her password was set.
            #expect(try await broker.eventually { try await Self.mailbox(broker).contains { $0.contains("sofie@sandbox.portvakt.test") && $0.contains("Passordet ditt") } })
            // A day later a new link has expired.
            _ = try await Self.post(broker, "/admin/nhf/members/\(record)/invite", cookie: cookie, form: [("csrf", try PortalTests.csrf(in: page.body))])
            let second = try #require(try await Self.mailedInvitation(broker, to: "sofie@sandbox.portvakt.test", not: token))
            broker.clock.advance(by: 24 * 3600 + 1)
            #expect(try await broker.send("/portal/password/\(second)").status == 410)
        }
    }

    /// The messages of the sandbox mailbox, newest first, each as its HTML.
    static func mailbox(_ broker: LiveBroker) async throws -> [String] {
        let page = try await broker.send("/sandbox/mailbox")
        let parts: [String] = page.body.components(separatedBy: "<li>")
        return Array(parts[1...])
    }

    /// The token of the newest invitation mailed to `recipient` (other than `not`), waiting for the outbox.
    static func mailedInvitation(_ broker: LiveBroker, to recipient: String, not earlier: String? = nil) async throws -> String? {
        for _ in 0..<100 {
            for message in try await mailbox(broker) where message.contains(recipient) {
                if let match = message.firstMatch(of: /\/portal\/password\/([A-Za-z0-9_-]+)/), String(match.1) != earlier { return String(match.1) }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    @Test("Review II item 1: an invitation reaches only the record's holder: refused when the email leads to another account or to other organisations' members; bound to the account or to the record alone; a new one voids the old; setting the password ends the sessions; over 72 bytes is refused", arguments: TestDatabase.kinds)
    func invitationsCannotTakeOver(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let ingrid = try await PortalTests.signIn(broker, person: "ingrid").cookie
            let records = try await broker.withStore { store in
                let nhf = try #require(try await store.organisation(slug: "nhf"))
                return Dictionary(uniqueKeysWithValues: try await store.memberRecords(organisationID: nhf.id).compactMap { record in record.externalRef.map { ($0, record.id) } })
            }
            func invite(_ record: String) async throws -> LiveBroker.Reply {
                let page = try await Self.get(broker, "/admin/nhf/members/\(record)", cookie: ingrid)
                return try await Self.post(broker, "/admin/nhf/members/\(record)/invite", cookie: ingrid, form: [("csrf", try PortalTests.csrf(in: page.body))])
            }
            // Magnus is also HLF's coordinator: a link to his NHF record must not make an account with HLF's role.
            let magnus = try await invite(try #require(records["sandbox-magnus"]))
            #expect(magnus.status == 409 && magnus.body.contains("andre organisasjoner"), "\(magnus.body.prefix(300))")
            // Ola has an account (BankID); a password account that holds Ola's email but not his record is someone else's.
            _ = try await broker.tokens(provider: "bankid", user: "ola")
            let ola = try await invite(try #require(records["sandbox-ola"]))
            #expect(ola.status == 200, "bound to the account holding Ola's record")
            let olaToken = try #require(try await Self.mailedInvitation(broker, to: "ola@sandbox.portvakt.test"))
            // Kari's record has her email; another account with that email makes the invitation refused.
            _ = try await broker.withStore { store in try await store.createUser(displayName: "Impostor", email: "kari@sandbox.portvakt.test") }
            let kari = try await invite(try #require(records["sandbox-kari"]))
            #expect(kari.status == 409 && kari.body.contains("en annen konto"))

            // A second invitation voids the first.
            _ = try await invite(try #require(records["sandbox-ola"]))
            let second = try #require(try await Self.mailedInvitation(broker, to: "ola@sandbox.portvakt.test", not: olaToken))
            #expect(try await broker.send("/portal/password/\(olaToken)").status == 410)

            // Ola's sessions end when the password is set; it is his account's password.
            let session = try await broker.tokens(provider: "bankid", user: "ola")
            let tooLong = String(repeating: "æ", count: 40)
            let long = try await broker.send("/portal/password/\(second)", method: .POST, form: [("password", tooLong), ("repeat", tooLong)])
            #expect(long.status == 400 && long.body.contains("72 byte"), "80 bytes are not cut silently")
            let set = try await broker.send("/portal/password/\(second)", method: .POST, form: [("password", "olas-new-password"), ("repeat", "olas-new-password")])
            #expect(set.status == 200)
            #expect(try await broker.refresh(try #require(session["refresh_token"] as? String)).status == 400, "his other sessions ended")
            let flow = try await PasswordLoginTests.form(AppLogin(), at: broker)
            let login = try await PasswordLoginTests.submit(flow, email: "ola@sandbox.portvakt.test", password: "olas-new-password", at: broker)
            #expect(login.status == 303)
            let events = try await broker.withStore { store in try await store.auditEvents(subjectType: "user", subjectID: try await store.user(email: "ola@sandbox.portvakt.test")!.id) }
            #expect(events.contains { $0.action == "user.password_set" })
            #expect(try await broker.eventually { try await Self.mailbox(broker).contains { $0.contains("ola@sandbox.portvakt.test") && $0.contains("Passordet ditt") } })
        }
    }

    @Test("prompt=none for the app, which takes no part in the browser's single sign-on: login_required; max_age must be a number")
    func promptAndMaxAge() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = AppLogin()
            let none = try await broker.send(login.authorizeURL(method: "vipps") + "&prompt=none")
            #expect(none.status == 303 || none.status == 302)
            #expect(none.location?.contains("error=login_required") == true)
            let bad = try await broker.send(login.authorizeURL(method: "vipps") + "&max_age=soon")
            #expect(bad.location?.contains("error=invalid_request") == true)
            let fresh = try await broker.send(login.authorizeURL(method: "vipps") + "&max_age=0")
            #expect(fresh.location?.contains("prompt=login") == true && fresh.location?.contains("max_age=0") == true)
        }
    }
}
