import Foundation
import Hummingbird
import PortvaktCore

/// `/admin/{slug}`: what needs an administrator's action, each count a link to the list behind it.
struct OverviewPage {
    let admin: AdminRequest

    func response() async throws -> Response {
        let counts = try await admin.services.store.attention(organisationID: admin.organisationID)
        let language = admin.language
        let items: [[String: Any]] = [
            ["count": counts.openConflicts, "label": AdminText.openConflicts.text(language), "href": admin.base + "/sync?outcome=conflict&status=open"],
            ["count": counts.deadDeliveries, "label": AdminText.deadDeliveries.text(language), "href": admin.base + "/deliveries?status=dead"],
            ["count": counts.membersWithoutPersonnummer, "label": AdminText.withoutPersonnummer.text(language), "href": admin.base + "/members?filter=no-personnummer"],
            ["count": counts.membersWithDevices, "label": AdminText.withDevices.text(language), "href": admin.base + "/members?filter=devices"],
        ]
        return admin.page("admin_overview", section: .overview, values: ["counts": items])
    }
}
