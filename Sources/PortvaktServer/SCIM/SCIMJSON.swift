import Foundation

/// A JSON value as a SCIM body carries it, read strictly: a boolean is never a number and a
/// number never a string (JSONDecoder's own rules), so `"active": 1` is refused, not guessed.
enum SCIMJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([SCIMJSON])
    case object([String: SCIMJSON])

    /// The text of a string; nil for any other value.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

extension SCIMJSON: Codable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SCIMJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: SCIMJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// A JSON object's members by name without regard to case (RFC 7643 §2.1: attribute names are
/// case-insensitive). Members are taken one by one; what is left is what the reader did not
/// know, refused by ``refuseRest(_:)``.
struct SCIMObject {
    private var members: [String: (name: String, value: SCIMJSON)] = [:]

    /// - Parameter context: where the object is, for the refusal of a name sent twice (`name`, `emails[0]`).
    init(_ object: [String: SCIMJSON], in context: String) throws {
        for (name, value) in object {
            let key = name.lowercased()
            guard members[key] == nil else {
                throw SCIMError.invalidSyntax("\(context) names the attribute \"\(SCIMError.shown(name))\" twice (attribute names are case-insensitive).")
            }
            members[key] = (name, value)
        }
    }

    /// The member named `name` (any case), taken out; nil when there is none.
    mutating func take(_ name: String) -> SCIMJSON? {
        members.removeValue(forKey: name.lowercased())?.value
    }

    /// The members not taken, by the names they were sent with, sorted.
    var rest: [(name: String, value: SCIMJSON)] {
        members.values.sorted { $0.name < $1.name }
    }

    /// Refuses the first member not taken: `describe` says why, given its name.
    func refuseRest(_ describe: (String) -> String) throws {
        if let first = rest.first { throw SCIMError.invalidValue(describe(SCIMError.shown(first.name))) }
    }
}
