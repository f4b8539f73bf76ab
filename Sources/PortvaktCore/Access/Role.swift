/// What a person may do in one organisation.
public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
    /// Likeperson: logs activities with the people they support.
    case peerMentor = "peer_mentor"
    /// Coordinates peer mentors in a region or team.
    case coordinator
    /// Administers the organisation's members and settings.
    case orgAdmin = "org_admin"
}
