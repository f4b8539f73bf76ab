/// Roles and home screens as people read them, for every client (the portal, the app, the CLI):
/// "Likeperson i NHF", never `peer_mentor`.
public enum RoleWords {
    /// A role (`peer_mentor`, `coordinator`, `org_admin`) in an organisation; an unknown id as it is.
    public static func role(_ id: String, organisation: String, _ language: Language) -> String {
        guard let role = RoleName(rawValue: id) else { return "\(id) (\(organisation))" }
        return role.text(language, ["organisation": organisation])
    }

    /// The app's start screen (`/v1/me`'s `home_screen`).
    public static func homeScreen(_ id: String, _ language: Language) -> String {
        HomeScreenName(rawValue: id)?.text(language) ?? id
    }
}

/// "Likeperson i {{organisation}}", by role id.
enum RoleName: String, CatalogKeys {
    case peerMentor = "peer_mentor"
    case coordinator = "coordinator"
    case orgAdmin = "org_admin"

    static var catalog: TextCatalog { ProtocolCatalog.texts }
    static let namespace = "role"
    var placeholders: Set<String> { ["organisation"] }
}

/// The app's start screens, by `home_screen` id.
enum HomeScreenName: String, CatalogKeys {
    case organisationAdmin = "organisation_admin"
    case coordinatorOverview = "coordinator_overview"
    case peerMentorActivities = "peer_mentor_activities"
    case noOrganisation = "no_organisation"

    static var catalog: TextCatalog { ProtocolCatalog.texts }
    static let namespace = "home"
}
