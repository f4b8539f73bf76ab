import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP

/// `/admin/{slug}`: what needs an administrator's action, each count a link to the list behind it.
struct OverviewPage {
    let admin: AdminRequest

    func response() async throws -> Response {
        let counts = try await admin.services.store.attention(organisationID: admin.organisationID)
        let language = admin.language
        let items = [
            OverviewView.Count(count: counts.openConflicts, label: AdminText.openConflicts.text(language), href: admin.base + "/sync?outcome=conflict&status=open"),
            OverviewView.Count(count: counts.deadDeliveries, label: AdminText.deadDeliveries.text(language), href: admin.base + "/deliveries?status=dead"),
            OverviewView.Count(
                count: counts.membersWithoutPersonnummer, label: AdminText.withoutPersonnummer.text(language), href: admin.base + "/members?filter=no-personnummer"
            ),
            OverviewView.Count(count: counts.membersWithDevices, label: AdminText.withDevices.text(language), href: admin.base + "/members?filter=devices"),
        ]
        return admin.page("admin_overview", section: .overview, values: OverviewView(counts: items))
    }
}

/// What `admin_overview` reads.
struct OverviewView: PageValues {
    let counts: [Count]

    /// A number that needs an administrator's action, linking to the list behind it.
    struct Count: PageValues {
        let count: Int
        let label: String
        let href: String
    }
}
