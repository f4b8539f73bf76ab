import Foundation
import PortvaktHTTP
import PortvaktModels
import PortvaktProtocol
import Testing

/// Issue 48 item 3: the `/v1` wire types the server, the Kit and the CLI share, and
/// `openapi.json`, describe the same bodies.
@Suite("OpenAPI document and the /v1 wire types")
struct OpenAPIWireTypeTests {
    static let documentFile = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "../../../Sources/PortvaktServer/Resources/openapi.json").standardized

    @Test("Issue 48: each /v1 wire type, every field set, encodes exactly the properties openapi.json lists for its request or response; with its optionals nil, exactly the required ones")
    func wireTypesMatchTheDocument() throws {
        let document = try OpenAPIDocumentReader(Data(contentsOf: Self.documentFile))
        let samples = try WireSample.all()
        #expect(samples.count >= 20)
        for sample in samples {
            let schema = try #require(document.schema(at: sample.place), "\(sample.name): openapi.json has no JSON schema for \(sample.place)")
            let full = document.mismatches(try JSONSerialization.jsonObject(with: sample.full), schema, at: sample.name, fullySet: true)
            #expect(full.isEmpty, "\(sample.name) against \(sample.place), every field set: \(full.joined(separator: "; "))")
            let sparse = document.mismatches(try JSONSerialization.jsonObject(with: sample.sparse), schema, at: sample.name, fullySet: false)
            #expect(sparse.isEmpty, "\(sample.name) against \(sample.place), optionals nil: \(sparse.joined(separator: "; "))")
            // The server writes with its snake_case encoder, the Kit and the CLI with a plain one: the same keys either way.
            #expect(try Responses.snakeCaseEncoder.encode(sample.value) == sample.full, "\(sample.name): the server's encoder writes other keys")
        }
    }
}

/// Where a body's schema sits in openapi.json.
enum SchemaPlace: CustomStringConvertible {
    case request(String, method: String)
    case response(String, method: String, status: String)

    var description: String {
        switch self {
        case .request(let path, let method): "the request body of \(method.uppercased()) \(path)"
        case .response(let path, let method, let status): "the \(status) answer of \(method.uppercased()) \(path)"
        }
    }
}

/// A wire type encoded twice: with every field set, and with every optional nil.
struct WireSample {
    let name: String
    let place: SchemaPlace
    let value: any Encodable
    let full: Data
    let sparse: Data

    init<Wire: Encodable>(_ place: SchemaPlace, full: Wire, sparse: Wire) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        name = String(describing: Wire.self)
        self.place = place
        value = full
        self.full = try encoder.encode(full)
        self.sparse = try encoder.encode(sparse)
    }

    static func all() throws -> [WireSample] {
        let user = MeResponse.User(id: "u1", name: "Kari Nordmann", email: "kari@example.no")
        let organisation = MeResponse.Organisation(id: "o1", slug: "nhf", name: "Norges Handikapforbund", roles: ["peer_mentor"])
        let notice = MeResponse.Notice(messageID: "personnummer_not_retrieved", message: "…")
        let me = MeResponse(
            user: user, organisations: [organisation], homeScreen: "peer_mentor_activities",
            session: .init(amr: ["hwk", "fpt"], authTime: 1_800_000_000, deviceId: "d1"), notices: [notice],
            brand: .init(slug: "hlf", name: "Hørselshemmedes Landsforbund", shortName: "HLF", logoURI: "https://portvakt.example/brands/hlf/logo.svg?v=1", accentColour: "#7a1f5c", supportContact: "post@hlf.no")
        )
        let bareMe = MeResponse(
            user: .init(id: "u1", name: "Kari Nordmann", email: nil), organisations: [organisation], homeScreen: "peer_mentor_activities",
            session: .init(amr: ["bankid"], authTime: 1_800_000_000, deviceId: nil), notices: [notice]
        )
        let device = DeviceInfo(id: "d1", name: "Phone", platform: "ios", biometricKind: "face", createdAt: "2026-01-01T00:00:00Z", lastUsedAt: "2026-01-02T00:00:00Z", current: true, assurance: .electronicID)
        let newDevice = DeviceInfo(id: "d1", name: "Phone", platform: "ios", biometricKind: "face", createdAt: "2026-01-01T00:00:00Z", lastUsedAt: nil, current: false, assurance: nil)
        let registration = DeviceRegistration(name: "Phone", platform: "ios", biometricKind: "face", publicKey: ["kty": "EC", "crv": "P-256", "x": "x", "y": "y"])
        let issued = DeviceChallengeIssued(
            challenge: "c", deviceId: "d1", purpose: "step-up", action: "contacts.read", audience: "a", expiresAt: "2026-01-01T00:01:00Z", expiresIn: 60
        )
        let unlockIssued = DeviceChallengeIssued(challenge: "c", deviceId: "d1", purpose: "unlock", action: nil, audience: "a", expiresAt: "2026-01-01T00:01:00Z", expiresIn: 60)
        let elevated = StepUpResponse(accessToken: "t", tokenType: "DPoP", expiresIn: 120, action: "contacts.read")
        let activity = ActivityInfo(
            id: "a1", organisation: "nhf", userId: "u1", kind: "visit", occurredAt: "2026-01-01T10:00:00Z", durationMinutes: 45,
            note: "n", contactId: "c1", createdAt: "2026-01-01T10:05:00Z"
        )
        let bareActivity = ActivityInfo(
            id: "a1", organisation: "nhf", userId: "u1", kind: "visit", occurredAt: "2026-01-01T10:00:00Z", durationMinutes: 45,
            note: nil, contactId: nil, createdAt: "2026-01-01T10:05:00Z"
        )
        let details = ContactDetails(phone: "p", address: "a", note: "n")
        let noDetails = ContactDetails(phone: nil, address: nil, note: nil)
        let contact = ContactInfo(id: "c1", organisation: "nhf", displayName: "Ola", assignedTo: "u1", details: details)
        let bareContact = ContactInfo(id: "c1", organisation: "nhf", displayName: "Ola", assignedTo: nil, details: nil)
        let expense = ExpenseInfo(id: "e1", organisation: "nhf", userId: "u1", amountOre: 12_300, description: "taxi", createdAt: "2026-01-01T10:05:00Z")
        let newExpense = NewExpense(organisation: "nhf", amountOre: 12_300, description: "taxi")
        return [
            try WireSample(.response("/v1/me", method: "get", status: "200"), full: me, sparse: bareMe),
            try WireSample(.response("/v1/devices", method: "get", status: "200"), full: DeviceList(devices: [device]), sparse: DeviceList(devices: [newDevice])),
            try WireSample(.request("/v1/devices", method: "post"), full: registration, sparse: registration),
            try WireSample(.response("/v1/devices", method: "post", status: "201"), full: device, sparse: newDevice),
            try WireSample(.response("/v1/devices/{id}/raise", method: "post", status: "200"), full: device, sparse: newDevice),
            try WireSample(
                .request("/v1/devices/{id}/challenges", method: "post"),
                full: DeviceChallengeRequest(purpose: "step-up", action: "contacts.read"), sparse: DeviceChallengeRequest(purpose: "unlock")
            ),
            try WireSample(.response("/v1/devices/{id}/challenges", method: "post", status: "201"), full: issued, sparse: unlockIssued),
            try WireSample(.request("/v1/step-up", method: "post"), full: StepUpRequest(assertion: "jws"), sparse: StepUpRequest(assertion: "jws")),
            try WireSample(.response("/v1/step-up", method: "post", status: "200"), full: elevated, sparse: elevated),
            try WireSample(
                .request("/v1/step-up/password", method: "post"),
                full: PasswordStepUpRequest(action: .contactsRead, password: "p"), sparse: PasswordStepUpRequest(action: .expensesSubmit, password: "p")
            ),
            try WireSample(.response("/v1/step-up/password", method: "post", status: "200"), full: elevated, sparse: elevated),
            try WireSample(
                .response("/v1/activities", method: "get", status: "200"),
                full: ActivityList(activities: [activity]), sparse: ActivityList(activities: [bareActivity])
            ),
            try WireSample(
                .request("/v1/activities", method: "post"),
                full: NewActivity(organisation: "nhf", kind: "visit", occurredAt: "2026-01-01T10:00:00Z", durationMinutes: 45, note: "n", contactId: "c1"),
                sparse: NewActivity(organisation: "nhf", kind: "visit", occurredAt: "2026-01-01T10:00:00Z", durationMinutes: 45, note: nil)
            ),
            try WireSample(.response("/v1/activities", method: "post", status: "201"), full: activity, sparse: bareActivity),
            try WireSample(.response("/v1/contacts", method: "get", status: "200"), full: ContactList(contacts: [contact]), sparse: ContactList(contacts: [bareContact])),
            try WireSample(
                .request("/v1/contacts", method: "post"),
                full: NewContact(organisation: "nhf", displayName: "Ola", assignedTo: "u1", details: details),
                sparse: NewContact(organisation: "nhf", displayName: "Ola", assignedTo: nil, details: noDetails)
            ),
            try WireSample(.response("/v1/contacts", method: "post", status: "201"), full: contact, sparse: bareContact),
            try WireSample(.response("/v1/contacts/{id}", method: "get", status: "200"), full: contact, sparse: bareContact),
            try WireSample(.response("/v1/expenses", method: "get", status: "200"), full: ExpenseList(expenses: [expense]), sparse: ExpenseList(expenses: [expense])),
            try WireSample(.request("/v1/expenses", method: "post"), full: newExpense, sparse: newExpense),
            try WireSample(.response("/v1/expenses", method: "post", status: "201"), full: expense, sparse: expense),
        ]
    }
}

/// openapi.json read as plain JSON: the schemas of bodies, `$ref`s followed.
struct OpenAPIDocumentReader {
    let root: [String: Any]

    init(_ data: Data) throws {
        root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func schema(at place: SchemaPlace) -> [String: Any]? {
        let content: Any?
        switch place {
        case .request(let path, let method):
            content = (operation(path, method)?["requestBody"] as? [String: Any])?["content"]
        case .response(let path, let method, let status):
            content = ((operation(path, method)?["responses"] as? [String: Any])?[status] as? [String: Any])?["content"]
        }
        return ((content as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
    }

    private func operation(_ path: String, _ method: String) -> [String: Any]? {
        ((root["paths"] as? [String: Any])?[path] as? [String: Any])?[method] as? [String: Any]
    }

    /// `schema`, or the component its `$ref` names.
    func resolved(_ schema: [String: Any]) -> [String: Any] {
        guard let reference = schema["$ref"] as? String else { return schema }
        let components = (root["components"] as? [String: Any])?["schemas"] as? [String: Any]
        return (components?[String(reference.split(separator: "/").last ?? "")] as? [String: Any]).map { resolved($0) } ?? [:]
    }

    /// How the decoded JSON `value` differs from `schema`, object by object through arrays and
    /// nested objects: fully set, its keys are the schema's `properties`; with its optionals nil,
    /// the schema's `required` (where it says).
    func mismatches(_ value: Any, _ schema: [String: Any], at path: String, fullySet: Bool) -> [String] {
        let schema = resolved(schema)
        if let array = value as? [Any] {
            let items = schema["items"] as? [String: Any] ?? [:]
            return array.flatMap { mismatches($0, items, at: path + "[]", fullySet: fullySet) }
        }
        guard let object = value as? [String: Any] else { return [] }
        let properties = schema["properties"] as? [String: Any] ?? [:]
        let encoded = Set(object.keys)
        var found: [String] = []
        if fullySet {
            let listed = Set(properties.keys)
            let extra = encoded.subtracting(listed), missing = listed.subtracting(encoded)
            if !extra.isEmpty { found.append("\(path) encodes \(extra.sorted()), which the schema does not list") }
            if !missing.isEmpty { found.append("\(path) never encodes \(missing.sorted()), which the schema lists") }
        } else if let requiredList = schema["required"] as? [String] {
            let required = Set(requiredList)
            let optional = encoded.subtracting(required), missing = required.subtracting(encoded)
            if !missing.isEmpty { found.append("\(path) may leave out \(missing.sorted()), which the schema requires") }
            if !optional.isEmpty { found.append("\(path) always encodes \(optional.sorted()), which the schema does not require") }
        }
        for (key, member) in object {
            if let inner = properties[key] as? [String: Any] {
                found += mismatches(member, inner, at: path + "." + key, fullySet: fullySet)
            }
        }
        return found
    }
}
