/// The release, as a semantic version: the server, the command-line app and PortvaktKit are
/// released together (CHANGELOG.md).
public enum PortvaktVersion {
    public static let current = "1.0.0"

    /// What `--version` prints: the release, and the git commit when built from a checkout
    /// (`1.0.0 (commit 3f2c…)`).
    public static func described(commit: String?) -> String {
        commit.map { "\(current) (commit \($0))" } ?? current
    }
}
