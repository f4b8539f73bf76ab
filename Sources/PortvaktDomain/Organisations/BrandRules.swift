import Foundation
import PortvaktCore
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A brand part refused, with the sentence the operator reads.
public struct BrandProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let field: String
    public let message: String
    public var description: String { message }
}

/// What an organisation's brand may be (issue 62 item 3): a logo that is only a picture, and an
/// accent colour every reader can read white text on and see against white (WCAG 1.4.3, 4.5:1).
public enum BrandRules {
    /// The largest logo, in bytes of its SVG text.
    public static let logoLimit = 20_000
    public static let accentContrast = 4.5
    /// The XML declaration a logo may have: UTF-8 or no encoding named.
    nonisolated(unsafe) static let xmlDeclaration = /<\?xml\s+version\s*=\s*["']1\.[0-9]+["'](\s+encoding\s*=\s*["']utf-8["'])?(\s+standalone\s*=\s*["'](yes|no)["'])?\s*\?>/

    /// The accent colour in lowercase `#rrggbb`.
    /// - Throws: a ``BrandProblem`` naming the colour's contrast, when it is not `#rrggbb` or below 4.5:1 against white.
    public static func accent(_ text: String) throws(BrandProblem) -> String {
        let colour = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let rgb = RGB(hex: colour) else {
            throw BrandProblem(field: "accent_colour", message: "The accent colour must be written #rrggbb, for example #0b4f9c.")
        }
        let ratio = RGB.white.contrast(with: rgb)
        guard ratio >= accentContrast else {
            let shown = (ratio * 10).rounded(.down) / 10
            throw BrandProblem(
                field: "accent_colour",
                message: "The accent colour \(colour) has \(shown):1 against white; white text on it and it on white need at least 4.5:1. Choose a darker colour."
            )
        }
        return colour
    }

    /// The logo as given, when it is an SVG picture that runs nothing and loads nothing.
    /// - Throws: a ``BrandProblem`` saying what is not allowed.
    public static func logo(_ svg: String) throws(BrandProblem) -> String {
        func refuse(_ why: String) -> BrandProblem { BrandProblem(field: "logo", message: "The logo is refused: \(why).") }
        guard svg.utf8.count <= logoLimit else { throw refuse("it is larger than \(logoLimit / 1000) kB") }
        let lowered = svg.lowercased()
        for declaration in ["<!doctype", "<!entity", "<![cdata["] where lowered.contains(declaration) {
            throw refuse("it has a \(declaration.dropFirst(2).uppercased()) declaration; an SVG logo needs none")
        }
        // One reading, the browser's and the check's: libxml2 decodes by the declaration, even past
        // a byte-order mark, and a browser by the mark and the header's UTF-8.
        guard svg.unicodeScalars.first == "<" else { throw refuse("it must begin with <svg or <?xml, with no byte-order mark or other text before it") }
        if lowered.hasPrefix("<?xml") {
            guard let end = lowered.range(of: "?>"), lowered[..<end.upperBound].wholeMatch(of: xmlDeclaration) != nil else {
                throw refuse("it is not in UTF-8, or its XML declaration is not <?xml version=\"1.0\" encoding=\"UTF-8\"?>")
            }
        }
        let parser = XMLParser(data: Data(svg.utf8))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let delegate = SVGReader.Delegate()
        parser.delegate = delegate
        guard parser.parse(), delegate.reader.depth == 0, delegate.reader.root != nil, !delegate.failed else { throw refuse("it is not well-formed XML") }
        let reader = delegate.reader
        if let problem = reader.problem { throw refuse(problem) }
        guard reader.root == "svg" else { throw refuse("its root element is not <svg>") }
        guard reader.rootNamespace == "http://www.w3.org/2000/svg" else { throw refuse("its <svg> does not declare the SVG namespace (xmlns=\"http://www.w3.org/2000/svg\")") }
        return svg
    }
}

/// What the logo check saw of the SVG.
struct SVGReader {
    var root: String?
    var rootNamespace: String?
    var problem: String?
    var uses = 0
    /// Elements open now: 0 again at the end of a document that closed what it opened.
    var depth = 0

    /// The elements a picture is drawn with; never script, foreignObject, image, a, style or animation.
    static let elements: Set<String> = [
        "svg", "g", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "title", "desc", "defs",
        "lineargradient", "radialgradient", "stop", "clippath", "mask", "use", "symbol", "text", "tspan",
    ]

    /// The attributes a picture is drawn with; never an event handler, `style`, `xml:base` or another namespace's.
    static let attributes: Set<String> = [
        "xmlns", "xmlns:xlink", "version", "viewbox", "width", "height", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy",
        "d", "points", "transform", "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
        "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "opacity", "clip-path", "clip-rule", "mask", "id",
        "offset", "stop-color", "stop-opacity", "gradientunits", "gradienttransform", "spreadmethod", "href", "xlink:href", "font-family",
        "font-size", "font-weight", "text-anchor", "dominant-baseline", "preserveaspectratio", "role", "aria-label", "aria-hidden",
        "focusable", "clippathunits", "maskunits", "maskcontentunits", "letter-spacing", "display", "visibility",
    ]
    /// At most this many `<use>`: copies of copies could otherwise grow the drawing without bound.
    static let useLimit = 8

    mutating func element(_ name: String, attributes: [String: String]) {
        depth += 1
        guard problem == nil else { return }
        if root == nil {
            root = name
            rootNamespace = attributes["xmlns"]
        }
        guard Self.elements.contains(name.lowercased()) else {
            problem = "it has a <\(name)> element, which a picture does not need"
            return
        }
        if name.lowercased() == "use" {
            uses += 1
            if uses > Self.useLimit { problem = "it has more than \(Self.useLimit) <use> elements"; return }
        }
        for (attribute, value) in attributes {
            problem = Self.problem(attribute: attribute, value: value, in: name)
            if problem != nil { return }
        }
    }

    static func problem(attribute: String, value: String, in name: String) -> String? {
        let key = attribute.lowercased()
        if key.hasPrefix("on") { return "its <\(name)> has an event handler (\(attribute))" }
        if key == "style" { return "its <\(name)> has a style attribute; use fill and stroke attributes instead" }
        guard attributes.contains(key) else { return "its <\(name)> has a \(attribute) attribute, which a picture does not need" }
        if key == "xmlns" || key == "xmlns:xlink" { return nil }
        if key == "href" || key == "xlink:href" {
            return value.wholeMatch(of: /#[A-Za-z0-9_.\-]+/) == nil ? "its <\(name)> refers to something outside the logo (\(attribute))" : nil
        }
        // A browser reads these with CSS's parser, which decodes escapes: no backslash, and a
        // function only as a reference inside the logo or a transform.
        if value.contains("\\") { return "its <\(name)> has a backslash in \(attribute)" }
        if value.contains("("), value.wholeMatch(of: /\s*url\(#[A-Za-z0-9_.\-]+\)\s*/) == nil,
           key != "transform" || value.wholeMatch(of: /(\s*(matrix|translate|scale|rotate|skewX|skewY)\([0-9eE.,+\-\s]*\)[\s,]*)+/) == nil {
            return "its <\(name)> refers to something outside the logo (\(attribute))"
        }
        if value.contains(":") { return "its <\(name)> has an address in \(attribute)" }
        return nil
    }

    final class Delegate: NSObject, XMLParserDelegate {
        var reader = SVGReader()
        var failed = false

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            reader.depth -= 1
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            failed = true
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            reader.element(elementName, attributes: attributes)
        }

        func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
            if reader.problem == nil { reader.problem = "it has a processing instruction (<?\(target)?>)" }
        }
    }
}

/// A colour of the sRGB space, for WCAG's contrast ratio.
struct RGB: Equatable {
    let red: Double, green: Double, blue: Double

    static let white = RGB(red: 1, green: 1, blue: 1)

    init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#rrggbb`.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#"), hex.dropFirst().allSatisfy(\.isHexDigit), let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        red = Double((value >> 16) & 0xff) / 255
        green = Double((value >> 8) & 0xff) / 255
        blue = Double(value & 0xff) / 255
    }

    /// WCAG 2.2's relative luminance.
    var luminance: Double {
        func linear(_ channel: Double) -> Double { channel <= 0.04045 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2.2's contrast ratio, 1 to 21.
    func contrast(with other: RGB) -> Double {
        let (lighter, darker) = luminance > other.luminance ? (luminance, other.luminance) : (other.luminance, luminance)
        return (lighter + 0.05) / (darker + 0.05)
    }
}
