// No SMTP package is in the package mirror Portvakt builds from, so this small client is written
// here on swift-nio and swift-nio-ssl: RFC 5321 (EHLO, MAIL, RCPT, DATA with dot-stuffing, QUIT),
// RFC 3207 (STARTTLS), RFC 4954 (AUTH PLAIN) and RFC 8314 (implicit TLS). One connection per
// message: Portvakt sends a few notices, not bulk mail.

import PortvaktDomain
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Sends one message per call to the configured server, within ``SMTPSettings/timeout``.
///
/// Concurrency: a value type holding only `Sendable` state; calls may run at once, each on its
/// own connection.
struct SMTPClient: Sendable {
    let settings: SMTPSettings
    private let tls: NIOSSLContext?
    private let group: any EventLoopGroup

    /// - Throws: when the TLS context cannot be made (an unreadable trust-root file).
    init(settings: SMTPSettings, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws {
        self.settings = settings
        self.group = group
        if settings.transport == .plain {
            tls = nil
        } else {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.minimumTLSVersion = .tlsv12
            configuration.additionalTrustRoots = settings.additionalTrustRoots.map { .file($0) }
            tls = try NIOSSLContext(configuration: configuration)
        }
    }

    /// Sends `message`; returns once the server has taken responsibility for it (250 after DATA).
    /// - Throws: ``SMTPError``, and only that.
    func send(_ message: MailMessage) async throws {
        let data = Self.dotStuffed(try message.rendered())
        let timeout = settings.timeout
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await converse(from: message.from, to: message.to, data: data) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw SMTPError(.timedOut, "the SMTP server did not finish within \(timeout)")
                }
                // The first to end decides; the other is cancelled (a pending read then ends).
                _ = try await group.next()
                group.cancelAll()
            }
        } catch let error as SMTPError {
            throw error
        } catch is NIOSSLError, is NIOSSLExtraError, is BoringSSLError {
            throw handshakeFailed
        } catch {
            throw SMTPError(.protocolViolation, "the connection to the SMTP server \(settings.host):\(settings.port) failed (\(error))")
        }
    }

    /// The DATA section: a line that starts with "." gets another (RFC 5321 §4.5.2), and
    /// `CRLF . CRLF` ends it.
    static func dotStuffed(_ rendered: String) -> String {
        // On lines, not Characters: Swift takes CR LF for one Character, so dropLast(2) would
        // eat a byte of the text.
        var lines = rendered.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines.map { $0.hasPrefix(".") ? "." + $0 : $0 }.joined(separator: "\r\n") + "\r\n.\r\n"
    }

    private func connect() async throws -> NIOAsyncChannel<SMTPInbound, ByteBuffer> {
        let implicit = settings.transport == .implicitTLS ? tls : nil
        let name = settings.serverName
        return try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(10))
            .connect(host: settings.host, port: settings.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let implicit {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: implicit, serverHostname: name))
                    }
                    try channel.pipeline.syncOperations.addHandler(TLSBoundaryHandler())
                    return try NIOAsyncChannel<SMTPInbound, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    private func converse(from: MailAddress, to: MailAddress, data: String) async throws {
        let channel: NIOAsyncChannel<SMTPInbound, ByteBuffer>
        do {
            channel = try await connect()
        } catch {
            throw SMTPError(.connectionFailed, "could not connect to the SMTP server \(settings.host):\(settings.port) (\(error))")
        }
        try await channel.executeThenClose { inbound, outbound in
            var smtp = Conversation(reader: inbound.makeAsyncIterator(), outbound: outbound)
            try await smtp.expect(220, .protocolViolation, "the SMTP server did not greet")
            var extensions = try await smtp.hello(from.domain)
            var encrypted = settings.transport == .implicitTLS
            if settings.transport == .startTLS {
                guard extensions["STARTTLS"] != nil else {
                    throw SMTPError(.startTLSUnavailable, "the SMTP server \(settings.host) does not offer STARTTLS, and mail leaves this machine only encrypted")
                }
                try await smtp.command("STARTTLS", expect: 220, .tlsFailed, "the SMTP server refused STARTTLS")
                try await startTLS(on: channel.channel)
                try await smtp.expectNothingBeforeTLS()
                encrypted = true
                // RFC 3207 §4.2: forget what the server said before TLS and ask again. A failed handshake
                // shows in this first exchange: as its error, or as the channel's end when NIO closed it first.
                smtp.closed = handshakeFailed
                do {
                    extensions = try await smtp.hello(from.domain)
                } catch is ChannelError, is IOError {
                    throw handshakeFailed
                }
                smtp.closed = Conversation.serverClosed
            }
            if let credentials = settings.credentials {
                guard encrypted || settings.isLoopback else {
                    throw SMTPError(.authenticationNeedsTLS, "the SMTP password would cross the network unencrypted")
                }
                guard extensions["AUTH"]?.contains("PLAIN") == true else {
                    throw SMTPError(.authenticationFailed, "the SMTP server offers no AUTH PLAIN")
                }
                let token = Data("\0\(credentials.username)\0\(credentials.password)".utf8).base64EncodedString()
                try await smtp.command("AUTH PLAIN \(token)", expect: 235, .authenticationFailed, "the SMTP server refused the user and password")
            }
            try await smtp.command("MAIL FROM:<\(from.address)>", expect: 250, .rejected, "the SMTP server refused the sender")
            try await smtp.command("RCPT TO:<\(to.address)>", expect: 250...251, .rejected, "the SMTP server refused the recipient")
            try await smtp.command("DATA", expect: 354, .rejected, "the SMTP server refused to take a message")
            try await outbound.write(ByteBuffer(string: data))
            try await smtp.expect(250, .rejected, "the SMTP server refused the message")
            // The message is the server's now; a failed goodbye changes nothing.
            _ = try? await smtp.command("QUIT", expect: 221, .protocolViolation, "QUIT")
        }
    }

    private var handshakeFailed: SMTPError {
        SMTPError(.tlsFailed, "the TLS handshake with \(settings.host) failed (is its certificate trusted and for this name?)")
    }

    /// Puts TLS under the conversation, nearest the socket, and marks where it began, in one task
    /// on the channel's event loop: no read falls between the two.
    private func startTLS(on channel: any Channel) async throws {
        guard let tls else { throw SMTPError(.tlsFailed, "no TLS context") }
        let name = settings.serverName
        try await channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: name), position: .first)
            try TLSBoundaryHandler.markTLSStarted(in: pipeline)
        }.get()
    }
}

/// What the conversation reads: the server's bytes, and where TLS went under them.
private enum SMTPInbound: Sendable {
    case bytes(ByteBuffer)
    /// Bytes before this were read from the socket as sent; bytes after it came through TLS.
    case tlsStarted
}

/// Passes the server's bytes up, and marks among them where TLS went under the conversation.
/// The mark is needed because bytes read before the TLS handler was added may still wait, unread,
/// in the async channel's inbound stream, above TLS and beyond its reach.
private final class TLSBoundaryHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = SMTPInbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(Self.wrapInboundOut(.bytes(Self.unwrapInboundIn(data))))
    }

    /// On the event loop, in the same task that added the TLS handler.
    static func markTLSStarted(in pipeline: ChannelPipeline.SynchronousOperations) throws {
        let context = try pipeline.context(handlerType: TLSBoundaryHandler.self)
        context.fireChannelRead(Self.wrapInboundOut(.tlsStarted))
        // NIOAsyncChannel hands reads to its stream only when a read burst completes.
        context.fireChannelReadComplete()
    }
}

/// One SMTP conversation: commands out, replies in.
private struct Conversation {
    var reader: NIOAsyncChannelInboundStream<SMTPInbound>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    var parser = SMTPReplyParser()
    var replies: [SMTPReply] = []
    /// What the end of the server's bytes means now.
    var closed = serverClosed

    static let serverClosed = SMTPError(.protocolViolation, "the SMTP server closed the connection")

    mutating func reply() async throws -> SMTPReply {
        while replies.isEmpty {
            switch try await reader.next() {
            case .bytes(let bytes)?:
                replies += try parser.feed(bytes.readableBytesView)
            case .tlsStarted?:
                throw SMTPError(.protocolViolation, "TLS started in the middle of a reply")
            case nil:
                throw closed
            }
        }
        return replies.removeFirst()
    }

    /// Right after TLS went under the conversation: anything the server sent after its 220 to
    /// STARTTLS, parsed or still queued unread, would otherwise be read as if it came encrypted
    /// (RFC 3207 §4.2; CVE-2011-0411).
    mutating func expectNothingBeforeTLS() async throws {
        // Refused rather than discarded: an honest server waits for the handshake, so such bytes
        // are an attacker's, and the mail is retried on a clean connection.
        let injected = SMTPError(.protocolViolation, "the SMTP server sent more after agreeing to STARTTLS")
        guard parser.isIdle, replies.isEmpty else { throw injected }
        switch try await reader.next() {
        case .tlsStarted?:
            return
        case .bytes?:
            throw injected
        case nil:
            throw closed
        }
    }

    @discardableResult
    mutating func expect(_ accepted: ClosedRange<Int>, _ failure: SMTPError.Code, _ reason: String) async throws -> SMTPReply {
        let reply = try await reply()
        guard accepted.contains(reply.code) else { throw SMTPError(failure, reason, reply: reply) }
        return reply
    }

    @discardableResult
    mutating func expect(_ accepted: Int, _ failure: SMTPError.Code, _ reason: String) async throws -> SMTPReply {
        try await expect(accepted...accepted, failure, reason)
    }

    @discardableResult
    mutating func command(_ line: String, expect accepted: ClosedRange<Int>, _ failure: SMTPError.Code, _ reason: String) async throws -> SMTPReply {
        try await outbound.write(ByteBuffer(string: line + "\r\n"))
        return try await expect(accepted, failure, reason)
    }

    @discardableResult
    mutating func command(_ line: String, expect accepted: Int, _ failure: SMTPError.Code, _ reason: String) async throws -> SMTPReply {
        try await command(line, expect: accepted...accepted, failure, reason)
    }

    /// EHLO, and the extensions the server announces.
    mutating func hello(_ name: String) async throws -> [String: [String]] {
        try await command("EHLO \(name)", expect: 250, .protocolViolation, "the SMTP server refused EHLO").extensions
    }
}
