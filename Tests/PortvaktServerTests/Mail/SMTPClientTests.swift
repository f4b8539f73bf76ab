import Foundation
import PortvaktCore
import PortvaktDomain
@testable import PortvaktServer
import Testing

/// The SMTP client against a real SMTP server, aiosmtpd (issue 33, item 2), and the rules that
/// need none: TLS off this machine, no header injection, settings that name themselves.
@Suite("SMTP client")
struct SMTPClientTests {
    static let from = "Portvakt <noreply@portvakt.example.org>"

    static func message(_ settings: SMTPSettings, subject: String = "Velg passord", body: String = "Hei!") throws -> MailMessage {
        MailMessage(from: settings.from, to: try MailAddress("kari@example.org"), subject: subject, body: body, id: "test-1", date: Date())
    }

    @Test("A message with a non-ASCII subject and a line starting with '.' arrives as written", .enabled(if: SMTPTestServer.shouldRun))
    func delivers() async throws {
        try await SMTPTestServer.run { server in
            let settings = try SMTPSettings(url: "smtp://127.0.0.1:\(server.port)", from: Self.from)
            #expect(settings.transport == .plain, "plain SMTP is for loopback only")
            let body = "Hei!\n\n.en linje som starter med punktum\n..og en med to\nÆØÅ æøå – «sitat» " + String(repeating: "lang linje ", count: 12)
            let subject = "Passord for Portvakt – ø og å"
            try await SMTPClient(settings: settings).send(Self.message(settings, subject: subject, body: body))

            let received = try await server.message(1)
            #expect(received.subject == subject)
            #expect(received.body == body + "\n")
            #expect(received.record["mail_from"] as? String == "noreply@portvakt.example.org")
            #expect(received.record["rcpt_tos"] as? [String] == ["kari@example.org"])
            let headers = received.headers
            #expect(headers["From"] == "Portvakt <noreply@portvakt.example.org>")
            #expect(headers["To"] == "kari@example.org")
            #expect(headers["Message-ID"] == "<test-1@portvakt.example.org>")
            #expect(headers["MIME-Version"] == "1.0")
            #expect(headers["Content-Type"]?.lowercased().replacingOccurrences(of: "\"", with: "") == "text/plain; charset=utf-8")
            #expect(try #/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000$/#.wholeMatch(in: headers["Date"] ?? "") != nil)

            // On the wire: ASCII only, short lines, the subject in encoded words, the dots as written.
            let raw = String(decoding: received.raw, as: UTF8.self)
            #expect(received.raw.allSatisfy { $0 < 128 })
            #expect(raw.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
            #expect(raw.contains("Subject: =?UTF-8?B?"))
            #expect(raw.contains("\r\n.en linje"))
            #expect(raw.contains("\r\n..og en med to"))
        }
    }

    @Test("STARTTLS and AUTH PLAIN: the password crosses only the encrypted connection", .enabled(if: SMTPTestServer.shouldRun))
    func startTLSAndAuth() async throws {
        try await SMTPTestServer.run(starttls: true, auth: "kari:hemmelig passord") { server in
            var settings = try SMTPSettings(url: "smtp://kari:hemmelig%20passord@127.0.0.1:\(server.port)", from: Self.from)
            #expect(settings.credentials?.password == "hemmelig passord")
            // As for a host that is not this machine: STARTTLS, the certificate checked.
            settings.transport = .startTLS
            settings.additionalTrustRoots = [server.maildir.appendingPathComponent("cert.pem").path]
            try await SMTPClient(settings: settings).send(Self.message(settings))
            let received = try await server.message(1)
            #expect(received.record["tls"] as? Bool == true)
            #expect(received.record["authenticated"] as? Bool == true)

            // A certificate nobody trusts: no handshake, nothing sent.
            settings.additionalTrustRoots = []
            let untrusted = settings
            let error = await #expect(throws: SMTPError.self) { try await SMTPClient(settings: untrusted).send(Self.message(untrusted)) }
            #expect(error?.code == .tlsFailed)
            #expect(server.count == 1)
        }
    }

    @Test("A server without STARTTLS gets nothing when mail must leave encrypted", .enabled(if: SMTPTestServer.shouldRun))
    func refusesWithoutStartTLS() async throws {
        try await SMTPTestServer.run { server in
            var remote = try SMTPSettings(url: "smtp://127.0.0.1:\(server.port)", from: Self.from)
            remote.transport = .startTLS
            let settings = remote
            let error = await #expect(throws: SMTPError.self) { try await SMTPClient(settings: settings).send(Self.message(settings)) }
            #expect(error?.code == .startTLSUnavailable)
            #expect(error?.isPermanent == false, "retried: fixing the server's TLS delivers the mail")
            // The client waits for the server's answer to every command it sends, so a message it
            // had sent would be counted by the time it returned.
            #expect(server.count == 0)
        }
    }

    @Test("Replies a server sends after its 220 to STARTTLS and before TLS are refused, never read as encrypted (CVE-2011-0411)")
    @available(macOS 15, iOS 18, *)
    func refusesRepliesInjectedBeforeTLS() async throws {
        let client = HoldableExecutor()
        try await InjectingSMTPServer.run(holding: client) { port in
            var remote = try SMTPSettings(url: "smtp://127.0.0.1:\(port)", from: Self.from)
            remote.transport = .startTLS
            remote.timeout = .seconds(20)
            let settings = remote
            // Believed, the injected replies answer everything from the second EHLO to QUIT, and
            // send returns as if the message had been delivered.
            let error = await #expect(throws: SMTPError.self) {
                try await withTaskExecutorPreference(client) { try await SMTPClient(settings: settings).send(Self.message(settings)) }
            }
            #expect(error?.code == .protocolViolation)
            #expect(error?.reply == nil, "no injected reply was taken for the server's answer")
        }
    }

    @Test("smtp:// needs STARTTLS unless the host, parsed as an address, is this machine", arguments: [
        ("smtp://mail.example.org:587", SMTPSettings.Transport.startTLS),
        ("smtp://127.evil.example:25", .startTLS),
        ("smtp://127.0.0.1.nip.io:25", .startTLS),
        ("smtp://10.0.0.5:25", .startTLS),
        ("smtp://127.0.0.1:2525", .plain),
        ("smtp://127.8.9.10:25", .plain),
        ("smtp://[::1]:25", .plain),
        ("smtp://localhost:25", .plain),
        ("smtps://mail.example.org", .implicitTLS),
    ])
    func transport(url: String, expected: SMTPSettings.Transport) throws {
        #expect(try SMTPSettings(url: url, from: Self.from).transport == expected)
    }

    @Test("A non-loopback smtp:// URL is never plain, and smtps defaults to port 465")
    func remoteNeverPlain() throws {
        let remote = try SMTPSettings(url: "smtp://user:pw@smtp.example.org", from: Self.from)
        #expect(remote.transport == .startTLS && remote.port == 587 && !remote.isLoopback)
        #expect(try SMTPSettings(url: "smtps://smtp.example.org", from: Self.from).port == 465)
    }

    @Test("Settings: both or neither, and a bad one is named without its password", arguments: [
        ["PORTVAKT_SMTP_URL": "smtp://u:topsecret@smtp.example.org:587"],
        ["PORTVAKT_MAIL_FROM": "noreply@example.org"],
        ["PORTVAKT_SMTP_URL": "http://u:topsecret@smtp.example.org", "PORTVAKT_MAIL_FROM": "noreply@example.org"],
        ["PORTVAKT_SMTP_URL": "smtp://u@smtp.example.org", "PORTVAKT_MAIL_FROM": "noreply@example.org"],
        ["PORTVAKT_SMTP_URL": "smtp://u:topsecret@smtp.example.org:0", "PORTVAKT_MAIL_FROM": "noreply@example.org"],
        ["PORTVAKT_SMTP_URL": "smtp://u:topsecret@smtp.example.org", "PORTVAKT_MAIL_FROM": "no reply"],
    ])
    func settings(environment: [String: String]) throws {
        let error = #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(.development, from: environment) }
        #expect(error?.description.contains("PORTVAKT_") == true)
        #expect(error?.description.contains("topsecret") == false)
    }

    @Test("Configured settings are read")
    func configured() throws {
        let configuration = try ServerConfiguration.load(.development, from: [
            "PORTVAKT_SMTP_URL": "smtps://u:p@smtp.example.org:465", "PORTVAKT_MAIL_FROM": "Portvakt <noreply@example.org>",
        ])
        #expect(configuration.smtp?.transport == .implicitTLS)
        #expect(configuration.smtp?.from.address == "noreply@example.org")
        #expect(configuration.smtp?.from.displayName == "Portvakt")
        #expect(try ServerConfiguration.load(.development, from: [:]).smtp == nil)
    }

    @Test("No line break reaches a header or a command", arguments: [
        "kari@example.org\r\nBcc: all@example.org", "kari@example.org\nRCPT TO:<x@example.org>", "kari @example.org", "<kari@example.org>",
        "kari", "kari@localhost", "kåri@example.org",
    ])
    func refusesInjectedAddresses(address: String) {
        #expect(throws: MailAddressError.self) { try MailAddress(address) }
    }

    @Test("A subject with a line break is refused")
    func refusesInjectedSubject() throws {
        let settings = try SMTPSettings(url: "smtp://127.0.0.1:25", from: Self.from)
        #expect(throws: SMTPError.self) { try Self.message(settings, subject: "Hei\r\nBcc: all@example.org").rendered() }
    }

    @Test("Quoted-printable keeps lines short and ASCII and round-trips the dots")
    func quotedPrintable() {
        let encoded = MailMessage.quotedPrintable("a=b æ\n.x \n" + String(repeating: "ø", count: 50))
        let lines = encoded.components(separatedBy: "\r\n")
        #expect(lines[0] == "a=3Db =C3=A6")
        #expect(lines[1] == ".x=20")
        #expect(lines.allSatisfy { $0.utf8.count <= 76 && $0.unicodeScalars.allSatisfy(\.isASCII) })
        #expect(SMTPClient.dotStuffed("A\r\n.x\r\n") == "A\r\n..x\r\n.\r\n")
    }

    @Test("Replies: multi-line, split anywhere by the network, bounded")
    func replies() throws {
        var parser = SMTPReplyParser()
        #expect(try parser.feed(Array("250-smtp.example.org\r\n250-STARTTLS\r".utf8)).isEmpty)
        let replies = try parser.feed(Array("\n250 AUTH PLAIN LOGIN\r\n".utf8))
        #expect(replies.count == 1)
        #expect(replies.first?.code == 250)
        #expect(replies.first?.extensions["STARTTLS"] == [])
        #expect(replies.first?.extensions["AUTH"] == ["PLAIN", "LOGIN"])
        #expect(parser.isIdle)
        #expect(throws: SMTPError.self) { var other = SMTPReplyParser(); _ = try other.feed(Array("250-a\r\n354 b\r\n".utf8)) }
        #expect(throws: SMTPError.self) { var other = SMTPReplyParser(); _ = try other.feed(Array("hello\r\n".utf8)) }
        #expect(throws: SMTPError.self) { var other = SMTPReplyParser(); _ = try other.feed([UInt8](repeating: 65, count: 5000)) }
    }

    @Test("Every notice exists in both languages, holds no personnummer, and only the invitation a link")
    func notices() {
        let notices: [MailNotice] = [
            .passwordInvite(link: "https://portvakt.example/portal/password/abc"), .passwordChanged,
            .deviceAdded(deviceName: "Karis iPhone\r\nBcc: x"), .devicesRemovedByAdmin(organisation: "NHF"),
        ]
        for notice in notices {
            let nb = notice.compose(.nb, accountURL: "https://portvakt.example/account")
            let en = notice.compose(.en, accountURL: "https://portvakt.example/account")
            #expect(nb.subject != en.subject && nb.body != en.body)
            #expect(nb.body.contains("/portal/password/") == (notice.kind == "password_invite"))
            #expect(!nb.body.contains("\r") && !nb.subject.contains("\n"))
            #expect(nb.body.range(of: #"\d{11}"#, options: .regularExpression) == nil)
        }
        #expect(MailNotice.passwordChanged.compose(.en, accountURL: "x").subject == "Your password was set or changed")
        #expect(MailNotice.deviceAdded(deviceName: nil).compose(.nb, accountURL: "x").subject == "En ny telefon kan låse opp kontoen din")
    }
}
