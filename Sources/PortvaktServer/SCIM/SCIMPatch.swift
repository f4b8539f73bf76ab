import Foundation
import PortvaktDomain
import PortvaktHTTP

/// A PATCH request (RFC 7644 §3.5.2): `{"schemas": [PatchOp], "Operations": [{"op": "add" |
/// "replace" | "remove", "path": …, "value": …}]}`, op names in any case. `add` and `replace`
/// without a path take an object of attributes; with one they set the attribute it names (for
/// Portvakt's single email and phone, `add` sets it too). `remove` needs a path (`noTarget`).
/// Read whole before anything is applied, and applied whole or not at all: one bad operation
/// and nothing is written.
struct SCIMPatch: Sendable {
    static let schema = "urn:ietf:params:scim:api:messages:2.0:PatchOp"

    enum Operation: Sendable, Equatable {
        /// `add` or `replace`: an attribute, or with no path an object of them.
        case set(SCIMAttribute?, JSONValue)
        case remove(SCIMAttribute)
    }

    let operations: [Operation]

    init(_ body: [String: JSONValue]) throws {
        var members = try SCIMObject(body, in: "The body")
        let schemas = members.take("schemas")
        guard case .array(let listed)? = schemas, listed.contains(where: { $0.stringValue?.lowercased() == Self.schema.lowercased() }) else {
            throw SCIMError.invalidValue("schemas lists \(Self.schema).")
        }
        let sent = members.take("Operations")
        try members.refuseRest { "A PATCH has schemas and Operations only, not \($0)." }
        guard case .array(let items)? = sent, !items.isEmpty else {
            throw SCIMError.invalidValue(#"Operations is a list of at least one operation, such as {"op": "replace", "path": "active", "value": false}."#)
        }
        operations = try items.enumerated().map { index, item in try Self.operation(item, at: index) }
    }

    /// Applies every operation to `entry`, in order.
    func apply(to entry: inout MemberEntry) throws {
        for operation in operations {
            switch operation {
            case .set(nil, let value):
                guard case .object(let object) = value else { throw SCIMError.invalidValue("Without a path, an operation's value is an object of attributes.") }
                try SCIMUserBody.apply(object, to: &entry, asResource: false)
            case .set(let attribute?, let value):
                try entry.scimSet(attribute, to: value)
            case .remove(let attribute):
                try entry.scimSet(attribute, to: nil)
            }
        }
    }

    private static func operation(_ item: JSONValue, at index: Int) throws -> Operation {
        guard case .object(let object) = item else { throw SCIMError.invalidValue("Operations[\(index)] is an object with op, path and value.") }
        var members = try SCIMObject(object, in: "Operations[\(index)]")
        let op = members.take("op")?.stringValue?.lowercased() ?? ""
        let pathValue = members.take("path")
        let value = members.take("value")
        try members.refuseRest { "Operations[\(index)] has op, path and value only, not \($0)." }
        var pathText: String?
        switch pathValue {
        case nil, .null?: pathText = nil
        case .string(let text)?: pathText = text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : text
        default: throw SCIMError.invalidPath("Operations[\(index)].path is a string, such as name.givenName.")
        }
        let path = try pathText.map { try SCIMAttribute.path($0) }
        switch op {
        case "add", "replace":
            guard let value else { throw SCIMError.invalidValue("Operations[\(index)] (\(op)) needs a value.") }
            if path == nil {
                guard case .object = value else {
                    throw SCIMError.invalidValue("Operations[\(index)] has no path, so its value is an object of attributes.")
                }
            }
            return .set(path, value)
        case "remove":
            guard let path else { throw SCIMError.noTarget("Operations[\(index)] removes nothing: name the attribute in path.") }
            return .remove(path)
        default:
            throw SCIMError.invalidValue("Operations[\(index)].op is add, replace or remove.")
        }
    }
}
