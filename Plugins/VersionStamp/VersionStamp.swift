import Foundation
import PackagePlugin

/// Gives an executable the git commit it is built from (`--version`): a generated
/// `BuildCommit.swift`, written again whenever HEAD moves (a commit, a checkout, a reset).
@main
struct VersionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildCommit.swift")
        return [
            .buildCommand(
                displayName: "Stamping \(target.name) with the git commit",
                executable: try context.tool(named: "portvakt-version-stamp").url,
                arguments: [package.path, output.path],
                inputFiles: Self.gitFiles(of: package),
                outputFiles: [output]
            ),
        ]
    }

    /// The files whose change moves HEAD: HEAD itself and its reflog (which grows with every
    /// commit, checkout and reset) in the checkout's git directory, a worktree's own included,
    /// and the shared `packed-refs`.
    static func gitFiles(of package: URL) -> [URL] {
        let dotGit = package.appending(path: ".git")
        var gitDirectory = dotGit
        if let link = try? String(contentsOf: dotGit, encoding: .utf8), link.hasPrefix("gitdir: ") {
            let path = link.dropFirst("gitdir: ".count).trimmingCharacters(in: .whitespacesAndNewlines)
            gitDirectory = URL(fileURLWithPath: path, relativeTo: package).standardizedFileURL
        }
        var common = gitDirectory
        if let shared = try? String(contentsOf: gitDirectory.appending(path: "commondir"), encoding: .utf8) {
            common = URL(fileURLWithPath: shared.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: gitDirectory).standardizedFileURL
        }
        return [gitDirectory.appending(path: "HEAD"), gitDirectory.appending(path: "logs/HEAD"), common.appending(path: "packed-refs")]
            .filter { FileManager.default.fileExists(atPath: $0.path) }
    }
}
