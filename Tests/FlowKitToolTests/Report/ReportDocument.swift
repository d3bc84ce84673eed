import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import FlowKit
@testable import FlowKitTool

/// A report read back with an XML parser (the report is well-formed XML by the spec): its elements with their
/// attributes and text, for the tests' questions and for the structure goldens.
final class ReportDocument: NSObject, XMLParserDelegate {
    /// An element.
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""
        weak var parent: Element?

        init(name: String, attributes: [String: String], parent: Element?) {
            self.name = name
            self.attributes = attributes
            self.parent = parent
        }

        /// Every element below this one, in document order.
        var descendants: [Element] { children.flatMap { [$0] + $0.descendants } }

        /// The text of this element and every element below it.
        var allText: String { text + children.map(\.allText).joined() }

        /// The nearest ancestor named `name`.
        func ancestor(_ name: String) -> Element? {
            var node = parent
            while let current = node, current.name != name { node = current.parent }
            return node
        }
    }

    let root = Element(name: "#document", attributes: [:], parent: nil)
    private var current: Element
    private(set) var error: String?

    /// Parses `text`; `error` says why it is not well-formed XML.
    init(_ text: String) {
        current = root
        super.init()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = self
        if !parser.parse() { error = parser.parserError.map { "\($0) at line \(parser.lineNumber), column \(parser.columnNumber)" } ?? "unknown" }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        let element = Element(name: name, attributes: attributes, parent: current)
        current.children.append(element)
        current = element
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        current = current.parent ?? root
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        current.text += string
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        current.text += String(decoding: block, as: UTF8.self)
    }

    /// Every element, in document order.
    var elements: [Element] { root.descendants }

    /// The elements that have `attribute`.
    func all(_ attribute: String) -> [Element] { elements.filter { $0.attributes[attribute] != nil } }

    /// The report's structure: each element with a hook (a `data-` attribute), indented by the hooked elements
    /// around it, with its hooks sorted (paths under `root` shown relative to it), and the text of a figure.
    func outline(relativeTo root: String) -> String {
        var lines: [String] = []
        func visit(_ element: Element, depth: Int) {
            let hooks = element.attributes.filter { $0.key.hasPrefix("data-") }.sorted { $0.key < $1.key }
            var depth = depth
            if !hooks.isEmpty {
                var line = String(repeating: "  ", count: depth) + element.name
                for (key, value) in hooks { line += " \(key)=\(value.replacingOccurrences(of: root + "/", with: ""))" }
                if element.attributes["data-count"] != nil { line += " : " + element.allText }
                lines.append(line)
                depth += 1
            }
            for child in element.children { visit(child, depth: depth) }
        }
        visit(self.root, depth: 0)
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A stand-in for Graphviz: an SVG document shaped as Graphviz writes one (a prologue, then ids on the graph, the
/// nodes and the edges, each with its `<title>`), so the report's hooks are tested without a layout.
func stubSVG(_ diagram: FlowDiagram, prefix: String, file: String) -> String {
    var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x\">\n"
    svg += "<svg width=\"100pt\" height=\"100pt\" viewBox=\"0 0 100 100\" xmlns=\"http://www.w3.org/2000/svg\">\n"
    svg += "<g id=\"\(prefix)\" class=\"graph\">\n<title>flow</title>\n<text>\(HTMLText.text(diagram.title))</text>\n"
    for node in diagram.nodes {
        svg += "<g id=\"\(prefix)_\(node.id)\" class=\"node\">\n<title>\(node.id)</title>\n<text>\(HTMLText.text(node.label))</text>\n</g>\n"
    }
    for index in diagram.edges.indices {
        svg += "<g id=\"\(prefix)_edge\(index)\" class=\"edge\">\n<title>a&#45;&gt;b</title>\n<text>\(HTMLText.text(diagram.edges[index].label ?? ""))</text>\n</g>\n"
    }
    return svg + "</g>\n</svg>\n"
}
