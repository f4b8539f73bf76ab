import Foundation
import PackagePlugin

/// Gives an executable the git commit it is built from (`--version`): a generated
/// `BuildCommit.swift`, written again whenever HEAD moves (a commit, a checkout, a reset).
@main
struct VersionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildCommit.swift")
        // HEAD names the branch; the branch's reflog grows with every commit made on it.
        let git = package.appending(path: ".git")
        let inputs = [git.appending(path: "HEAD"), git.appending(path: "logs/HEAD"), git.appending(path: "packed-refs"), git]
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        return [
            .buildCommand(
                displayName: "Stamping \(target.name) with the git commit",
                executable: try context.tool(named: "portvakt-version-stamp").url,
                arguments: [package.path, output.path],
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }
}
