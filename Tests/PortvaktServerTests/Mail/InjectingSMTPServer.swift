import Foundation
import NIOCore
import NIOPosix
import Testing

/// A hostile SMTP server on 127.0.0.1 for one connection, the attack of CVE-2011-0411: it offers
/// STARTTLS, answers it with 220 and then, in a segment of its own and still in plaintext, with
/// the replies to a whole delivery. A client that reads those after the handshake as if they came
/// encrypted believes its message delivered, though no server took it.
@available(macOS 15, iOS 18, *)
enum InjectingSMTPServer {
    /// What would answer EHLO, MAIL, RCPT, DATA, the message and QUIT.
    static let injected = "250 fake.example\r\n250 ok\r\n250 ok\r\n354 go on\r\n250 queued\r\n221 bye\r\n"

    /// Starts the server, runs `body` with its port, stops the server.
    /// - Parameter client: the executor the client's tasks run on. The server holds it while it
    ///   sends 220 and then the injected replies, so the client's event loop reads them as two
    ///   reads and the client takes up the 220 with the injected replies already queued behind it:
    ///   what a busy client meets on a real network.
    static func run(holding client: HoldableExecutor, _ body: (_ port: Int) async throws -> Void) async throws {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let port = try #require(listener.channel.localAddress?.port)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await listener.executeThenClose { connections in
                    for try await connection in connections {
                        try await Self.serve(connection, holding: client)
                        return
                    }
                }
            }
            try await body(port)
            group.cancelAll()
        }
    }

    private static func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, holding client: HoldableExecutor) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var commands = CommandLines(inbound: inbound.makeAsyncIterator())
            try await outbound.write(ByteBuffer(string: "220 fake.example ESMTP\r\n"))
            let hello = try await commands.next()
            #expect(hello?.hasPrefix("EHLO ") == true)
            try await outbound.write(ByteBuffer(string: "250-fake.example\r\n250 STARTTLS\r\n"))
            let startTLS = try await commands.next()
            #expect(startTLS == "STARTTLS\r\n")
            try await client.holding {
                // Long enough for each step to be done: the client waiting for its reply, then
                // its event loop having read what was sent.
                try await Task.sleep(for: .milliseconds(100))
                try await outbound.write(ByteBuffer(string: "220 go ahead\r\n"))
                try await Task.sleep(for: .milliseconds(200))
                try await outbound.write(ByteBuffer(string: Self.injected))
                try await Task.sleep(for: .milliseconds(200))
            }
            // A real attacker would now pass the handshake on; this one waits for the client to hang up.
            while try await commands.next() != nil {}
        }
    }
}

/// The client's commands a line at a time (CR LF kept), however the network cuts them.
private struct CommandLines {
    var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    var pending = ByteBuffer()

    mutating func next() async throws -> String? {
        while true {
            let view = pending.readableBytesView
            if let newline = view.firstIndex(of: UInt8(ascii: "\n")) {
                return pending.readString(length: view.distance(from: view.startIndex, to: newline) + 1)
            }
            guard let bytes = try await inbound.next() else { return nil }
            pending.writeImmutableBuffer(bytes)
        }
    }
}

/// Runs jobs on a serial queue that can be held: while held, no job starts, so nothing of the
/// code that prefers this executor runs, though NIO's event loops go on reading for it.
///
/// `@unchecked Sendable`: its only state is a `DispatchQueue`, which is thread-safe.
@available(macOS 15, iOS 18, *)
final class HoldableExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "portvakt.tests.holdable-executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        queue.async { unownedJob.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `body` (elsewhere) while no job of this executor starts; one that is running finishes.
    func holding(_ body: () async throws -> Void) async rethrows {
        queue.suspend()
        defer { queue.resume() }
        try await body()
    }
}
