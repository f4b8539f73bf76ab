import Crypto
import Foundation
import PortvaktCore
import PortvaktModels

public protocol OrganisationBrandStore: Sendable {
    /// Sets `parts` (nil unsets one) and leaves the others as they are, in one transaction with
    /// `audit`: two operators changing different parts at once both keep theirs.
    /// - Returns: the brand as it is after the change.
    func updateOrganisationBrand(organisationID: String, parts: [BrandPart: String?], updatedAt: Int64, audit: AuditEvent) async throws -> OrganisationBrand
}

/// The operator's changes to an organisation's brand, each part checked by ``BrandRules`` and
/// the change audited (`organisation.brand_updated`) in the same transaction.
public struct OrganisationBranding: Sendable {
    let store: any OrganisationBrandStore
    let now: @Sendable () -> Date

    public init(store: any OrganisationBrandStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// Sets the parts in `changes`; an empty value unsets its part.
    /// - Throws: a ``BrandProblem`` for a part the rules refuse; nothing is changed then.
    public func update(organisationID: String, changes: [BrandPart: String]) async throws -> OrganisationBrand {
        let now = now()
        var parts: [BrandPart: String?] = [:]
        for (part, value) in changes { parts.updateValue(value.isEmpty ? nil : try Self.checked(part, value), forKey: part) }
        var details = ["changed": changes.keys.map(\.rawValue).sorted().joined(separator: ",")]
        if let accent = parts[.accentColour] { details["accent_colour"] = accent ?? "" }
        if let logo = parts[.logo] { details["logo_sha256"] = logo.map { SHA256.hash(data: Data($0.utf8)).hexEncoded() } ?? "" }
        return try await store.updateOrganisationBrand(organisationID: organisationID, parts: parts, updatedAt: now.millisecondsSince1970, audit: AuditEvent(
            occurredAt: now, action: .organisationBrandUpdated, outcome: "success", organisationID: UUID(uuidString: organisationID),
            subjectType: "organisation", subjectID: organisationID, source: "operator", details: details
        ))
    }

    /// Checks every part of `changes` by the brand rules, changing nothing.
    public static func check(_ changes: [BrandPart: String]) throws(BrandProblem) {
        for (part, value) in changes where !value.isEmpty { _ = try checked(part, value) }
    }

    static func checked(_ part: BrandPart, _ value: String) throws(BrandProblem) -> String {
        switch part {
        case .logo: return try BrandRules.logo(value)
        case .accentColour: return try BrandRules.accent(value)
        case .displayName: return try text(value, part, what: "The display name", limit: 200, lines: false)
        case .shortName: return try text(value, part, what: "The short name", limit: 32, lines: false)
        case .supportContact: return try text(value, part, what: "The support contact", limit: 200, lines: false)
        case .mailSignature: return try text(value, part, what: "The mail signature", limit: 500, lines: true)
        }
    }

    private static func text(_ value: String, _ part: BrandPart, what: String, limit: Int, lines: Bool) throws(BrandProblem) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        let bidi = trimmed.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }
        let controls = bidi || (lines ? trimmed.split(separator: "\n").contains { TextInput.hasControlCharacters(String($0)) } : TextInput.hasControlCharacters(trimmed))
        guard !trimmed.isEmpty, trimmed.count <= limit, !controls else {
            throw BrandProblem(field: part.rawValue, message: "\(what) must be 1 to \(limit) characters without control characters\(lines ? "" : " or line breaks").")
        }
        return trimmed
    }
}

/// What the pages and mail read of an organisation and its brand.
public protocol OrganisationBrandReadStore: Sendable {
    func organisation(slug: String) async throws -> Organisation?
    func organisation(id: String) async throws -> Organisation?
    func organisationBrand(organisationID: String) async throws -> OrganisationBrand?
}
