/// Roles and home screens as people read them, for every client (the portal, the app, the CLI):
/// "Likeperson i NHF", never `peer_mentor`.
public enum RoleWords {
    /// A role (`peer_mentor`, `coordinator`, `org_admin`) in an organisation; an unknown id as it is.
    public static func role(_ id: String, organisation: String, _ language: Language) -> String {
        switch id {
        case "peer_mentor": language.pick("Likeperson i \(organisation)", "Peer mentor in \(organisation)")
        case "coordinator": language.pick("Koordinator i \(organisation)", "Coordinator in \(organisation)")
        case "org_admin": language.pick("Administrator i \(organisation)", "Administrator in \(organisation)")
        default: "\(id) (\(organisation))"
        }
    }

    /// The app's start screen (`/v1/me`'s `home_screen`).
    public static func homeScreen(_ id: String, _ language: Language) -> String {
        switch id {
        case "organisation_admin": language.pick("Administrasjon av organisasjonen", "Organisation administration")
        case "coordinator_overview": language.pick("Koordinatoroversikt", "Coordinator overview")
        case "peer_mentor_activities": language.pick("Mine aktiviteter", "My activities")
        case "no_organisation": language.pick("Ingen organisasjon ennå", "No organisation yet")
        default: id
        }
    }
}
