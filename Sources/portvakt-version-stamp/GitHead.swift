import Foundation

/// The commit a checkout's HEAD points at, read from git's own files: `HEAD` (a commit or
/// `ref: refs/heads/…`), the loose ref or `packed-refs`, and a worktree's `.git` file
/// (`gitdir: …`) with its `commondir`.
struct GitHead {
    let packageDirectory: URL

    func commit() -> String? {
        guard let gitDirectory = gitDirectory(), let head = text(gitDirectory.appending(path: "HEAD")) else { return nil }
        guard head.hasPrefix("ref: ") else { return Self.isCommit(head) ? head : nil }
        let ref = String(head.dropFirst("ref: ".count))
        let common = text(gitDirectory.appending(path: "commondir")).map { URL(fileURLWithPath: $0, relativeTo: gitDirectory).standardizedFileURL } ?? gitDirectory
        for directory in [gitDirectory, common] {
            if let loose = text(directory.appending(path: ref)), Self.isCommit(loose) { return loose }
        }
        let packed = text(common.appending(path: "packed-refs"))?.split(separator: "\n") ?? []
        for line in packed {
            let fields = line.split(separator: " ", maxSplits: 1)
            if fields.count == 2, fields[1] == ref, Self.isCommit(String(fields[0])) { return String(fields[0]) }
        }
        return nil
    }

    private func gitDirectory() -> URL? {
        let dotGit = packageDirectory.appending(path: ".git")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue { return dotGit }
        guard let line = text(dotGit), line.hasPrefix("gitdir: ") else { return nil }
        return URL(fileURLWithPath: String(line.dropFirst("gitdir: ".count)), relativeTo: packageDirectory).standardizedFileURL
    }

    private func text(_ url: URL) -> String? {
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func isCommit(_ text: String) -> Bool {
        [40, 64].contains(text.count) && text.allSatisfy(\.isHexDigit)
    }
}
