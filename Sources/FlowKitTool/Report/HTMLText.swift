import FlowKit

/// Text for the HTML report (docs/format.md, "The HTML report", "Escaping"): everything from a file, a script, git
/// or the command line reaches the document through these, so that it is text, never markup. The references used
/// are XML's too, so the document stays well-formed XML.
package enum HTMLText {
    /// `text` as element content: `&`, `<`, `>`, `"` and `'` as references; other control characters than a tab
    /// and a line break, and those XML does not allow, as `\u{…}` (a person reads them; a document cannot hold them).
    package static func text(_ text: some StringProtocol) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            case "\t", "\n": output.unicodeScalars.append(scalar)
            default:
                if isControl(scalar) || !allowedInXML(scalar) {
                    output += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }

    /// `text` as an attribute value (inside double quotes): `&`, `<`, `>`, `"` and `'` as references, and a tab,
    /// a line break and a carriage return as numeric references, so that a value holding them reads back whole
    /// (an HTML parser turns a raw carriage return into a line break). Other C0 control characters, and U+FFFE and
    /// U+FFFF, which neither XML nor HTML can carry in an attribute, become U+FFFD.
    package static func attribute(_ text: some StringProtocol) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default:
                if scalar == "\t" || scalar == "\n" || scalar == "\r" {
                    output += "&#\(scalar.value);"
                } else if !allowedInXML(scalar) {
                    output += "\u{FFFD}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }

    /// A name shown to people: escaped as in findings (`Identifier.display`, whole), then as element content.
    package static func name(_ name: some StringProtocol) -> String {
        text(Identifier.display(String(name), limit: .max, quoting: false))
    }

    /// Strings as a JSON array, for an attribute (escape the result with `attribute(_:)`).
    package static func jsonArray(_ items: [String]) -> String {
        "[" + items.map(JSONText.string).joined(separator: ",") + "]"
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// XML 1.0's `Char`: a tab, a line break, a carriage return, and U+0020 and above but for U+FFFE and U+FFFF.
    private static func allowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value == 0x9 || value == 0xA || value == 0xD { return true }
        if value < 0x20 { return false }
        return value != 0xFFFE && value != 0xFFFF
    }
}

/// Adds the report's hooks to an SVG Graphviz wrote: the attributes of each element whose `id` is one of the
/// report's (`GraphvizOptions.idPrefix`), inserted after that id, and its `<title>` (the tooltip, which Graphviz
/// fills with the generated node name) replaced. Graphviz writes each id as `id="…"` once, on the element it names,
/// its `<title>` right after; the ids are the report's own tokens (letters, digits, `_`), so no text from a flow
/// is matched.
package enum SVGHooks {
    /// What an element gets.
    package struct Hook: Sendable {
        /// Attributes to add (values escaped here).
        package var attributes: [(String, String)]
        /// The tooltip, in place of Graphviz's.
        package var title: String?

        /// Creates a hook.
        package init(_ attributes: [(String, String)], title: String? = nil) {
            self.attributes = attributes
            self.title = title
        }
    }

    /// `svg` from its `<svg` element on (Graphviz's XML prologue and doctype left out, as HTML wants), with `root`
    /// attributes on the `<svg>` element and each element whose id `hooks` has hooked; nil when there is no `<svg`.
    package static func annotate(_ svg: String, root extra: [(String, String)], hooks: [String: Hook]) -> String? {
        guard let start = svg.range(of: "<svg") else { return nil }
        var output = "<svg"
        for (name, value) in extra { output += " \(name)=\"\(HTMLText.attribute(value))\"" }
        var rest = svg[start.upperBound...]
        let marker = " id=\""
        while let found = rest.range(of: marker) {
            output += rest[..<found.upperBound]
            rest = rest[found.upperBound...]
            guard let close = rest.firstIndex(of: "\"") else { break }
            let id = String(rest[..<close])
            output += rest[...close]
            rest = rest[rest.index(after: close)...]
            guard let hook = hooks[id] else { continue }
            for (name, value) in hook.attributes { output += " \(name)=\"\(HTMLText.attribute(value))\"" }
            // The element's own `<title>`: after the end of its start tag, before any other element.
            if let title = hook.title, let end = rest.firstIndex(of: ">"), rest[rest.index(after: end)...].drop(while: \.isWhitespace).hasPrefix("<title>") {
                let open = rest.range(of: "<title>", range: end..<rest.endIndex)!
                if let closing = rest.range(of: "</title>", range: open.upperBound..<rest.endIndex) {
                    output += rest[..<open.upperBound] + HTMLText.text(title)
                    rest = rest[closing.lowerBound...]
                }
            }
        }
        output += rest
        return output
    }
}
