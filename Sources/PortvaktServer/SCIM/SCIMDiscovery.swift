import Foundation
import PortvaktHTTP

/// What a SCIM client discovers about Portvakt (RFC 7644 §4): the ServiceProviderConfig, the one
/// ResourceType (User, with the membership extension) and the two Schemas, with the
/// personnummer `writeOnly` and `returned: never`. Written once, in `Resources/scim-discovery.json`;
/// each answer adds its `meta` with the server's public address.
enum SCIMDiscovery {
    static let base = "/scim/v2"

    private static let document: [String: JSONValue] = {
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(PackageResources.scim_discovery_json)) else { return [:] }
        return object
    }()

    static func serviceProviderConfig(baseURL: String) -> JSONValue {
        described(document["serviceProviderConfig"] ?? .object([:]), as: "ServiceProviderConfig", at: baseURL + base + "/ServiceProviderConfig")
    }

    static func resourceTypes(baseURL: String) -> [JSONValue] {
        listed("resourceTypes").map { described($0, as: "ResourceType", at: baseURL + base + "/ResourceTypes/" + id(of: $0)) }
    }

    static func schemas(baseURL: String) -> [JSONValue] {
        listed("schemas").map { described($0, as: "Schema", at: baseURL + base + "/Schemas/" + id(of: $0)) }
    }

    /// One resource type or schema by its id (a schema's is its URN, compared without regard to case).
    static func resourceType(_ id: String, baseURL: String) -> JSONValue? {
        resourceTypes(baseURL: baseURL).first { Self.id(of: $0).lowercased() == id.lowercased() }
    }

    static func schema(_ id: String, baseURL: String) -> JSONValue? {
        schemas(baseURL: baseURL).first { Self.id(of: $0).lowercased() == id.lowercased() }
    }

    private static func listed(_ key: String) -> [JSONValue] {
        guard case .array(let items)? = document[key] else { return [] }
        return items
    }

    private static func id(of value: JSONValue) -> String {
        guard case .object(let object) = value else { return "" }
        return object["id"]?.stringValue ?? ""
    }

    private static func described(_ value: JSONValue, as resourceType: String, at location: String) -> JSONValue {
        guard case .object(var object) = value else { return value }
        object["meta"] = .object(["resourceType": .string(resourceType), "location": .string(location)])
        return .object(object)
    }
}
