import Mustache

/// The one way a page is made, for the portal and the sandbox alike: Mustache templates parsed
/// once, rendered with a page's view model over its layout's values.
///
/// A name is looked up in the page's values first, then in the values around them (the
/// administration's organisation and navigation), then in the layout's. A page never sets a layout
/// value: one of its own named like the layout's would hide it (a second `status`, a stale live region).
public struct PageRenderer: Sendable {
    let library: MustacheLibrary

    /// - Parameter templates: every template by name; a page extends its layout (`{{<layout}}`) and
    ///   includes partials (`{{> name}}`) by these names.
    public init(templates: [(name: String, text: String)]) {
        var library = MustacheLibrary()
        for (name, text) in templates {
            // The templates are part of the build: one that does not parse is a programming error.
            library.register(try! MustacheTemplate(string: text), named: name)
        }
        self.library = library
    }

    /// - Parameters:
    ///   - values: the page's own view model.
    ///   - around: values a kind of page shares (the administration's); a page's own value of the same name replaces one of them.
    ///   - layout: the layout's values; neither `values` nor `around` may have a property of the same name.
    /// - Returns: the page; empty when no template has that name.
    public func render(_ template: String, values: some PageValues, around: [any PageValues] = [], layout: some PageValues) -> String {
        var layers: [any PageValues] = [values]
        layers += around
        assert(PageScope.layoutNames(setBy: layers, layout: layout).isEmpty, "\(template) sets a layout value: \(PageScope.layoutNames(setBy: layers, layout: layout))")
        layers.append(layout)
        return library.render(PageScope(layers: layers), withTemplate: template) ?? ""
    }
}

/// The values of one page as Mustache reads them: each name from the first layer that has it.
struct PageScope: MustacheParent {
    let layers: [any PageValues]

    func child(named name: String) -> Any? {
        for layer in layers {
            if let value = Self.value(named: name, in: layer) { return value }
        }
        return nil
    }

    /// The property `name` of `values`; nil when it has none or it is a nil Optional, as Mustache
    /// reads a property itself, so the lookup goes on to the next layer.
    static func value(named name: String, in values: Any) -> Any? {
        guard let property = Mirror(reflecting: values).children.first(where: { $0.label == name }) else { return nil }
        let wrapped = Mirror(reflecting: property.value)
        guard wrapped.displayStyle == .optional else { return property.value }
        return wrapped.children.first?.value
    }

    /// The names of the properties of `values`.
    static func names(of values: Any) -> Set<String> {
        Set(Mirror(reflecting: values).children.compactMap(\.label))
    }

    /// The layout's names that one of `layers` has too, sorted; empty when none is hidden.
    static func layoutNames(setBy layers: [any PageValues], layout: some PageValues) -> [String] {
        let layoutNames = names(of: layout)
        return layers.reduce(into: Set<String>()) { $0.formUnion(names(of: $1).intersection(layoutNames)) }.sorted()
    }
}
