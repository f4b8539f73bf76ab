import Foundation
import PortvaktCore
import PortvaktModels

/// Initial loads and nightly files (issue 45 item 3, S22.1).
extension MemberDirectory {
    /// Checks every entry and compares them with the organisation's records by external id:
    /// what would be added, changed (only real differences) and, with `removeMissing`, ended.
    /// Writes nothing.
    ///
    /// A line is refused for an invalid value (personnummer, email, phone, …), an external id
    /// that an earlier line has, or a user name or personnummer that another record would have
    /// once the file is applied (a file may move them between its own records).
    /// - Parameter entries: the file's entries with their line numbers.
    public func plan(_ entries: [(line: Int, entry: MemberEntry)], in organisationID: String, removeMissing: Bool) async throws -> ImportPlan {
        let records = try await store.memberRecords(organisationID: organisationID)
        var byExternalID: [String: MemberRecord] = [:]
        for record in records {
            if let reference = record.externalRef { byExternalID[reference] = record }
        }
        var errors: [ImportPlan.LineError] = []
        var mentioned = Set<String>()
        var firstLine: [String: Int] = [:]
        var checked: [(line: Int, entry: ValidEntry)] = []
        for (line, entry) in entries {
            let externalID = entry.externalID.trimmingCharacters(in: .whitespaces)
            mentioned.insert(externalID)
            if !externalID.isEmpty, let first = firstLine[externalID] {
                errors.append(.init(line: line, reason: "externalId: \(externalID) is on line \(first) too"))
                continue
            }
            firstLine[externalID] = line
            do {
                let valid = try entry.validated(context: personnummerContext)
                checked.append((line, valid))
            } catch {
                errors.append(.init(line: line, reason: String(describing: error)))
            }
        }

        // Who holds each user name and number once the file is applied: the records the file
        // leaves alone keep theirs (ended ones too: the unique indexes count them), the file's
        // lines take theirs.
        var userNames: [String: String] = [:]
        var numbers: [String: String] = [:]
        for record in records where !mentioned.contains(record.externalRef ?? "") {
            let holder = "the member with externalId \(record.externalRef ?? record.id)"
            if let name = record.userName { userNames[name.lowercased()] = holder }
            if let index = record.personnummer?.index { numbers[index] = holder }
        }
        var additions: [ValidEntry] = []
        var changes: [PlannedChange] = []
        for (line, entry) in checked {
            let before = byExternalID[entry.externalID]
            var number: String? = before?.personnummer?.index
            switch entry.personnummer {
            case .keep: break
            case .remove: number = nil
            case .set(let personnummer): number = vault.blindIndex(personnummer)
            }
            let userName = entry.values.userName?.lowercased() ?? ""
            if let holder = userNames[userName] {
                errors.append(.init(line: line, reason: "userName: \(entry.values.userName ?? "") is taken by \(holder)"))
                continue
            }
            if let number, let holder = numbers[number] {
                errors.append(.init(line: line, reason: "personnummer: the number is already on \(holder)"))
                continue
            }
            userNames[userName] = "line \(line)"
            if let number { numbers[number] = "line \(line)" }
            if let before {
                if let change = PlannedChange(before: before, to: entry, blindIndex: vault.blindIndex) { changes.append(change) }
            } else {
                additions.append(entry)
            }
        }
        let removals = removeMissing ? records.filter { $0.isActive && !mentioned.contains($0.externalRef ?? "") } : []
        return ImportPlan(organisationID: organisationID, additions: additions, changes: changes, removals: removals, errors: errors.sorted { $0.line < $1.line })
    }

    /// Writes a plan without errors in one transaction, or nothing: the additions (their numbers
    /// sealed now), the changes (each only while its record is as the plan read it) and the
    /// removals (the membership ends; the record is kept). Audited: one `member.directory.imported`
    /// event with the counts, one event per changed or ended record and per added administrator
    /// or coordinator.
    /// - Throws: ``DirectoryError``: `invalidValue` for a plan with errors or of another
    ///   organisation; `versionMismatch` when a record changed since the plan (make it again);
    ///   `uniqueness` when another writer took a value of the file meanwhile.
    public func apply(_ plan: ImportPlan, in organisationID: String, by actor: DirectoryActor) async throws {
        guard plan.organisationID == organisationID else {
            throw DirectoryError(.invalidValue, reason: "the plan was made for another organisation")
        }
        guard plan.errors.isEmpty else {
            throw DirectoryError(.invalidValue, reason: "the file has \(plan.errors.count) bad \(plan.errors.count == 1 ? "line" : "lines"); nothing was written")
        }
        guard !plan.isEmpty else { return }
        let now = now()
        let additions = try plan.plannedAdditions.map { try newRecord($0, in: organisationID, now: now) }
        var changes: [MemberRecordChange] = []
        changes.reserveCapacity(plan.plannedChanges.count + plan.plannedRemovals.count)
        var events: [AuditEvent] = []
        for planned in plan.plannedChanges {
            var sealed: ProtectedPersonnummer?
            if case .set(let number) = planned.personnummer {
                sealed = try vault.protect(number, record: MemberRecord.personnummerContext(recordID: planned.before.id))
            }
            changes.append(MemberRecordChange(before: planned.before, values: planned.entry.values, personnummer: planned.write(sealed: sealed)))
            events += changeEvents(planned, actor: actor, at: now)
        }
        for before in plan.plannedRemovals {
            var values = before.values
            values.active = false
            changes.append(MemberRecordChange(before: before, values: values, personnummer: .keep))
            events.append(recordEvent(.memberDirectoryEnded, record: before, actor: actor, at: now, details: ["fields": "active", "removed_from_file": "true"]))
        }
        for record in additions where record.role != .peerMentor {
            events.append(recordEvent(.memberDirectoryCreated, record: record, actor: actor, at: now, details: ["role": record.role.rawValue]))
        }
        events.append(AuditEvent(
            occurredAt: now, action: .memberDirectoryImported, outcome: "success", organisationID: UUID(uuidString: organisationID),
            subjectType: "organisation", subjectID: organisationID, source: actor.source,
            details: actor.details.merging([
                "added": "\(additions.count)", "changed": "\(plan.plannedChanges.count)", "removed": "\(plan.plannedRemovals.count)",
            ]) { _, own in own }
        ))
        do {
            try await write(adding: additions, changing: changes, in: organisationID, by: actor, events: events, now: now)
        } catch let error as StoreError where error.isNotFound {
            throw DirectoryError(.versionMismatch, reason: "member records changed since the plan was made; nothing was written; make the plan again")
        }
        logger.notice("Member import applied", metadata: [
            "organisation": "\(organisationID)", "actor": "\(actor.kind)", "added": "\(additions.count)",
            "changed": "\(plan.plannedChanges.count)", "removed": "\(plan.plannedRemovals.count)",
        ])
    }
}
