import Foundation
import Personnummer
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// Keys, a clock, people and sessions for the domain's tests.
struct Fixtures {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let nhf = OrganisationRoles(organisationID: "org-nhf", slug: "nhf", roles: [.orgAdmin])
    static let hlf = OrganisationRoles(organisationID: "org-hlf", slug: "hlf", roles: [.orgAdmin])

    let keys: DataProtectionKeys

    init() throws {
        let text = DataProtectionKeys.generateText()
        keys = try DataProtectionKeys(encryptionKeys: text.encryptionKeys, indexKey: text.indexKey, encryptionSetting: "keys", indexSetting: "index")
    }

    /// A session of `userID` opened `age` seconds ago by `method`.
    static func session(_ userID: String, _ method: Method, age: TimeInterval = 0) -> Session {
        let (amr, acr, device): ([String], String, String?) = switch method {
        case .bankID: (["ext", "bankid"], "urn:bankid:loa:high", nil)
        case .password: (["pwd"], "urn:portvakt:acr:password", nil)
        case .deviceKey: (["hwk", "face"], Authentication.deviceACR, "device-1")
        case .passkey: (Authentication.passkeyAMR(synced: false), Authentication.passkeyACR, nil)
        case .syncedPasskey: (Authentication.passkeyAMR(synced: true), Authentication.passkeyACR, nil)
        }
        return Session.starting(
            userID: userID, clientID: "no.portvakt.app", deviceID: device, amr: amr, acr: acr, authTime: now.addingTimeInterval(-age),
            idleLifetime: 3600, absoluteLifetime: 86_400, now: now.addingTimeInterval(-age)
        )
    }

    /// `passkey` is a device-bound one; `syncedPasskey` one that may be synced (backup eligible).
    enum Method { case bankID, password, deviceKey, passkey, syncedPasskey }

    /// `stepUp` is the access token's `step_up` claim, proved as `stepUpACR` says (a device key by default).
    static func actor(
        _ userID: String, _ method: Method, age: TimeInterval = 0, roles: [OrganisationRoles] = [nhf], stepUp: String? = nil,
        stepUpACR: String = Authentication.stepUpACR
    ) -> Actor {
        Actor(session: session(userID, method, age: age), organisations: roles, stepUp: StepUpGrant(claim: stepUp, acr: stepUpACR))
    }

    func protect(_ digits: String, record: String) throws -> ProtectedPersonnummer {
        try keys.vault.protect(try Personnummer(digits), record: record)
    }
}
