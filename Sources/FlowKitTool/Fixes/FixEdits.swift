import FlowKit

/// One replacement in a file's bytes, with where it is as a lint position shows it.
package struct TextEdit: Hashable, Sendable {
    /// The first character replaced (1-based line and column, columns in Unicode scalars).
    package var start: SourcePosition
    /// The character after the last one replaced, on the same line.
    package var end: SourcePosition
    /// The bytes replaced.
    package var bytes: Range<Int>
    /// What replaces them.
    package var newText: String
}

/// Fixes made into edits of a file's text and applied (docs/format.md, "Fixes"): a fix is applied only where the file
/// reads what it expects, so a fix never edits anything else, and the rest of the file stays byte for byte.
package enum FixEdits {
    /// The edit `fix` makes in `bytes`, or nil when the file does not read `fix.old` at its position (after an
    /// opening quote, with the same quote after it), as a whole name.
    package static func edit(for fix: Fix, in bytes: [UInt8]) -> TextEdit? {
        guard let offset = offset(of: fix.position, in: bytes) else { return nil }
        let old = Array(fix.old.utf8)
        func reads(_ at: Int) -> Bool {
            at >= 0 && at + old.count <= bytes.count && bytes[at..<(at + old.count)].elementsEqual(old)
        }
        var start = offset
        var column = fix.position.column
        if !reads(start) {
            // A quoted name: its position may be its quote.
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") || bytes[offset] == UInt8(ascii: "'"),
                  reads(offset + 1), offset + 1 + old.count < bytes.count, bytes[offset + 1 + old.count] == bytes[offset] else { return nil }
            start = offset + 1
            column += 1
        }
        let end = start + old.count
        // A whole name: no name character just before or after it.
        if start > 0 && isNameByte(bytes[start - 1]) { return nil }
        if end < bytes.count && isNameByte(bytes[end]) { return nil }
        return TextEdit(start: SourcePosition(line: fix.position.line, column: column),
                        end: SourcePosition(line: fix.position.line, column: column + fix.old.unicodeScalars.count),
                        bytes: start..<end, newText: fix.new)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte >= 0x80
    }

    /// The byte offset of a 1-based line and column (in Unicode scalars; a byte order mark before the first line is
    /// not counted), or nil when the file has no such place on that line.
    static func offset(of position: SourcePosition, in bytes: [UInt8]) -> Int? {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        while line < position.line {
            guard let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            index = newline + 1
            line += 1
        }
        var column = 1
        while column < position.column {
            guard index < bytes.count, bytes[index] != UInt8(ascii: "\n") else { return nil }
            index += 1
            // Continuation bytes belong to the scalar before them.
            while index < bytes.count && bytes[index] & 0xC0 == 0x80 { index += 1 }
            column += 1
        }
        return index
    }

    /// The edits of `fixes` in `bytes`, in file order: one per place (the same edit given twice is made once); an
    /// edit that overlaps one before it, or that the file does not read as expected, is left out.
    package static func edits(for fixes: [Fix], in bytes: [UInt8]) -> [TextEdit] {
        let found = fixes.compactMap { edit(for: $0, in: bytes) }.sorted { ($0.bytes.lowerBound, $0.newText) < ($1.bytes.lowerBound, $1.newText) }
        var kept: [TextEdit] = []
        for edit in found {
            if let last = kept.last {
                if last.bytes == edit.bytes && last.newText == edit.newText { continue }
                if edit.bytes.lowerBound < last.bytes.upperBound { continue }
            }
            kept.append(edit)
        }
        return kept
    }

    /// `bytes` with `edits` (in file order, not overlapping) made.
    package static func apply(_ edits: [TextEdit], to bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        for edit in edits {
            output += bytes[index..<edit.bytes.lowerBound]
            output += Array(edit.newText.utf8)
            index = edit.bytes.upperBound
        }
        output += bytes[index...]
        return output
    }

    /// A unified diff (as `git apply` and `patch -p1` take it) of `path` from `old` to `new`, which have the same
    /// lines but for those the edits changed (a fix never adds or removes a line); three lines of context.
    package static func unifiedDiff(path: String, old: [UInt8], new: [UInt8]) -> String {
        let before = lines(old)
        let after = lines(new)
        guard before.count == after.count else { return "" }
        let changed = before.indices.filter { before[$0] != after[$0] }
        guard !changed.isEmpty else { return "" }
        var output = "--- a/\(path)\n+++ b/\(path)\n"
        var hunks: [ClosedRange<Int>] = []
        for line in changed {
            let range = max(0, line - 3)...min(before.count - 1, line + 3)
            if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
                hunks[hunks.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                hunks.append(range)
            }
        }
        func text(_ line: [UInt8]) -> String {
            let content = String(decoding: line.last == UInt8(ascii: "\n") ? Array(line.dropLast()) : line, as: UTF8.self)
            return content + (line.last == UInt8(ascii: "\n") ? "\n" : "\n\\ No newline at end of file\n")
        }
        for hunk in hunks {
            output += "@@ -\(hunk.lowerBound + 1),\(hunk.count) +\(hunk.lowerBound + 1),\(hunk.count) @@\n"
            for line in hunk {
                if before[line] == after[line] {
                    output += " " + text(before[line])
                } else {
                    output += "-" + text(before[line])
                }
                // The new lines after the old ones of a run of changed lines.
                if before[line] != after[line] && (line == hunk.upperBound || before[line + 1] == after[line + 1]) {
                    var first = line
                    while first > hunk.lowerBound && before[first - 1] != after[first - 1] { first -= 1 }
                    for changedLine in first...line { output += "+" + text(after[changedLine]) }
                }
            }
        }
        return output
    }

    /// The lines of `bytes`, each with its line break.
    private static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            result.append(Array(bytes[start...index]))
            start = index + 1
        }
        if start < bytes.count { result.append(Array(bytes[start...])) }
        return result
    }
}
