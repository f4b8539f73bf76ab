import Foundation
import PortvaktHTTP

/// A JSON object's members by name without regard to case (RFC 7643 §2.1: attribute names are
/// case-insensitive). Members are taken one by one; what is left is what the reader did not
/// know, refused by ``refuseRest(_:)``.
struct SCIMObject {
    private var members: [String: (name: String, value: JSONValue)] = [:]

    /// - Parameter context: where the object is, for the refusal of a name sent twice (`name`, `emails[0]`).
    init(_ object: [String: JSONValue], in context: String) throws {
        for (name, value) in object {
            let key = name.lowercased()
            guard members[key] == nil else {
                throw SCIMError.invalidSyntax("\(context) names the attribute \"\(SCIMError.shown(name))\" twice (attribute names are case-insensitive).")
            }
            members[key] = (name, value)
        }
    }

    /// The member named `name` (any case), taken out; nil when there is none.
    mutating func take(_ name: String) -> JSONValue? {
        members.removeValue(forKey: name.lowercased())?.value
    }

    /// The members not taken, by the names they were sent with, sorted.
    var rest: [(name: String, value: JSONValue)] {
        members.values.sorted { $0.name < $1.name }
    }

    /// Refuses the first member not taken: `describe` says why, given its name.
    func refuseRest(_ describe: (String) -> String) throws {
        if let first = rest.first { throw SCIMError.invalidValue(describe(SCIMError.shown(first.name))) }
    }
}
