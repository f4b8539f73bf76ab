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
    /// S15: the email on the person's membership, for a login that finds no record; nil: none.
    var membershipEmail: String? = nil
    /// How long a person has to finish in the browser.
    var timeout: Duration = .seconds(300)

    func authenticate(url: URL, callback: BrowserCallback) async throws -> URL {
        switch mode {
        case .system:
            Terminal.status(CLIText.openThisAddressInABrowser.text(language))
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
        // The cookies the broker sets on the way bind the login, then the claim, to this browser.
        var cookies: [String: String] = [:]
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
            var request = HTTP.request(url)
            if url.host == start.host, !cookies.isEmpty {
                request.httpShouldHandleCookies = false
                request.setValue(Self.header(cookies), forHTTPHeaderField: "Cookie")
            }
            let (page, response) = try await HTTP.send(request)
            if url.host == start.host, let setCookie = response.value(forHTTPHeaderField: "Set-Cookie") {
                let pair = setCookie.prefix { $0 != ";" }.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
            }
            if response.statusCode >= 500 { throw WebAuthenticationError.refused(Self.unavailable(url)) }
            if response.statusCode == 200, let claim = Self.hiddenField("claim", in: String(decoding: page, as: UTF8.self)) {
                return try await claimMembership(claim, cookie: Self.header(cookies), at: url)
            }
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
        let answer = try await post("/oauth/password", [("flow", flow), ("email", email), ("password", password)], at: url)
        switch answer.statusCode {
        case 300..<400:
            try await follow(answer: answer, at: url)
        case 401: throw WebAuthenticationError.refused(.wrongEmailOrPassword)
        case 429: throw WebAuthenticationError.refused(.tooManyAttempts)
        default: throw WebAuthenticationError.failed
        }
    }

    /// S15: the login found no member record, and the broker offers to find it by email. With
    /// the email a code is sent there, and read here (from stdin without a terminal); without,
    /// the person is not a member and the app hears so.
    private func claimMembership(_ claim: String, cookie: String, at url: URL) async throws {
        guard let email = membershipEmail else {
            return try await follow(answer: try await post("/oauth/claim/cancel", [("claim", claim)], cookie: cookie, at: url), at: url)
        }
        Terminal.status(CLIText.weCouldNotFindYouIn.text(language))
        let sent = try await post("/oauth/claim/email", [("claim", claim), ("email", email)], cookie: cookie, at: url)
        switch sent.statusCode {
        case 200: break
        case 429: throw WebAuthenticationError.refused(.tooManyAttempts)
        default: throw WebAuthenticationError.refused(.membershipClaimEnded)
        }
        Terminal.status(CLIText.ifEmailIsOnAMembership.text(language, ["email": email]))
        while true {
            let code = Terminal.ask(CLIText.codeFromTheEmail.text(language))
            guard !code.isEmpty else {
                // No code (the end of the input): the claim ends, and the app hears so.
                return try await follow(answer: try await post("/oauth/claim/cancel", [("claim", claim)], cookie: cookie, at: url), at: url)
            }
            let answer = try await post("/oauth/claim/code", [("claim", claim), ("code", code)], cookie: cookie, at: url)
            switch answer.statusCode {
            case 300..<400: return try await follow(answer: answer, at: url)
            case 400: Terminal.status(CLIText.wrongCodePleaseTryAgain.text(language))
            case 429: throw WebAuthenticationError.refused(.tooManyAttempts)
            default: throw WebAuthenticationError.refused(.membershipClaimEnded)
            }
        }
    }

    private static func header(_ cookies: [String: String]) -> String {
        cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")
    }

    private func post(_ path: String, _ fields: [(String, String)], cookie: String? = nil, at url: URL) async throws -> HTTPURLResponse {
        var request = HTTP.request(URL(string: path, relativeTo: url)!.absoluteURL)
        request.httpMethod = "POST"
        if let cookie {
            request.httpShouldHandleCookies = false
            request.setValue(cookie, forHTTPHeaderField: "Cookie")
        }
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(HTTP.form(fields).utf8)
        return try await HTTP.send(request).1
    }

    /// A redirect's target, followed on to the app's loopback address.
    private func follow(answer: HTTPURLResponse, at url: URL) async throws {
        guard (300..<400).contains(answer.statusCode), let location = answer.value(forHTTPHeaderField: "Location"),
              let target = URL(string: location, relativeTo: url)?.absoluteURL
        else { throw WebAuthenticationError.failed }
        try await follow(target, sandbox: nil)
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
