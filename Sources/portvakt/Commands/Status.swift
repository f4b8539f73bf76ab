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
        let (me, offline) = try await cli.liveOrCached("v1/me", .profile)
        let summary = Self.summary(me, language: cli.language)
        let notices = offline ? [] : (me["notices"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        cli.output.emit(
            summary.object.merging(["biometrics": settings.status, "queued_writes": queued, "notices": notices, "offline": offline]) { $1 },
            text: (offline ? [UserMessage.offline.text(cli.language)] : []) + summary.text
                + [settings.status, cli.language.pick("Venter på sending: \(queued)", "Waiting to be sent: \(queued)")] + notices
        )
    }

    /// The user, organisations, roles and home screen of `/v1/me`, in words; the JSON keeps the
    /// ids (`roles`, `home_screen`) beside the words (`role_names`, `home_screen_name`).
    static func summary(_ me: [String: Any], language: Language) -> (object: [String: Any], text: [String]) {
        let user = me["user"] as? [String: Any] ?? [:]
        let name = user["name"] as? String ?? ""
        let organisations = (me["organisations"] as? [[String: Any]] ?? []).map { organisation -> [String: Any] in
            let title = organisation["name"] as? String ?? organisation["slug"] as? String ?? ""
            let roles = (organisation["roles"] as? [String] ?? []).map { RoleWords.role($0, organisation: title, language) }
            return organisation.merging(["role_names": roles]) { $1 }
        }
        let roleLines = organisations.flatMap { $0["role_names"] as? [String] ?? [] }
        let home = me["home_screen"] as? String ?? ""
        let homeName = RoleWords.homeScreen(home, language)
        let session = me["session"] as? [String: Any] ?? [:]
        let text = [language.pick("Logget inn som \(name)", "Logged in as \(name)")] + roleLines.map { "  " + $0 }
            + [language.pick("Startside: \(homeName)", "Home screen: \(homeName)")]
        return (["user": user, "organisations": organisations, "home_screen": home, "home_screen_name": homeName, "amr": session["amr"] ?? []], text)
    }
}
