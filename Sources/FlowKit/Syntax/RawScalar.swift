/// A scalar's text as written, kept when its value cannot be mapped back to the file by counting (it has escapes,
/// or spans lines), so that a position inside the value can still be mapped exactly (docs/format.md, "Positions
/// inside quoted text").
///
/// A class, so that a scalar that has none (nearly all) pays one word for it, not the text's.
package final class RawScalar: Hashable, Sendable {
    /// How the scalar was written.
    package enum Style: Hashable, Sendable {
        /// A YAML plain scalar over several lines.
        case plain
        /// A YAML `'…'` scalar (`''` is a quote; lines fold).
        case singleQuoted
        /// A YAML `"…"` scalar (backslash escapes; lines fold; a backslash before a line break joins the lines).
        case doubleQuoted
        /// A YAML block scalar (`|` or `>`): its header line, then the lines of its value.
        case block
        /// A JSON string (backslash escapes, `\uXXXX` pairs for characters beyond the Basic Multilingual Plane).
        case json
    }

    /// The text from the scalar's first character (its quote, block indicator, or first character) on.
    package let text: String
    /// How it was written.
    package let style: Style
    /// Where `text` starts in the file.
    package let start: SourcePosition

    /// Creates a raw scalar.
    package init(text: String, style: Style, start: SourcePosition) {
        self.text = text
        self.style = style
        self.start = start
    }

    package static func == (lhs: RawScalar, rhs: RawScalar) -> Bool {
        lhs === rhs || (lhs.text == rhs.text && lhs.style == rhs.style && lhs.start == rhs.start)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(style)
        hasher.combine(start)
    }

    /// The file position of the written character that the scalar at `offset` (in Unicode scalars) of `value`, the
    /// decoded text, came from: an escape's backslash, a folded line break's first character, the closing quote for
    /// the end of the value. Nil when `value` does not align with the text (it was changed after decoding).
    package func position(ofOffset offset: Int, in value: String) -> SourcePosition? {
        let written = Array(text.unicodeScalars)
        let decoded = Array(value.unicodeScalars)
        guard offset >= 0, offset <= decoded.count else { return nil }
        var j = 0
        switch style {
        case .plain: j = 0
        case .singleQuoted, .doubleQuoted, .json: j = 1
        case .block:
            // After the header line (`|`, `>-`, `|2`, a comment).
            while j < written.count && !Self.isBreak(written[j]) { j += 1 }
            j = Self.afterBreak(written, j)
        }
        var i = 0
        func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }
        while i < offset {
            guard j < written.count else { return nil }
            let scalar = written[j]
            if (style == .doubleQuoted || style == .json) && scalar == "\\" {
                guard j + 1 < written.count else { return nil }
                let next = written[j + 1]
                if style == .doubleQuoted && Self.isBreak(next) {
                    // An escaped line break: the lines join with nothing between them.
                    j = Self.afterBreak(written, j + 1)
                    while j < written.count && isBlank(written[j]) { j += 1 }
                    continue
                }
                i += 1
                j += Self.escapeLength(written, at: j, style: style)
                continue
            }
            if style == .singleQuoted && scalar == "'" && j + 1 < written.count && written[j + 1] == "'" {
                i += 1
                j += 2
                continue
            }
            if decoded[i] == scalar {
                i += 1
                j = Self.isBreak(scalar) ? Self.afterBreak(written, j) : j + 1
                continue
            }
            if Self.isBreak(scalar) || isBlank(scalar) {
                // Folding: a line break (with the blanks around it) that became a space, or that joined an empty
                // line's break; blanks the folding dropped.
                if Self.isBreak(scalar) && (decoded[i] == " " || decoded[i] == "\n") {
                    i += 1
                    j = Self.afterBreak(written, j)
                } else {
                    j += 1
                }
                continue
            }
            return nil
        }
        // Blanks and line breaks the value does not hold lead to the character it does (or to the closing quote).
        while j < written.count, offset < decoded.count {
            let scalar = written[j]
            if scalar == decoded[offset] { break }
            if style == .doubleQuoted && scalar == "\\" && j + 1 < written.count && Self.isBreak(written[j + 1]) {
                // An escaped line break, and the blanks after it, hold nothing of the value.
                j = Self.afterBreak(written, j + 1)
                while j < written.count && isBlank(written[j]) { j += 1 }
            } else if Self.isBreak(scalar) {
                // A folded line break is the space (or line break) it became.
                if decoded[offset] == " " || decoded[offset] == "\n" { break }
                j = Self.afterBreak(written, j)
            } else if isBlank(scalar) {
                j += 1
            } else {
                break
            }
        }
        guard j <= written.count else { return nil }
        return Self.position(of: j, in: written, from: start)
    }

    /// The number of written characters of the escape whose backslash is at `j`.
    private static func escapeLength(_ written: [Unicode.Scalar], at j: Int, style: Style) -> Int {
        let letter = written[j + 1]
        switch (style, letter) {
        case (.doubleQuoted, "x"): return 4
        case (.doubleQuoted, "U"): return 10
        case (_, "u"):
            // JSON writes a character beyond the Basic Multilingual Plane as two escapes, a surrogate pair.
            if style == .json, j + 11 < written.count, let high = hex(written[(j + 2)..<(j + 6)]), (0xD800..<0xDC00).contains(high),
               written[j + 6] == "\\", written[j + 7] == "u", let low = hex(written[(j + 8)..<(j + 12)]), (0xDC00..<0xE000).contains(low) {
                return 12
            }
            return 6
        default: return 2
        }
    }

    private static func hex(_ digits: ArraySlice<Unicode.Scalar>) -> UInt32? {
        UInt32(String(String.UnicodeScalarView(digits)), radix: 16)
    }

    private static func isBreak(_ scalar: Unicode.Scalar) -> Bool { scalar == "\n" || scalar == "\r" }

    /// The index after the line break at `j` (`\r\n` is one).
    private static func afterBreak(_ written: [Unicode.Scalar], _ j: Int) -> Int {
        guard j < written.count else { return j }
        if written[j] == "\r" && j + 1 < written.count && written[j + 1] == "\n" { return j + 2 }
        return j + 1
    }

    /// The file position of `written[index]`, counting lines and columns from `start` as the readers do.
    private static func position(of index: Int, in written: [Unicode.Scalar], from start: SourcePosition) -> SourcePosition {
        var line = start.line
        var column = start.column
        var k = 0
        while k < index && k < written.count {
            if isBreak(written[k]) {
                k = afterBreak(written, k)
                line += 1
                column = 1
            } else {
                k += 1
                column += 1
            }
        }
        return SourcePosition(line: line, column: column)
    }
}
