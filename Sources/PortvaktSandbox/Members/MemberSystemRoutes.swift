import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP

/// `POST /sandbox/members/{organisation}`: an organisation's member system receiving Portvakt's
/// updates. It checks what a real receiver must: `Portvakt-Timestamp` within five minutes, the
/// signature `Portvakt-Signature: v2=<hex HMAC-SHA256(secret, "<timestamp>.<idempotency key>.<body>")>`
/// (``MemberUpdateSignature``: a body signed under one key does not verify under another), and
/// the `Idempotency-Key` (a repeat is answered 200 and not applied again).
struct MemberSystemRoutes<Context: SandboxRequestContext>: Sendable {
    let sandbox: Sandbox

    /// How far the sender's timestamp may be from the receiver's clock.
    static var tolerance: TimeInterval { 300 }

    func register(on group: RouterGroup<Context>) {
        group.post("members/:organisation") { request, context in
            let slug = context.parameters.get("organisation") ?? ""
            let system = sandbox.memberSystem
            guard let secret = await system.secret(for: slug) else {
                throw HTTPError(.notFound, message: "No member system is registered for this organisation.")
            }
            if await system.fault(for: slug) == .outage {
                return try Responses.json(["error": "temporarily_unavailable"], status: .serviceUnavailable, headers: [.retryAfter: "30"])
            }
            let body = try await request.body.collect(upTo: 64 * 1024)
            let bytes = Data(buffer: body)
            func header(_ name: String) -> String? {
                request.headers.first { $0.name.canonicalName == name.lowercased() }?.value
            }
            guard let timestamp = header(MemberUpdateSignature.timestampHeader).flatMap(Int.init),
                  abs(TimeInterval(timestamp) - sandbox.now.timeIntervalSince1970) <= Self.tolerance
            else { throw HTTPError(.unauthorized, message: "Portvakt-Timestamp is missing or too far from now (replay?).") }
            let expected = MemberUpdateSignature.sign(
                body: bytes, timestamp: timestamp, idempotencyKey: header(MemberUpdateSignature.idempotencyKeyHeader) ?? "", secret: secret
            )
            guard let signature = header(MemberUpdateSignature.signatureHeader), constantTimeEqual(signature, expected) else {
                throw HTTPError(.unauthorized, message: "Portvakt-Signature does not match the timestamp, Idempotency-Key and body.")
            }
            guard let key = header(MemberUpdateSignature.idempotencyKeyHeader), !key.isEmpty, key.count <= 200 else {
                throw HTTPError(.badRequest, message: "Idempotency-Key is required.")
            }
            guard let update = try? JSONDecoder().decode(Update.self, from: bytes) else {
                throw HTTPError(.badRequest, message: "The body is not a member update.")
            }
            let masked = update.personnummer.map { String($0.prefix(6)) + "*****" }
            let applied = await system.apply(
                MemberSystem.Received(idempotencyKey: key, event: update.event, memberRef: update.memberRef, personnummerMasked: masked, deliveries: 1),
                to: slug
            )
            if await system.fault(for: slug) == .ackLost {
                return try Responses.json(["error": "server_error"], status: .internalServerError)
            }
            return try Responses.json(["status": applied ? "applied" : "duplicate"])
        }
    }

    private struct Update: Decodable {
        let event: String
        let memberRef: String?
        let personnummer: String?

        enum CodingKeys: String, CodingKey {
            case event, personnummer
            case memberRef = "member_ref"
        }
    }
}
