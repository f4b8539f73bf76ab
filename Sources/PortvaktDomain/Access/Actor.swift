import Foundation
import PortvaktCore
import PortvaktModels

/// Who is acting, whichever surface they came through: the user, the session they act in, the
/// organisations and roles the database holds for them now, and the step-up the access token
/// carries (nil in the portal).
public struct Actor: Sendable {
    public let session: Session
    public let organisations: [OrganisationRoles]
    public let stepUp: StepUpGrant?
    /// The organisations (slugs) whose administrators' actions need BankID's high level of
    /// assurance, not only a fresh BankID or Vipps login.
    public let highAssuranceOrganisations: Set<String>

    public var userID: String { session.userId }

    public init(session: Session, organisations: [OrganisationRoles], stepUp: StepUpGrant? = nil, highAssuranceOrganisations: Set<String> = []) {
        self.session = session
        self.organisations = organisations
        self.stepUp = stepUp
        self.highAssuranceOrganisations = highAssuranceOrganisations
    }

    /// The actor's roles in the organisation with `slug`.
    /// - Throws: ``DomainError/notAllowed`` when they are not a member there.
    public func organisation(_ slug: String) throws(DomainError) -> OrganisationRoles {
        guard let organisation = organisations.first(where: { $0.slug == slug }) else { throw .notAllowed }
        return organisation
    }

    /// Whether the actor's session meets `action`'s step-up now. An administrator's action asks
    /// for the high level when any organisation where the actor may take it asks for it.
    public func satisfies(_ action: SensitiveAction, at now: Date) -> Bool {
        let high = Self.asksHighAssurance(action, organisations: organisations, highAssuranceOrganisations: highAssuranceOrganisations)
        return ActionPolicy.of(action).isSatisfied(for: action, session: session, stepUp: stepUp, highAssurance: high, at: now)
    }

    /// Whether `action` needs BankID's high level from a person with `organisations`: when any
    /// organisation where they may take it asks for it.
    public static func asksHighAssurance(_ action: SensitiveAction, organisations: [OrganisationRoles], highAssuranceOrganisations: Set<String>) -> Bool {
        let roles = ActionPolicy.of(action).roles
        return !roles.isEmpty && organisations.contains { organisation in
            highAssuranceOrganisations.contains(organisation.slug) && organisation.roles.contains(where: roles.contains)
        }
    }

    /// Whether the actor holds one of `action`'s roles in `organisation` (any member when the
    /// policy names none).
    public func mayTake(_ action: SensitiveAction, in organisation: OrganisationRoles) -> Bool {
        let roles = ActionPolicy.of(action).roles
        return roles.isEmpty || holds(roles, in: organisation)
    }

    /// Whether the actor holds one of `roles` in `organisation`, as the actor's own record holds
    /// them (not as the caller passed them).
    public func holds(_ roles: Set<Role>, in organisation: OrganisationRoles) -> Bool {
        organisations.contains { $0.organisationID == organisation.organisationID && $0.roles.contains(where: roles.contains) }
    }

    /// - Throws: ``DomainError/notAllowed`` unless the actor holds one of `roles` in `organisation`.
    public func require(_ roles: Set<Role>, in organisation: OrganisationRoles) throws(DomainError) {
        guard holds(roles, in: organisation) else { throw .notAllowed }
    }

    /// Checks `action`'s whole policy: the role first (so nothing is told to a stranger), then the step-up.
    /// - Throws: ``DomainError/notAllowed`` or ``DomainError/stepUpRequired(_:)``.
    public func authorize(_ action: SensitiveAction, in organisation: OrganisationRoles, at now: Date) throws(DomainError) {
        guard mayTake(action, in: organisation) else { throw .notAllowed }
        guard satisfies(action, at: now) else { throw .stepUpRequired(action) }
    }
}

extension Actor {
    /// The rows of `organisation` this actor may see: a peer mentor their own, a coordinator or
    /// administrator the organisation's; nobody another organisation's.
    public func scope(in organisation: OrganisationRoles) -> RowScope {
        organisation.roles.contains(where: { $0 != .peerMentor })
            ? .organisation(organisation.organisationID)
            : .own(userID: userID, organisationID: organisation.organisationID)
    }

    /// Whether the actor may see a row of `organisationID` that belongs to `owner`.
    public func maySee(organisationID: String, owner: String?) -> Bool {
        guard let organisation = organisations.first(where: { $0.organisationID == organisationID }) else { return false }
        return organisation.roles.contains(where: { $0 != .peerMentor }) || owner == userID
    }

    /// What `fetch` finds in every organisation of the actor (or only in `slug`'s), each within
    /// the rows the actor may see there.
    /// - Throws: ``DomainError/notAllowed`` for an organisation the actor is not a member of.
    public func visibleRows<Row>(in slug: String?, _ fetch: (OrganisationRoles, RowScope) async throws -> [Row]) async throws -> [Row] {
        let chosen = try slug.map { slug throws(DomainError) in [try organisation(slug)] } ?? organisations
        var rows: [Row] = []
        for organisation in chosen {
            rows += try await fetch(organisation, scope(in: organisation))
        }
        return rows
    }
}
