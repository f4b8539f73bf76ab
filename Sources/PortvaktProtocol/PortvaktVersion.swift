/// The release, as a semantic version: the server, the command-line app and PortvaktKit are
/// released together (CHANGELOG.md).
public enum PortvaktVersion {
    public static let current = "1.0.0"
}
