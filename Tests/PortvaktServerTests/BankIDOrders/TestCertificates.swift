import Foundation

/// Certificate authorities and the certificates they sign, made by openssl for one test (as
/// scripts/postgres-tls-test.sh makes PostgreSQL's): P-256 keys, PEM files in a folder of the test's own.
struct TestCertificates {
    /// A certificate and its key, as the files an operator is given.
    struct Issued {
        let certificate: String
        let key: String
    }

    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-certificates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// A self-signed certificate authority.
    func authority(_ name: String) throws -> Issued {
        let issued = paths(name)
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                     "-keyout", issued.key, "-out", issued.certificate, "-days", "2", "-subj", "/CN=\(name)"])
        return issued
    }

    /// A certificate `authority` signs: for a server (its names in subjectAltName) or a client.
    /// `days: 0` makes one that has expired by the time it is used.
    func issue(_ name: String, by authority: Issued, serverNames: [String]? = nil, days: Int = 2) throws -> Issued {
        let issued = paths(name)
        let request = directory.appendingPathComponent("\(name).csr").path
        let extensions = directory.appendingPathComponent("\(name).ext").path
        try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                     "-keyout", issued.key, "-out", request, "-subj", "/CN=\(name)"])
        let lines = serverNames.map { ["extendedKeyUsage=serverAuth", "subjectAltName=" + $0.map { $0.first!.isNumber ? "IP:\($0)" : "DNS:\($0)" }.joined(separator: ",")] }
            ?? ["extendedKeyUsage=clientAuth"]
        try (lines.joined(separator: "\n") + "\n").write(toFile: extensions, atomically: true, encoding: .utf8)
        try openssl(["x509", "-req", "-in", request, "-CA", authority.certificate, "-CAkey", authority.key, "-CAcreateserial",
                     "-out", issued.certificate, "-days", String(days), "-extfile", extensions])
        return issued
    }

    /// `issued` packed into a .p12, as BankID hands a relying party its certificate, then taken
    /// out again with the commands docs/configuration.md gives: the certificate and the key files.
    func throughPKCS12(_ issued: Issued) throws -> (certificate: String, key: String) {
        let bundle = directory.appendingPathComponent("rp.p12").path
        let certificate = directory.appendingPathComponent("rp.pem").path, key = directory.appendingPathComponent("rp.key").path
        try openssl(["pkcs12", "-export", "-in", issued.certificate, "-inkey", issued.key, "-out", bundle, "-passout", "pass:bankid"])
        try openssl(["pkcs12", "-in", bundle, "-clcerts", "-nokeys", "-out", certificate, "-passin", "pass:bankid"])
        try openssl(["pkcs12", "-in", bundle, "-nocerts", "-nodes", "-out", key, "-passin", "pass:bankid"])
        return (certificate, key)
    }

    private func paths(_ name: String) -> Issued {
        Issued(certificate: directory.appendingPathComponent("\(name).pem").path, key: directory.appendingPathComponent("\(name).key").path)
    }

    private func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw OpenSSLFailed(arguments: arguments, message: String(decoding: message, as: UTF8.self))
        }
    }

    struct OpenSSLFailed: Error, CustomStringConvertible {
        let arguments: [String]
        let message: String
        var description: String { "openssl \(arguments.joined(separator: " ")) failed: \(message)" }
    }
}
