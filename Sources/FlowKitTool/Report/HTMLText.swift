import FlowKit

/// Text for the HTML report (docs/format.md, "The HTML report", "Escaping"): everything from a file, a script, git
/// or the command line reaches the document through these, so that it is text, never markup. The references used
/// are XML's too, so the document stays well-formed XML.
package enum HTMLText {
    /// `text` as element content: `&`, `<`, `>`, `"` and `'` as references; other control characters than a tab
    /// and a line break, and those XML does not allow, as `\u{…}` (a person reads them; a document cannot hold them).
    package static func text(_ text: some StringProtocol) -> String {
        escaping(text) { scalar, output in
            if scalar == "\t" || scalar == "\n" {
                output.unicodeScalars.append(scalar)
            } else if isControl(scalar) || !allowedInXML(scalar) {
                output += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
    }

    /// `text` as an attribute value (inside double quotes): `&`, `<`, `>`, `"` and `'` as references, and a tab,
    /// a line break and a carriage return as numeric references, so that a value holding them reads back whole
    /// (an HTML parser turns a raw carriage return into a line break). Other C0 control characters, and U+FFFE and
    /// U+FFFF, which neither XML nor HTML can carry in an attribute, become U+FFFD.
    package static func attribute(_ text: some StringProtocol) -> String {
        escaping(text) { scalar, output in
            if scalar == "\t" || scalar == "\n" || scalar == "\r" {
                output += "&#\(scalar.value);"
            } else if !allowedInXML(scalar) {
                output += "\u{FFFD}"
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
    }

    /// `text` with the five characters of markup as references, and every other scalar as `other` writes it.
    private static func escaping(_ text: some StringProtocol, other: (Unicode.Scalar, inout String) -> Void) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: other(scalar, &output)
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
    /// One pass over the bytes.
    package static func annotate(_ svg: String, root extra: [(String, String)], hooks: [String: Hook]) -> String? {
        let bytes = Array(svg.utf8)
        func find(_ needle: String, from start: Int) -> Int? {
            let pattern = Array(needle.utf8)
            guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
            var index = start
            while index <= bytes.count - pattern.count {
                if bytes[index] == first && bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
                index += 1
            }
            return nil
        }
        guard let start = find("<svg", from: 0) else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 4)
        func append(_ text: String) { output += Array(text.utf8) }
        append("<svg")
        for (name, value) in extra { append(" \(name)=\"\(HTMLText.attribute(value))\"") }
        var position = start + 4
        while let found = find(" id=\"", from: position) {
            let valueStart = found + 5
            guard let close = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { break }
            output += bytes[position...close]
            position = close + 1
            guard let hook = hooks[String(decoding: bytes[valueStart..<close], as: UTF8.self)] else { continue }
            for (name, value) in hook.attributes { append(" \(name)=\"\(HTMLText.attribute(value))\"") }
            // The element's own `<title>`: right after its start tag, before any other element.
            guard let title = hook.title, let end = bytes[position...].firstIndex(of: UInt8(ascii: ">")) else { continue }
            var open = end + 1
            while open < bytes.count, bytes[open] == 0x0A || bytes[open] == 0x20 || bytes[open] == 0x0D || bytes[open] == 0x09 { open += 1 }
            let tag = Array("<title>".utf8)
            guard open + tag.count <= bytes.count, bytes[open..<open + tag.count].elementsEqual(tag),
                  let closing = find("</title>", from: open + tag.count) else { continue }
            output += bytes[position..<open + tag.count]
            append(HTMLText.name(title))
            position = closing
        }
        output += bytes[position...]
        return String(decoding: output, as: UTF8.self)
    }
}
