import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// "My account": who is signed in, their organisations and roles in words, how this sign-in
/// happened, their biometric phones, where they are signed in, and their recent security events,
/// in local time (Europe/Oslo).
struct AccountView {
    let account: AccountService
    let signedIn: PortalRoutes.SignedIn

    func response(_ request: Request, pages: PortalPage, frame: PortalPage.Frame) async throws -> Response {
        var frame = frame
        let language = frame.language
        // The account was merged into another or removed since the sign-in.
        guard let overview = try await account.overview(userID: signedIn.portal.userId, sessionID: signedIn.portal.sessionId, eventActions: PortalWords.eventActions) else {
            return pages.response("problem", frame: frame, values: NoticeView(
                heading: PortalText.notSignedInTitle.text(language), message: PortalText.notSignedIn.text(language),
                action: NoticeView.Action(href: "/portal/login", label: PortalText.signIn.text(language))
            ), status: .unauthorized)
        }
        let (user, names, organisationRoles) = (overview.user, overview.organisationNames, overview.organisationRoles)
        let administers = organisationRoles.filter { $0.roles.contains(.orgAdmin) || $0.roles.contains(.coordinator) }.map { organisation in
            let name = names[organisation.organisationID] ?? organisation.slug
            let isAdmin = organisation.roles.contains(.orgAdmin)
            return MyAccountView.Link(href: isAdmin ? "/admin/\(organisation.slug)" : "/admin/\(organisation.slug)/members",
                                      label: PortalPhrase.administerName.text(language, ["name": name]))
        }
        let roles = organisationRoles.flatMap { organisation in
            organisation.roles.map { PortalWords.role($0, organisation: names[organisation.organisationID] ?? organisation.slug, language) }
        }
        let (sessions, devices, events) = (overview.sessions, overview.devices, overview.events)
        let current = sessions.first { $0.id == signedIn.portal.sessionId }
        if let done = request.uri.queryParameters.get("done").flatMap(AccountActions.Done.init(rawValue:)) {
            frame.status = done.text.text(language)
        }
        let time = { (milliseconds: Int64) in LocalTime.text(Date(millisecondsSince1970: milliseconds), language) }
        let values = MyAccountView(
            name: user.displayName,
            roles: roles, hasRoles: !roles.isEmpty, administers: administers,
            method: current.map { PortalWords.method(amr: $0.amr, language) } ?? "",
            signedInAt: current.map { time($0.authTime) } ?? "",
            devices: devices.map { device in
                MyAccountView.Device(id: device.id, name: device.name, kind: PortalWords.biometric(device.biometricKind, language),
                                     lastUsed: device.lastUsedAt.map(time) ?? PortalText.neverUsed.text(language))
            },
            hasDevices: !devices.isEmpty,
            sessions: sessions.map { session in
                let isCurrent = session.id == signedIn.portal.sessionId
                return MyAccountView.Session(id: session.id, current: isCurrent,
                                             where: isCurrent ? PortalText.thisBrowser.text(language) : PortalWords.client(session.clientId, language),
                                             since: time(session.authTime), method: PortalWords.method(amr: session.amr, language))
            },
            browserSignIns: overview.browserSignIns.map { signIn in
                MyAccountView.Session(id: signIn.id, current: signIn.id == current?.browserSessionId,
                                      where: PortalText.browserSignIn.text(language), since: time(signIn.authTime), method: PortalWords.method(amr: signIn.amr, language))
            },
            others: sessions.contains { $0.id != signedIn.portal.sessionId },
            applications: overview.consents.map { consent in
                let scopes = ClaimScopes(consent.scope)
                let gets = [scopes.name ? PortalText.consentName : nil, scopes.email ? .consentEmail : nil, scopes.organisations ? .consentOrganisations : nil]
                    .compactMap { $0?.text(language) }
                return MyAccountView.Application(
                    id: consent.clientId, name: account.clientNames[consent.clientId] ?? consent.clientId,
                    gets: gets.joined(separator: ", "), since: time(consent.grantedAt)
                )
            },
            hasApplications: !overview.consents.isEmpty,
            events: events.map { MyAccountView.Event(when: LocalTime.text($0.occurredAt, language), what: PortalWords.event($0.action, outcome: $0.outcome, source: $0.source, language)) },
            hasEvents: !events.isEmpty,
            passkeysAvailable: account.passkeys.available,
            passkeys: overview.passkeys.map { passkey in
                MyAccountView.Passkey(id: passkey.id, name: passkey.name, created: time(passkey.createdAt),
                                      lastUsed: passkey.lastUsedAt.map(time) ?? PortalText.neverUsed.text(language))
            },
            hasPasskeys: !overview.passkeys.isEmpty,
            mayAddPasskey: overview.mayAddPasskey
        )
        // The registration's script runs only where it can be used.
        frame.script = account.passkeys.available && overview.mayAddPasskey
        // The title says what just happened too: a screen reader reads it first on the new page.
        return pages.response("account", frame: frame, values: values)
    }
}

/// What `account` reads.
struct MyAccountView: PageValues {
    let name: String
    /// The roles in words, one per organisation and role.
    let roles: [String]
    let hasRoles: Bool
    /// A link to each organisation's administration the member administers or coordinates.
    let administers: [Link]
    /// How this sign-in happened, and when; empty when the session is not among the active ones.
    let method: String
    let signedInAt: String
    let devices: [Device]
    let hasDevices: Bool
    let sessions: [Session]
    /// The browsers signed in at Portvakt (single sign-on); `current` is this one.
    let browserSignIns: [Session]
    /// Another session than this browser's is open.
    let others: Bool
    /// The third-party services the person let have their details.
    let applications: [Application]
    let hasApplications: Bool
    let events: [Event]
    let hasEvents: Bool
    let passkeysAvailable: Bool
    let passkeys: [Passkey]
    let hasPasskeys: Bool
    let mayAddPasskey: Bool

    struct Link: PageValues {
        let href: String
        let label: String
    }

    struct Device: PageValues {
        let id: String
        let name: String
        let kind: String
        let lastUsed: String
    }

    struct Session: PageValues {
        let id: String
        /// This browser's: it is not offered to end.
        let current: Bool
        let `where`: String
        let since: String
        let method: String
    }

    struct Application: PageValues {
        let id: String
        let name: String
        /// What it gets, in words.
        let gets: String
        let since: String
    }

    struct Event: PageValues {
        let when: String
        let what: String
    }

    struct Passkey: PageValues {
        let id: String
        let name: String
        let created: String
        let lastUsed: String
    }
}

/// Times as people in Norway read them.
enum LocalTime {
    static let zone = TimeZone(identifier: "Europe/Oslo") ?? TimeZone(secondsFromGMT: 3600)!

    static func text(_ date: Date, _ language: Language) -> String {
        var style = Date.FormatStyle(date: .long, time: .shortened, locale: Locale(identifier: language.locale), timeZone: zone)
        style.calendar = Calendar(identifier: .gregorian)
        return date.formatted(style)
    }

    /// `YYYY-MM-DD` of the day in Norway.
    static func dayText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The start of a day given as `YYYY-MM-DD` (an `<input type="date">`), in Norway.
    static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1900...9999).contains(year)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }
}
