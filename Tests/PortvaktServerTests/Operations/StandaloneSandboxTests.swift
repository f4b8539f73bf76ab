import Foundation
import Testing
@testable import PortvaktServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("The standalone sandbox server")
struct StandaloneSandboxTests {
    @Test("A thrown error gets the broker's error handling: a malformed chunked body is a 400 with an OAuth JSON body, not a body-less 500")
    func malformedBody() async throws {
        try await Cluster.Sandbox.run { sandbox in
            let port = try #require(URLComponents(string: sandbox.baseURL)?.port)
            let answer = try Self.exchange(port: port, Data((
                "POST /sandbox/vipps/access-management-1.0/access/oauth2/token HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"
            ).utf8))
            let head = answer.prefix { $0 != "\r" }
            #expect(head.hasPrefix("HTTP/1.1 400"), "\(head)")
            #expect(answer.contains(#""error":"invalid_request""#), "\(answer.prefix(300))")
        }
    }

    /// Sends `bytes` on a fresh loopback connection and reads the answer until the server closes
    /// it or a second passes.
    static func exchange(port: Int, _ bytes: Data) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "could not connect to port \(port)")
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, bytes.count, 0) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 64 * 1024 {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: received, as: UTF8.self)
    }
}
