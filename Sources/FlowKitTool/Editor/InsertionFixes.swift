import FlowKit

/// Quick fixes that add text rather than replace a name (docs/format.md, "The editor server"): declaring an event a
/// step handles, and guarding an option's `if` with `exists(…)`. Each is made at the text level and kept only when
/// the document reads back with it (no new `syntax`, `schema` or `duplicate_key` finding) and does what it says.
enum InsertionFixes {
    /// The edit that declares `event` in the flow's `events` (a flow mapping or JSON object: before its `}`; a
    /// block mapping: a line after its last entry; no `events`: a line or a member before `steps`).
    static func declaringEvent(_ event: String, in document: EditorDocument) -> TextEdit? {
        declaring(event, value: nil, in: "events", document: document) { $0.events.contains { $0.name.text == event } }
    }

    /// The edit that declares the state key `key` of type `type` (as a declaration writes it) in `state`.
    static func declaringStateKey(_ key: String, type: String, in document: EditorDocument) -> TextEdit? {
        declaring(key, value: type, in: "state", document: document) { $0.state.contains { $0.name.text == key } }
    }

    /// The edit that adds `name` (with `value`, or none) to the top-level mapping `section`, kept when the flow
    /// then passes `check`.
    private static func declaring(_ event: String, value: String?, in section: String, document: EditorDocument, check: (Flow) -> Bool) -> TextEdit? {
        guard FlowSymbols.isName(event), let root = document.loaded.root, let entries = root.entries else { return nil }
        let bytes = document.bytes
        let json = document.format == .json
        let lines = LineIndex(lint: bytes, format: document.format)
        var edit: TextEdit?
        // The file's own line break for a line added.
        let newlineText = Self.lineBreak(of: bytes)
        // The member as each form writes it.
        let yamlValue = value.map { " " + ($0.hasPrefix("[") || $0.hasSuffix("?") ? "\"\($0)\"" : $0) } ?? ""
        let jsonValue = value.map { "\"\($0)\"" } ?? "null"
        if let index = entries.firstIndex(where: { $0.key == section }) {
            let value = entries[index].value
            // The value's first character after the key's `:` (a node's position may be its first key's).
            guard var start = lines.offset(of: entries[index].keyPosition) else { return nil }
            while start < bytes.count && bytes[start] != UInt8(ascii: ":") { start += 1 }
            start += 1
            while start < bytes.count && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
            // Not a mapping with an anchor (`state: &s`): an alias elsewhere (a step's `result: *s`) is the same
            // mapping, which the declaration would change too.
            guard start < bytes.count, bytes[start] != UInt8(ascii: "&") else { return nil }
            if bytes[start] == UInt8(ascii: "{"), let close = closing(from: start, in: bytes, json: json) {
                let empty = value.entries?.isEmpty ?? true
                let member = json ? "\"\(event)\": \(jsonValue)" : "\(event):\(yamlValue) "
                // Just before the `}` (after a blank there: `go: }` becomes `go: , stop: }`, where `go:,` would not
                // end the key).
                let blank = close > start + 1 && (bytes[close - 1] == 0x20 || bytes[close - 1] == 0x09)
                edit = insertion(at: close, (empty ? member : ", " + member) + (blank ? " " : ""), lines: lines)
            } else if !json, let first = value.entries?.first, index + 1 < entries.count {
                // A block mapping: a line before the next top-level key, indented as its entries.
                let next = entries[index + 1].keyPosition
                guard next.line >= 1, next.line <= lines.count else { return nil }
                // After the mapping's last line with text (not before the comments and blank lines above the next
                // key, which belong to it).
                var line = next.line - 1
                while line > 0 && Self.isBlankOrComment(line: line - 1, in: bytes, lines: lines) && line - 1 > first.keyPosition.line - 1 { line -= 1 }
                edit = insertion(at: lines.starts[line], String(repeating: " ", count: max(0, first.keyPosition.column - 1)) + event + ":" + yamlValue + newlineText, lines: lines)
            } else if !json, let first = value.entries?.first, index + 1 == entries.count {
                // The last top-level key: a line at the end of the file.
                let newline = bytes.last == 0x0A || bytes.last == 0x0D ? "" : newlineText
                edit = insertion(at: bytes.count, newline + String(repeating: " ", count: max(0, first.keyPosition.column - 1)) + event + ":" + yamlValue + newlineText, lines: lines)
            }
        } else if let steps = entries.first(where: { $0.key == "steps" }), let at = lines.offset(of: steps.keyPosition) {
            if json {
                edit = insertion(at: at, "\"\(section)\": {\"\(event)\": \(jsonValue)}, ", lines: lines)
            } else {
                let line = lines.line(of: at)
                edit = insertion(at: lines.starts[line], String(repeating: " ", count: max(0, steps.keyPosition.column - 1)) + "\(section): { \(event):\(yamlValue) }" + newlineText, lines: lines)
            }
        }
        guard let edit, readsBack(edit, in: document, check: check) else { return nil }
        return edit
    }

    /// The edits that guard the option whose `if` is `source` with `exists(path)`: `exists(path) && (` before the
    /// condition's text and `)` after it, where both ends are exact (a condition on one line as written).
    static func guarding(_ source: ExpressionSource, with path: String, in document: EditorDocument) -> [TextEdit]? {
        let count = source.text.unicodeScalars.count
        guard source.literal == nil, source.isExact(ofOffset: 0), source.isExact(ofOffset: count),
              !source.text.contains("\n") else { return nil }
        let lines = LineIndex(lint: document.bytes, format: document.format)
        guard let start = lines.offset(of: source.position(ofOffset: 0)), let end = lines.offset(of: source.position(ofOffset: count)),
              start <= end else { return nil }
        // Not a condition behind an anchor (`if: &c …`): an alias elsewhere is the same text, used for more.
        let valueStart = source.quoted ? max(0, start - 1) : start
        guard !FixEdits.isAnchored(before: valueStart, in: document.bytes) else { return nil }
        // Text a plain YAML scalar cannot start with stays quoted: the guard goes inside the quotes only.
        let before = insertion(at: start, "exists(\(path)) && (", lines: lines)
        let after = insertion(at: end, ")", lines: lines)
        let edits = [before, after]
        guard FixPlan.readingBack(edits, in: document.bytes, path: document.path).count == 2,
              let flow = FlowLoader.load(bytes: FixEdits.apply(edits, to: document.bytes), file: document.path, format: document.format).flow else { return nil }
        // The guarded condition parses and reads the guard.
        let conditions = flow.steps.flatMap { $0.on.flatMap(\.targets) + ($0.next ?? []) } .compactMap(\.condition)
        guard conditions.contains(where: { $0.position == source.position && $0.text == "exists(\(path)) && (\(source.text))"
                                           && (try? ExpressionParser.parse($0).get()) != nil }) else { return nil }
        return edits
    }

    /// The file's first line break (`\r\n`, `\r` or `\n`; `\n` for a file of one line).
    static func lineBreak(of bytes: [UInt8]) -> String {
        guard let index = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { return "\n" }
        if bytes[index] == 0x0A { return "\n" }
        return index + 1 < bytes.count && bytes[index + 1] == 0x0A ? "\r\n" : "\r"
    }

    /// Whether the line (0-based) holds only blanks or a comment.
    static func isBlankOrComment(line: Int, in bytes: [UInt8], lines: LineIndex) -> Bool {
        var index = lines.starts[line]
        let end = lines.end(ofLine: line)
        while index < end && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
        return index >= end || bytes[index] == UInt8(ascii: "#")
    }

    private static func insertion(at offset: Int, _ text: String, lines: LineIndex) -> TextEdit {
        let position = lines.position(of: offset)
        return TextEdit(start: position, end: position, bytes: offset..<offset, newText: text)
    }

    /// Whether `document` with `edit` reads back (see `FixPlan.readingBack`) and its flow passes `check`.
    private static func readsBack(_ edit: TextEdit, in document: EditorDocument, check: (Flow) -> Bool) -> Bool {
        guard !FixPlan.readingBack([edit], in: document.bytes, path: document.path).isEmpty else { return false }
        let fixed = FixEdits.apply([edit], to: document.bytes)
        guard let flow = FlowLoader.load(bytes: fixed, file: document.path, format: document.format).flow else { return false }
        return check(flow)
    }

    /// The offset of the `}` that closes the `{` at `start`, skipping quoted text (and, in YAML, comments).
    private static func closing(from start: Int, in bytes: [UInt8], json: Bool) -> Int? {
        var depth = 0
        var index = start
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == UInt8(ascii: "\\") && open == UInt8(ascii: "\"") {
                    index += 1
                } else if byte == open {
                    if open == UInt8(ascii: "'") && index + 1 < bytes.count && bytes[index + 1] == open { index += 1 } else { quote = nil }
                }
            } else if byte == UInt8(ascii: "\"") || (!json && byte == UInt8(ascii: "'")) {
                quote = byte
            } else if !json && byte == UInt8(ascii: "#") && index > 0 && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index - 1]) {
                while index < bytes.count && bytes[index] != 0x0A && bytes[index] != 0x0D { index += 1 }
                continue
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return byte == UInt8(ascii: "}") ? index : nil }
            }
            index += 1
        }
        return nil
    }
}
