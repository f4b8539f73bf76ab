import PortvaktHTTP
import PortvaktModels

/// What every administration page reads around its own values (``AdminRequest/page(_:section:values:status:)``):
/// the organisation, the navigation (`admin_nav`) and the step-up links (`step_up_links`).
struct AdministrationValues: PageValues {
    let org: Organisation
    /// The section shown, for the navigation's `aria-current`.
    let here: Sections
    /// `/admin/{slug}`.
    let base: String
    /// Where a step-up comes back to, form-encoded; a page of its own may name another.
    let stepUpBack: String
    let passkeyStepUp: Bool

    struct Organisation: PageValues {
        let slug: String
        let name: String
        /// The reader administers it (a coordinator sees the member list only).
        let admin: Bool
    }

    /// One flag per section, the shown one set.
    struct Sections: PageValues {
        let overview: Bool
        let members: Bool
        let sync: Bool
        let deliveries: Bool
        let merge: Bool
        let audit: Bool

        init(_ section: AdminSection) {
            overview = section == .overview
            members = section == .members
            sync = section == .sync
            deliveries = section == .deliveries
            merge = section == .merge
            audit = section == .audit
        }
    }
}

/// One choice of a list's filter (`<option>`): the kinds, members, outcomes and statuses.
struct AdminOption: PageValues {
    let value: String
    let label: String
    let selected: Bool
}

/// What `admin_paging` reads (`paging`): where the list is, and the pages either side.
struct PagingLinks: PageValues {
    let pageText: String
    /// nil on the first page.
    let previous: String?
    /// nil on the last page.
    let next: String?
}

/// What `admin_step_up` reads: nothing changed, confirm who you are, and come back to `back`.
struct AdminStepUpView: PageValues {
    let back: String
    /// `back`, form-encoded: it replaces the administration's (a form's answer would come back to the overview).
    let stepUpBack: String
}
