import Foundation

/// A scalar's text as written, kept when its value cannot be mapped back to the file by counting (it has escapes,
/// or spans lines), so that a position inside the value can still be mapped exactly (docs/format.md, "Positions
/// inside quoted text").
///
/// A class, so that a scalar that has none (nearly all) pays one word for it, not the text's.
package final class RawScalar: Hashable, @unchecked Sendable {
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

    /// The alignment last worked out: the value it was for, and the position of each of its scalars then of its
    /// end (nil when the value does not align with the text). Worked out once, so that many findings in one long
    /// value cost one pass over its text.
    private let lock = NSLock()
    private var aligned: (value: String, positions: [SourcePosition]?)?

    /// The file position of the written character that the scalar at `offset` (in Unicode scalars) of `value`, the
    /// decoded text, came from: an escape's backslash, a folded line break's first character, the closing quote for
    /// the end of the value. Nil when `value` does not align with the text (it was changed after decoding).
    package func position(ofOffset offset: Int, in value: String) -> SourcePosition? {
        lock.lock()
        defer { lock.unlock() }
        if aligned?.value != value { aligned = (value, align(value)) }
        guard let positions = aligned?.positions, offset >= 0, offset < positions.count else { return nil }
        return positions[offset]
    }

    /// The position of each scalar of `value`, then of its end, in one pass over the text.
    private func align(_ value: String) -> [SourcePosition]? {
        let written = Array(text.unicodeScalars)
        let decoded = Array(value.unicodeScalars)
        let n = written.count
        var positions: [SourcePosition] = []
        positions.reserveCapacity(decoded.count + 1)
        var j = 0
        var (line, column) = (start.line, start.column)
        // Moves to `target`, counting lines and columns as the readers do.
        func advance(to target: Int) {
            while j < target && j < n {
                if Self.isBreak(written[j]) {
                    j = Self.afterBreak(written, j)
                    line += 1
                    column = 1
                } else {
                    j += 1
                    column += 1
                }
            }
        }
        func here() -> SourcePosition { SourcePosition(line: line, column: column) }
        func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }
        // After a line break inside a quoted or plain value, the next line's leading blanks are no character.
        func skipLeadingBlanks() {
            guard style != .block else { return }
            var k = j
            while k < n && isBlank(written[k]) { k += 1 }
            advance(to: k)
        }
        switch style {
        case .plain: break
        case .singleQuoted, .doubleQuoted, .json: advance(to: 1)
        case .block:
            // After the header line (`|`, `>-`, `|2`, a comment).
            var k = 0
            while k < n && !Self.isBreak(written[k]) { k += 1 }
            advance(to: k)
            if j < n { advance(to: Self.afterBreak(written, j)) }
        }
        var i = 0
        while i < decoded.count {
            guard j < n else { return nil }
            let scalar = written[j]
            if (style == .doubleQuoted || style == .json) && scalar == "\\" {
                guard j + 1 < n else { return nil }
                if style == .doubleQuoted && Self.isBreak(written[j + 1]) {
                    // An escaped line break: the lines join with nothing between them.
                    advance(to: Self.afterBreak(written, j + 1))
                    skipLeadingBlanks()
                    continue
                }
                positions.append(here())
                i += 1
                advance(to: j + Self.escapeLength(written, at: j, style: style))
                continue
            }
            if style == .singleQuoted && scalar == "'" && j + 1 < n && written[j + 1] == "'" {
                positions.append(here())
                i += 1
                advance(to: j + 2)
                continue
            }
            if isBlank(scalar) && style != .block {
                // Blanks before a line break are no character of a quoted or plain value (folding drops them).
                var k = j
                while k < n && isBlank(written[k]) { k += 1 }
                if k < n && Self.isBreak(written[k]) {
                    advance(to: k)
                    continue
                }
            }
            if Self.isBreak(scalar) {
                // A line break that folded into a space, or stayed a line break (an empty line's, a block's), is
                // that character; one that joined the breaks after it is none.
                if decoded[i] == " " || decoded[i] == "\n" || decoded[i] == scalar {
                    positions.append(here())
                    i += 1
                }
                advance(to: Self.afterBreak(written, j))
                skipLeadingBlanks()
                continue
            }
            if decoded[i] == scalar {
                positions.append(here())
                i += 1
                advance(to: j + 1)
                continue
            }
            if isBlank(scalar) {
                // A blank the folding dropped (before a line break).
                advance(to: j + 1)
                continue
            }
            return nil
        }
        // The end: past blanks, line breaks and escaped line breaks the value does not hold, to the closing quote.
        while j < n {
            if isBlank(written[j]) || Self.isBreak(written[j]) {
                advance(to: Self.isBreak(written[j]) ? Self.afterBreak(written, j) : j + 1)
            } else if style == .doubleQuoted && written[j] == "\\" && j + 1 < n && Self.isBreak(written[j + 1]) {
                advance(to: Self.afterBreak(written, j + 1))
            } else {
                break
            }
        }
        positions.append(here())
        return positions
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

    /// A line break as libyaml counts lines: LF, CR, NEL, LS and PS.
    private static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\r" || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// The index after the line break at `j` (`\r\n` is one).
    private static func afterBreak(_ written: [Unicode.Scalar], _ j: Int) -> Int {
        guard j < written.count else { return j }
        if written[j] == "\r" && j + 1 < written.count && written[j + 1] == "\n" { return j + 2 }
        return j + 1
    }

}
