import Foundation
import Hummingbird
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// SCIM 2.0 for the member systems (RFC 7643, RFC 7644), at `/scim/v2`:
///
/// - `GET /ServiceProviderConfig`, `GET /ResourceTypes[/{id}]`, `GET /Schemas[/{id}]`: discovery;
/// - `POST /Users`: a new member record (201, `Location`, `ETag`);
/// - `GET /Users[?filter=…&startIndex=…&count=…]`: a ListResponse (``SCIMFilter``, ``SCIMPage``);
/// - `GET /Users/{id}`: one (304 for a matching `If-None-Match`);
/// - `PUT /Users/{id}` (``SCIMUserBody/replacement(_:of:)``), `PATCH /Users/{id}` (``SCIMPatch``):
///   `If-Match` honoured (412 for another version); `active: false` ends the membership;
/// - `DELETE /Users/{id}`: 204; the membership ends, then the record goes.
///
/// Every request carries a member system's token (`Authorization: Bearer`, ``SCIMTokens``),
/// bound to one organisation: it reads and writes that organisation's records only, and another
/// organisation's record is a 404 as an unknown id is. The routes are declared `.scim`, so every
/// failure answers in SCIM's error shape (``SCIMError``), never as the API's OAuth JSON; the token
/// is never logged.
struct SCIMRoutes {
    let directory: MemberDirectory
    let tokens: SCIMTokens
    let address: PublicAddress

    func register(on routes: DeclaredRoutes) {
        let base = SCIMDiscovery.base
        routes.get("\(base)/ServiceProviderConfig", .memberSystemToken, surface: .scim) { request, context in
            try await authenticated(request) { _ in SCIMResponse.json(SCIMDiscovery.serviceProviderConfig(baseURL: address.current), for: request) }
        }
        routes.get("\(base)/ResourceTypes", .memberSystemToken, surface: .scim) { request, context in
            try await authenticated(request) { _ in
                let types = SCIMDiscovery.resourceTypes(baseURL: address.current)
                return SCIMResponse.list(types, total: types.count, startIndex: 1, for: request)
            }
        }
        routes.get("\(base)/ResourceTypes/:id", .memberSystemToken, surface: .scim) { request, context in
            try await authenticated(request) { _ in
                guard let resourceType = SCIMDiscovery.resourceType(context.parameters.get("id") ?? "", baseURL: address.current) else {
                    throw SCIMError(status: .notFound, kind: nil, detail: "Portvakt serves one resource type: User.")
                }
                return SCIMResponse.json(resourceType, for: request)
            }
        }
        routes.get("\(base)/Schemas", .memberSystemToken, surface: .scim) { request, context in
            try await authenticated(request) { _ in
                let schemas = SCIMDiscovery.schemas(baseURL: address.current)
                return SCIMResponse.list(schemas, total: schemas.count, startIndex: 1, for: request)
            }
        }
        routes.get("\(base)/Schemas/:id", .memberSystemToken, surface: .scim) { request, context in
            try await authenticated(request) { _ in
                guard let schema = SCIMDiscovery.schema(context.parameters.get("id") ?? "", baseURL: address.current) else {
                    throw SCIMError(status: .notFound, kind: nil, detail: "Portvakt has two schemas: \(SCIMUser.schema) and \(SCIMUser.membershipSchema).")
                }
                return SCIMResponse.json(schema, for: request)
            }
        }
        routes.post("\(base)/Users", .memberSystemToken, surface: .scim) { request, context in
            try await authenticated(request) { caller in
                let body = try await SCIMBody.object(of: request)
                let entry = try SCIMUserBody.newEntry(body)
                let member = try await directory.create(entry, in: caller.organisationID, by: caller.actor)
                return SCIMResponse.user(member, status: .created, baseURL: address.current, for: request)
            }
        }
        routes.get("\(base)/Users", .memberSystemToken, surface: .scim) { request, context in
            try await authenticated(request) { caller in
                let query = try request.queryFields()
                let filter = try query["filter"].map { try SCIMFilter.parse($0) }
                let page = try SCIMPage(startIndex: query["startIndex"], count: query["count"])
                let found = try await directory.members(in: caller.organisationID, filter: filter, startIndex: page.startIndex, count: page.count)
                let resources = found.page.map { SCIMUser.resource($0, baseURL: address.current) }
                return SCIMResponse.list(resources, total: found.total, startIndex: page.startIndex, for: request)
            }
        }
        routes.get("\(base)/Users/:id", .memberSystemToken, surface: .scim) { request, context in
            try await authenticated(request) { caller in
                let id = try Self.id(context)
                guard let member = try await directory.member(id: id, in: caller.organisationID) else { throw SCIMError.notFound }
                if SCIMVersion.condition(request.headers[.ifNoneMatch])?.matches(member.version) == true { return SCIMResponse.notModified(member) }
                return SCIMResponse.user(member, baseURL: address.current, for: request)
            }
        }
        routes.put("\(base)/Users/:id", .memberSystemToken, surface: .scim) { request, context in
            try await authenticated(request) { caller in
                let id = try Self.id(context)
                let body = try await SCIMBody.object(of: request)
                let member = try await update(id, by: caller, ifMatch: request) { try SCIMUserBody.replacement(body, of: $0) }
                return SCIMResponse.user(member, baseURL: address.current, for: request)
            }
        }
        routes.patch("\(base)/Users/:id", .memberSystemToken, surface: .scim) { request, context in
            try await authenticated(request) { caller in
                let id = try Self.id(context)
                let body = try await SCIMBody.object(of: request)
                let patch = try SCIMPatch(body)
                let member = try await update(id, by: caller, ifMatch: request) { current in
                    var entry = current
                    try patch.apply(to: &entry)
                    return entry
                }
                return SCIMResponse.user(member, baseURL: address.current, for: request)
            }
        }
        routes.delete("\(base)/Users/:id", .memberSystemToken, surface: .scim) { request, context in
            try await authenticated(request) { caller in
                let id = try Self.id(context)
                var version: Int?
                if let condition = SCIMVersion.condition(request.headers[.ifMatch]) {
                    guard let member = try await directory.member(id: id, in: caller.organisationID) else { throw SCIMError.notFound }
                    try condition.require(member.version)
                    version = member.version
                }
                try await directory.delete(id: id, ifVersion: version, in: caller.organisationID, by: caller.actor)
                return SCIMResponse.noContent
            }
        }
    }

    /// Reads the member, works out its new entry with `change`, and writes it if anything
    /// changed. With `If-Match` the version must match (412); without one, a change made by
    /// someone else in between is read again and `change` applied to it (three tries).
    private func update(
        _ id: String, by caller: SCIMCaller, ifMatch request: Request, _ change: (MemberEntry) throws -> MemberEntry
    ) async throws -> DirectoryMember {
        let condition = SCIMVersion.condition(request.headers[.ifMatch])
        for attempt in 1...3 {
            guard let member = try await directory.member(id: id, in: caller.organisationID) else { throw SCIMError.notFound }
            try condition?.require(member.version)
            let entry = try change(member.entry)
            if entry == member.entry { return member }
            do {
                return try await directory.replace(id: id, with: entry, ifVersion: member.version, in: caller.organisationID, by: caller.actor)
            } catch let refusal as DirectoryError where refusal.kind == .versionMismatch && condition == nil && attempt < 3 {
                continue
            }
        }
        throw SCIMError(status: .preconditionFailed, kind: nil, detail: "The user kept changing while Portvakt wrote it; read it again and repeat the change.")
    }

    /// Runs `body` for the member system whose token `request` carries. A failure is answered in
    /// SCIM's shape by the surface these routes declare (``ErrorAnswerMiddleware``, and
    /// ``UnexpectedErrorMiddleware`` for a database that did not answer or anything else).
    private func authenticated(_ request: Request, _ body: (SCIMCaller) async throws -> Response) async throws -> Response {
        try await body(caller(of: request))
    }

    /// The member system whose token the request carries; 401 for none, an unknown or a revoked one.
    private func caller(of request: Request) async throws -> SCIMCaller {
        // A token is short ASCII; anything else is no token, and costs no database lookup.
        guard let token = request.bearerToken, token.utf8.count <= 256, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
              let verified = try await tokens.verify(token)
        else { throw SCIMError.unauthorized }
        return SCIMCaller(organisationID: verified.organisationID, actor: .memberSystem(tokenID: verified.tokenID, name: verified.name))
    }

    /// The path's record id; one no record can have is a 404 at once.
    private static func id(_ context: PortvaktRequestContext) throws -> String {
        guard let id = context.parameters.get("id"), !id.isEmpty, id.utf8.count <= 128 else { throw SCIMError.notFound }
        return id
    }
}

/// A member system, as its token names it: the organisation it may reach and who it is in the audit trail.
struct SCIMCaller: Sendable {
    let organisationID: String
    let actor: DirectoryActor
}
