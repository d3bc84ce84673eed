import FlowKit

/// Where each line of a file starts, counted as a reader counts lines (docs/format.md, "Positions inside quoted
/// text"): LF, CR and CRLF, and for YAML also NEL, LS and PS (libyaml's line breaks); a byte order mark before the
/// first line is not part of it. Or, for the Language Server Protocol, LF, CR and CRLF only, the mark counted.
package struct LineIndex: Sendable {
    /// The byte offset each line starts at.
    package let starts: [Int]
    private let bytes: [UInt8]

    /// The lines of `bytes` as lint counts them for a file of `format`.
    package init(lint bytes: [UInt8], format: DocumentFormat) {
        self.init(bytes, unicodeBreaks: format == .yaml, skipMark: true)
    }

    /// The lines of `bytes` as the Language Server Protocol counts them.
    package init(protocol bytes: [UInt8]) {
        self.init(bytes, unicodeBreaks: false, skipMark: false)
    }

    private init(_ bytes: [UInt8], unicodeBreaks: Bool, skipMark: Bool) {
        self.bytes = bytes
        var starts = [skipMark && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
        var index = starts[0]
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                starts.append(index + 1)
            } else if byte == 0x0D {
                if index + 1 < bytes.count && bytes[index + 1] == 0x0A { index += 1 }
                starts.append(index + 1)
            } else if unicodeBreaks && byte == 0xC2 && index + 1 < bytes.count && bytes[index + 1] == 0x85 {
                index += 1
                starts.append(index + 1)
            } else if unicodeBreaks && byte == 0xE2 && index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9) {
                index += 2
                starts.append(index + 1)
            }
            index += 1
        }
        self.starts = starts
    }

    /// The number of lines.
    package var count: Int { starts.count }

    /// The byte offset where the line (0-based, clamped to the file) ends, before its line break.
    package func end(ofLine line: Int) -> Int {
        let line = max(0, min(line, starts.count - 1))
        guard line + 1 < starts.count else { return bytes.count }
        var end = starts[line + 1]
        // Back over the break: LF, CRLF, CR, NEL, LS or PS.
        if end >= 2 && bytes[end - 2] == 0x0D && bytes[end - 1] == 0x0A { return end - 2 }
        if end >= 1 && (bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D) { return end - 1 }
        if end >= 2 && bytes[end - 2] == 0xC2 && bytes[end - 1] == 0x85 { return end - 2 }
        if end >= 3 && bytes[end - 3] == 0xE2 { end -= 3 }
        return end
    }

    /// The 0-based line holding the byte at `offset`.
    package func line(of offset: Int) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The byte offset of a 1-based line and column (in Unicode scalars), or nil when the file has no such place:
    /// a line it does not have, or a column past its line's end (the end itself counts).
    package func offset(of position: SourcePosition) -> Int? {
        guard position.line >= 1, position.line <= starts.count, position.column >= 1 else { return nil }
        var index = starts[position.line - 1]
        let end = end(ofLine: position.line - 1)
        var column = 1
        while column < position.column {
            guard index < end else { return nil }
            index += 1
            while index < end && bytes[index] & 0xC0 == 0x80 { index += 1 }
            column += 1
        }
        return index
    }

    /// The 1-based line and column (in Unicode scalars) of the byte at `offset`.
    package func position(of offset: Int) -> SourcePosition {
        let offset = max(0, min(offset, bytes.count))
        let line = self.line(of: offset)
        var column = 1
        var index = starts[line]
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourcePosition(line: line + 1, column: max(1, column))
    }
}
