import Foundation
import PortvaktKit
import PortvaktProtocol
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The "in-app browser" of the CLI. It opens the system browser when there is one (and always
/// prints the address), then waits for the redirect on the loopback port. Against the sandbox it
/// can be the browser itself: it follows the redirects and tells the simulated provider which
/// test person approves or cancels. For email and password it fills in the broker's own form
/// with what the user typed in the terminal.
struct TerminalBrowser: WebAuthenticator {
    enum Mode: Sendable {
        case system
        case sandbox(user: String, action: String)
        case password(email: String, password: String)
    }

    let mode: Mode
    let receiver: LoopbackReceiver
    let language: Language
    /// How long a person has to finish in the browser.
    var timeout: Duration = .seconds(300)

    func authenticate(url: URL, callbackScheme: String) async throws -> URL {
        switch mode {
        case .system:
            Terminal.status(language.pick("Åpne denne adressen i en nettleser for å logge inn:", "Open this address in a browser to log in:"))
            Terminal.status(url.absoluteString)
            SystemBrowser.open(url)
        case .sandbox(let user, let action):
            try await follow(url, sandbox: (user, action))
        case .password(let email, let password):
            try await submitPassword(at: url, email: email, password: password)
        }
        guard let callback = await receiver.next(timeout: timeout) else { throw WebAuthenticationError.cancelled }
        return callback
    }

    /// Follows redirects (never automatically) until the loopback redirect has been delivered.
    private func follow(_ start: URL, sandbox: (user: String, action: String)?) async throws {
        var next = start
        var toldProvider = false
        for _ in 0..<12 {
            if next.absoluteString.hasPrefix(receiver.redirectURI) {
                _ = try await HTTP.send(HTTP.request(next))
                return
            }
            var url = next
            if let sandbox, !toldProvider, url.path.hasPrefix("/sandbox/") {
                toldProvider = true
                var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
                components.queryItems = (components.queryItems ?? []) + [
                    URLQueryItem(name: "sandbox_user", value: sandbox.user), URLQueryItem(name: "sandbox_action", value: sandbox.action),
                ]
                url = components.url!
            }
            let (_, response) = try await HTTP.send(HTTP.request(url))
            if response.statusCode >= 500 { throw WebAuthenticationError.refused(Self.unavailable(url)) }
            guard (300..<400).contains(response.statusCode), let location = response.value(forHTTPHeaderField: "Location"),
                  let target = URL(string: location, relativeTo: url)?.absoluteURL
            else { throw WebAuthenticationError.failed }
            next = target
        }
        throw WebAuthenticationError.failed
    }

    /// Opens the broker's password page and posts its form, as a browser would.
    private func submitPassword(at url: URL, email: String, password: String) async throws {
        let (page, response) = try await HTTP.send(HTTP.request(url))
        guard response.statusCode == 200, let flow = Self.hiddenField("flow", in: String(decoding: page, as: UTF8.self)) else {
            throw WebAuthenticationError.failed
        }
        var post = HTTP.request(URL(string: "/oauth/password", relativeTo: url)!.absoluteURL)
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(HTTP.form([("flow", flow), ("email", email), ("password", password)]).utf8)
        let (_, answer) = try await HTTP.send(post)
        switch answer.statusCode {
        case 300..<400:
            guard let location = answer.value(forHTTPHeaderField: "Location"), let target = URL(string: location, relativeTo: url)?.absoluteURL else {
                throw WebAuthenticationError.failed
            }
            try await follow(target, sandbox: nil)
        case 401: throw WebAuthenticationError.refused(.wrongEmailOrPassword)
        case 429: throw WebAuthenticationError.refused(.tooManyAttempts)
        default: throw WebAuthenticationError.failed
        }
    }

    /// A provider's page that answers 5xx is the provider being down (S1.5), named by its address
    /// (the pushed request's `request_uri` does not say which provider it is for).
    private static func unavailable(_ providerURL: URL) -> UserMessage {
        (providerURL.host ?? "").contains("vipps") || providerURL.path.contains("/vipps") ? .vippsUnavailable : .bankIDUnavailable
    }

    static func hiddenField(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end]).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// Starts the desktop's browser when there is a desktop.
enum SystemBrowser {
    static func open(_ url: URL) {
        let environment = ProcessInfo.processInfo.environment
        #if os(macOS)
        let command = "/usr/bin/open"
        #else
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else { return }
        let command = "/usr/bin/xdg-open"
        #endif
        guard FileManager.default.isExecutableFile(atPath: command) else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = [url.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }
}
