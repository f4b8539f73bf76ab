/// An operator's command found a database that `portvakt-server migrate` has not brought up to
/// this release: commands never change the schema themselves (a rolling upgrade's old instances
/// still serve from it).
public struct SchemaNotCurrent: Error, CustomStringConvertible {
    public let pending: [Int]
    public var description: String {
        let versions = pending.count == 1 ? "migration \(pending[0])" : "migrations \(pending.first!)–\(pending.last!)"
        return "the database lacks \(versions) of this release: run `portvakt-server migrate` first (the operator's commands never change the schema)"
    }
}
