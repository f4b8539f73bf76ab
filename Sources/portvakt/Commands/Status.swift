import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Who is logged in, their organisations and roles, biometric login and queued writes.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let cli = try CLI(global)
        let context = try await cli.signedInContext()
        let queued = (try? await cli.queue.pending(of: await cli.tokens.userID()).count) ?? 0
        let settings = BiometricSettingsModel(AuthMachine(context: context), language: cli.language)
        // S12.3: offline, what was seen last, beside the calm offline indicator.
        let (me, offline) = try await cli.liveOrCached("v1/me", .profile, as: MeResponse.self)
        let summary = Self.summary(me, language: cli.language)
        let notices = offline ? [] : me.notices.map(\.message)
        cli.output.emit(
            Merged(summary.object, StatusFields(biometrics: settings.status, queuedWrites: queued, notices: notices, offline: offline)),
            text: (offline ? [UserMessage.offline.text(cli.language)] : []) + summary.text
                + [settings.status, CLIText.waitingToBeSentQueued.text(cli.language, ["queued": String(queued)])] + notices
        )
    }

    /// The user, organisations, roles and home screen of `/v1/me`, in words; the JSON keeps the
    /// ids (`roles`, `home_screen`) beside the words (`role_names`, `home_screen_name`).
    static func summary(_ me: MeResponse, language: Language) -> (object: MeSummary, text: [String]) {
        let organisations = me.organisations.map { organisation in
            MeSummary.Organisation(organisation, roleNames: organisation.roles.map { RoleWords.role($0, organisation: organisation.name, language) })
        }
        let homeName = RoleWords.homeScreen(me.homeScreen, language)
        let text = [CLIText.loggedInAsName.text(language, ["name": me.user.name])] + organisations.flatMap(\.roleNames).map { "  " + $0 }
            + [CLIText.homeScreenHomeName.text(language, ["home_name": homeName])]
        let object = MeSummary(user: me.user, organisations: organisations, homeScreen: me.homeScreen, homeScreenName: homeName, amr: me.session.amr)
        return (object, text)
    }
}

/// `/v1/me` as `status` and `login` print it.
struct MeSummary: Encodable {
    /// The organisation as `/v1/me` gives it, and its roles in words.
    struct Organisation: Encodable {
        let id: String
        let slug: String
        let name: String
        let roles: [String]
        let roleNames: [String]

        init(_ organisation: MeResponse.Organisation, roleNames: [String]) {
            id = organisation.id
            slug = organisation.slug
            name = organisation.name
            roles = organisation.roles
            self.roleNames = roleNames
        }

        enum CodingKeys: String, CodingKey {
            case id, slug, name, roles, roleNames = "role_names"
        }
    }

    let user: MeResponse.User
    let organisations: [Organisation]
    let homeScreen: String
    let homeScreenName: String
    let amr: [String]

    enum CodingKeys: String, CodingKey {
        case user, organisations, homeScreen = "home_screen", homeScreenName = "home_screen_name", amr
    }
}

private struct StatusFields: Encodable {
    let biometrics: String
    let queuedWrites: Int
    /// The notices' texts, shown once.
    let notices: [String]
    let offline: Bool

    enum CodingKeys: String, CodingKey {
        case biometrics, queuedWrites = "queued_writes", notices, offline
    }
}
