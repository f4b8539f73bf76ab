/// What a page's template reads: a small struct whose property names are the names in the
/// template (`{{name}}`, `{{#name}}`), so a misspelt name is a compile error in Swift and a failing
/// test for the template, not an empty spot on the page. Mustache reads it by its properties
/// (Mirror): a `Bool` opens a section, an array repeats one, and a nil Optional reads as absent,
/// so the lookup goes on to the values around the page (as a missing dictionary key did).
///
/// Encodable keeps a view model plain data: values, never services or closures.
public protocol PageValues: Encodable, Sendable {}

/// A page that reads nothing of its own beyond its layout.
public struct EmptyValues: PageValues {
    public init() {}
}
