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
    package static func edit(for fix: Fix, in bytes: [UInt8], format: DocumentFormat) -> TextEdit? {
        edit(for: fix, in: bytes, lines: LineIndex(lint: bytes, format: format))
    }

    /// `edit(for:in:format:)` with the file's lines counted already.
    package static func edit(for fix: Fix, in bytes: [UInt8], lines: LineIndex) -> TextEdit? {
        guard let offset = lines.offset(of: fix.position) else { return nil }
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
        // Not a node with an anchor (`&a tow`): an alias elsewhere means the same node, for other things too.
        if isAnchored(before: offset, in: bytes) { return nil }
        return TextEdit(start: SourcePosition(line: fix.position.line, column: column),
                        end: SourcePosition(line: fix.position.line, column: column + fix.old.unicodeScalars.count),
                        bytes: start..<end, newText: fix.new)
    }

    /// Whether the text before `offset` on its line ends with a YAML anchor (`&name` and blanks).
    static func isAnchored(before offset: Int, in bytes: [UInt8]) -> Bool {
        var index = offset - 1
        while index >= 0 && (bytes[index] == 0x20 || bytes[index] == 0x09) { index -= 1 }
        guard index < offset - 1 else { return false }
        while index >= 0 && bytes[index] != 0x0A && bytes[index] != 0x0D && bytes[index] != 0x20 && bytes[index] != 0x09
                && bytes[index] != UInt8(ascii: "{") && bytes[index] != UInt8(ascii: "[") && bytes[index] != UInt8(ascii: ",") {
            if bytes[index] == UInt8(ascii: "&") { return index == 0 || [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "-")].contains(bytes[index - 1]) }
            index -= 1
        }
        return false
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte >= 0x80
    }

    /// The edits of `fixes` in `bytes`, in file order: one per place (the same edit given twice is made once); an
    /// edit that overlaps one before it, or that the file does not read as expected, is left out.
    package static func edits(for fixes: [Fix], in bytes: [UInt8], format: DocumentFormat) -> [TextEdit] {
        let lines = LineIndex(lint: bytes, format: format)
        let found = fixes.compactMap { edit(for: $0, in: bytes, lines: lines) }.sorted { ($0.bytes.lowerBound, $0.newText) < ($1.bytes.lowerBound, $1.newText) }
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
        var output = "--- \(diffName("a/", path))\n+++ \(diffName("b/", path))\n"
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

    /// `prefix` and `path` as a diff header names a file: `./` and `..` taken out, and, when it holds anything but
    /// letters, digits and `._/+-`, quoted as git quotes names (`"a/my flow.yaml"`, C escapes, octal for other
    /// bytes), which `git apply` and `patch` read; so no name can forge a header line or reach a terminal raw.
    static func diffName(_ prefix: String, _ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        let name = prefix + parts.joined(separator: "/")
        let plain = name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "._/+-".utf8.contains(byte)
        }
        if plain { return name }
        var quoted = "\""
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "\""): quoted += "\\\""
            case UInt8(ascii: "\\"): quoted += "\\\\"
            case 0x09: quoted += "\\t"
            case 0x0A: quoted += "\\n"
            case 0x20...0x7E: quoted.append(Character(Unicode.Scalar(byte)))
            default: quoted += "\\" + String(byte, radix: 8).leftPadded(to: 3)
            }
        }
        return quoted + "\""
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

private extension String {
    /// The string with zeros before it up to `length` characters.
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
