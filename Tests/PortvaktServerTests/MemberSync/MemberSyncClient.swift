import Foundation
import NIOHTTP1
import PortvaktModels
import PortvaktStorage
import Testing

/// Helpers for the member sync tests: the sync log as an administrator sees it, the sandbox
/// member systems, and waiting for the outbox worker.
extension LiveBroker {
    /// The organisation's sync log entries for one member record, oldest first.
    func syncEntries(_ organisation: String, admin token: String, query: String = "") async throws -> [[String: Any]] {
        let reply = try await api(.GET, "/v1/organisations/\(organisation)/member-sync\(query)", token: token)
        #expect(reply.status == 200, "\(reply.body)")
        return ((reply.json["entries"] as? [[String: Any]]) ?? []).reversed()
    }

    /// What the sandbox member system of `organisation` received.
    func memberSystemReceived(_ organisation: String) async throws -> [[String: Any]] {
        let reply = try await send("/sandbox/admin/members/\(organisation)", headers: [("Authorization", "Bearer \(Self.adminToken)")])
        return (reply.json["received"] as? [[String: Any]]) ?? []
    }

    func setMemberSystemFault(_ organisation: String, _ fault: String?) async throws {
        let body = Data((fault.map { #"{"fault":"\#($0)"}"# } ?? #"{"fault":null}"#).utf8)
        let reply = try await send("/sandbox/admin/members/\(organisation)", method: .PUT, raw: ("application/json", body), headers: [
            ("Authorization", "Bearer \(Self.adminToken)"),
        ])
        #expect(reply.status == 200, "\(reply.body)")
    }

    /// The outbox messages of an organisation, from the store.
    func outbox(_ organisation: String) async throws -> [OutboxMessage] {
        try await withStore { store in
            guard let id = try await store.organisation(slug: organisation)?.id else { return [] }
            return try await store.outboxMessages(organisationID: id)
        }
    }

    /// Polls `condition` every 100 ms for up to `seconds`.
    func eventually(_ seconds: Double = 10, _ condition: @escaping @Sendable () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    /// The member record of a sandbox person in an organisation.
    func memberRecord(_ organisation: String, externalRef: String) async throws -> MemberRecord? {
        try await withStore { store in
            guard let id = try await store.organisation(slug: organisation)?.id else { return nil }
            return try await store.memberRecords(organisationID: id).first { $0.externalRef == externalRef }
        }
    }
}
