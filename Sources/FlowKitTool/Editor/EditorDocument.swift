import FlowKit
import Foundation

/// A document the editor has open (or one read from disk for a change it affects): its text, its version, and
/// conversions between lint's positions (1-based lines, columns in Unicode scalars) and the protocol's (0-based
/// lines, UTF-16 code units).
package final class EditorDocument: @unchecked Sendable {
    package let uri: String
    package let path: String
    package private(set) var version: Int?
    package private(set) var text: String
    package private(set) var bytes: [UInt8]
    /// The lines as lint counts them, and as the protocol does.
    private var lintLines: LineIndex
    private var protocolLines: LineIndex
    private var loadedCache: LoadedDocument?
    private var symbolsCache: FlowSymbols?

    /// The document's format, by its path's extension (YAML when it has none of the flow extensions).
    package var format: DocumentFormat { DocumentFormat(path: path) ?? .yaml }

    package init(uri: String, path: String, version: Int?, text: String) {
        self.uri = uri
        self.path = path
        self.version = version
        self.text = text
        self.bytes = Array(text.utf8)
        lintLines = LineIndex(lint: bytes, format: DocumentFormat(path: path) ?? .yaml)
        protocolLines = LineIndex(protocol: bytes)
    }

    /// A document read from disk, its bytes as they are (a file that is not UTF-8 is linted as lint reads it).
    package init(uri: String, path: String, bytes: [UInt8]) {
        self.uri = uri
        self.path = path
        self.version = nil
        self.text = String(decoding: bytes, as: UTF8.self)
        self.bytes = bytes
        lintLines = LineIndex(lint: bytes, format: DocumentFormat(path: path) ?? .yaml)
        protocolLines = LineIndex(protocol: bytes)
    }

    /// Replaces the text (a full change), or a range of it.
    package func change(_ change: LSPTextDocumentContentChangeEvent, version: Int) {
        self.version = version
        if let range = change.range {
            let start = byteOffset(range.start)
            let end = max(start, byteOffset(range.end))
            bytes.replaceSubrange(start..<end, with: Array(change.text.utf8))
            text = String(decoding: bytes, as: UTF8.self)
        } else {
            text = change.text
            bytes = Array(text.utf8)
        }
        loadedCache = nil
        symbolsCache = nil
        lintLines = LineIndex(lint: bytes, format: format)
        protocolLines = LineIndex(protocol: bytes)
    }

    /// The document loaded as lint loads it.
    package var loaded: LoadedDocument {
        if let loadedCache { return loadedCache }
        let document = FlowLoader.load(bytes: bytes, file: path, format: format)
        loadedCache = document
        return document
    }

    /// The names written in the document and what they are.
    package var symbols: FlowSymbols {
        if let symbolsCache { return symbolsCache }
        let symbols = FlowSymbols(loaded, bytes: bytes, lines: lintLines)
        symbolsCache = symbols
        return symbols
    }

    /// The byte offset of lint's position: exact when the file has it, else the end of its line (or of the file).
    func byteOffset(_ position: SourcePosition) -> Int {
        if let offset = lintLines.offset(of: position) { return offset }
        let line = max(1, min(position.line, lintLines.count))
        return lintLines.end(ofLine: line - 1)
    }

    /// The protocol's position of a byte offset: its line as the protocol counts lines, its character in UTF-16
    /// code units from the line's start.
    func lspPosition(ofByte offset: Int) -> LSPPosition {
        let offset = max(0, min(offset, bytes.count))
        let line = protocolLines.line(of: offset)
        let start = protocolLines.starts[line]
        return LSPPosition(line: line, character: String(decoding: bytes[start..<max(start, offset)], as: UTF8.self).utf16.count)
    }

    /// Lint's position as the protocol's (a position the file does not have: the end of its line).
    package func lspPosition(_ position: SourcePosition) -> LSPPosition {
        lspPosition(ofByte: byteOffset(position))
    }

    /// The byte offset of the protocol's position, clamped to the document (a line past its end is its end; a
    /// character past its line's end, the line's end).
    func byteOffset(_ position: LSPPosition) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < protocolLines.count else { return bytes.count }
        let start = protocolLines.starts[position.line]
        let end = protocolLines.end(ofLine: position.line)
        var utf16 = 0
        var offset = start
        for scalar in String(decoding: bytes[start..<end], as: UTF8.self).unicodeScalars {
            guard utf16 < position.character else { break }
            utf16 += scalar.utf16.count
            offset += scalar.utf8.count
        }
        return min(offset, end)
    }

    /// The protocol's position as lint's.
    package func sourcePosition(_ position: LSPPosition) -> SourcePosition {
        lintLines.position(of: byteOffset(position))
    }

    /// The range of a token lint points at: from `position` to the end of the name or quoted text there (at least
    /// one character, never past its line).
    package func tokenRange(at position: SourcePosition) -> LSPRange {
        let start = byteOffset(position)
        let lineEnd = lintLines.end(ofLine: lintLines.line(of: start))
        var index = start
        func scalar(at index: Int) -> Unicode.Scalar? {
            guard index < lineEnd else { return nil }
            return String(decoding: bytes[index..<min(lineEnd, index + 4)], as: UTF8.self).unicodeScalars.first
        }
        if let first = scalar(at: index) {
            if first == "\"" || first == "'" {
                index += 1
                while let next = scalar(at: index) {
                    if next == first {
                        // `''` in single quotes is a quote of the text, not its end.
                        if first == "'" && scalar(at: index + 1) == "'" { index += 2; continue }
                        break
                    }
                    index += next == "\\" && first == "\"" ? 1 + (scalar(at: index + 1).map { $0.utf8.count } ?? 0) : next.utf8.count
                }
                index = min(lineEnd, index + 1)
            } else if FlowSymbols.isNameScalar(first) {
                while let next = scalar(at: index), FlowSymbols.isNameScalar(next) || next == "." { index += next.utf8.count }
            } else {
                index += first.utf8.count
            }
        }
        return LSPRange(start: lspPosition(ofByte: start), end: lspPosition(ofByte: min(index, lineEnd)))
    }

    /// The range of `start`..<`end` (lint positions on one line).
    package func range(_ start: SourcePosition, _ end: SourcePosition) -> LSPRange {
        LSPRange(start: lspPosition(start), end: lspPosition(end))
    }

    /// The text of the line before `position` (what completion looks at).
    package func linePrefix(_ position: LSPPosition) -> String {
        guard position.line >= 0 && position.line < protocolLines.count else { return "" }
        let start = protocolLines.starts[position.line]
        return String(decoding: bytes[start..<max(start, byteOffset(position))], as: UTF8.self)
    }

    /// The number of lines, as the protocol counts them.
    package var lineCount: Int { protocolLines.count }

    /// Whether the bytes at lint's `start` read `name` (a name written without escapes, where a rename can edit it).
    package func reads(_ name: String, at start: SourcePosition) -> Bool {
        guard let offset = lintLines.offset(of: start) else { return false }
        let expected = Array(name.utf8)
        return offset + expected.count <= bytes.count && bytes[offset..<(offset + expected.count)].elementsEqual(expected)
    }
}

/// The names written in a flow or script document, each with what it is and whether it defines it: what
/// navigation, rename, hover, completion and the outline work from.
package struct FlowSymbols: Sendable {
    /// What a name is.
    package enum Kind: Hashable, Sendable {
        case step
        case event
        case stateKey
        /// A key of a step's declared result (the step's name).
        case resultKey(String)
        /// A nested flow file, as written.
        case file
        /// A rule in `allow`.
        case rule
        /// An entry.
        case entry
    }

    /// One name written in the document.
    package struct Occurrence: Hashable, Sendable {
        package var kind: Kind
        package var name: String
        package var start: SourcePosition
        package var end: SourcePosition
        /// Whether it is the name's declaration (a step's key, an event's, a state key's, a result key's).
        package var isDefinition: Bool
        /// The step it is written in, when there is one.
        package var step: String?
        /// Whether the file reads the name at `start` as it is (no escapes, no anchor or alias): where a rename can
        /// edit it.
        package var isLiteral = true
    }

    package private(set) var occurrences: [Occurrence] = []
    /// Every expression, with the step it is written in (nil for a derived event's).
    package private(set) var expressions: [(source: ExpressionSource, step: String?)] = []
    /// The flow, when the document is one.
    package let flow: Flow?

    package init(_ document: LoadedDocument, bytes: [UInt8], lines: LineIndex) {
        flow = document.flow
        guard let flow = document.flow else { return }
        func add(_ kind: Kind, _ name: String, at position: SourcePosition, definition: Bool = false, step: String? = nil) {
            guard !name.isEmpty else { return }
            // The name itself, past an opening quote; `literal` when the file reads it there as it is (not written
            // with escapes, nor through an anchor or an alias).
            var start = position
            let written = Array(name.utf8)
            var literal = false
            if let offset = lines.offset(of: position) {
                if bytes[offset...].starts(with: written) {
                    literal = true
                } else if offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") || bytes[offset] == UInt8(ascii: "'"),
                          bytes[(offset + 1)...].starts(with: written) {
                    start.column += 1
                    literal = true
                }
                if FixEdits.isAnchored(before: offset, in: bytes) { literal = false }
            }
            occurrences.append(Occurrence(kind: kind, name: name, start: start,
                                          end: SourcePosition(line: start.line, column: start.column + name.unicodeScalars.count),
                                          isDefinition: definition, step: step, isLiteral: literal))
        }
        func expression(_ source: ExpressionSource, step: String?, result: String?) {
            expressions.append((source, step))
            guard case .success(let parsed) = ExpressionParser.parse(source) else { return }
            for path in parsed.paths {
                let offset = path.span.start + path.root.rawValue.unicodeScalars.count + 1
                // The first key only: `state.k`, `result.k` (a nested key's declaration is not a name of its own).
                guard let key = path.keys.first, source.isExact(ofOffset: offset) else { continue }
                switch path.root {
                case .state: add(.stateKey, key, at: source.position(ofOffset: offset), step: step)
                case .result: if let result { add(.resultKey(result), key, at: source.position(ofOffset: offset), step: step) }
                }
            }
        }
        add(.step, flow.start.text, at: flow.start.position)
        for field in flow.state { add(.stateKey, field.name.text, at: field.name.position, definition: true) }
        for input in flow.inputs { add(.stateKey, input.text, at: input.position) }
        for event in flow.events {
            add(.event, event.name.text, at: event.name.position, definition: true)
            if let source = event.expression { expression(source, step: nil, result: nil) }
        }
        for entry in flow.entries {
            add(.entry, entry.name.text, at: entry.name.position, definition: true)
            add(.step, entry.step.text, at: entry.step.position)
            // A path parameter (`/tariffs/{country}`) names a state key.
            guard let offset = lines.offset(of: entry.pathPosition) else { continue }
            let quoted = offset < bytes.count && (bytes[offset] == UInt8(ascii: "\"") || bytes[offset] == UInt8(ascii: "'"))
            let start = SourcePosition(line: entry.pathPosition.line, column: entry.pathPosition.column + (quoted ? 1 : 0))
            let scalars = Array(entry.path.unicodeScalars)
            var index = 0
            while index < scalars.count {
                if scalars[index] == "{", let close = scalars[index...].firstIndex(of: "}") {
                    let name = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
                    add(.stateKey, name, at: SourcePosition(line: start.line, column: start.column + index + 1))
                    index = close
                }
                index += 1
            }
        }
        for step in (flow.anyStep.map { [$0] } ?? []) + flow.steps {
            let name = step.name.text
            let isAny = name == "*"
            if !isAny { add(.step, name, at: step.name.position, definition: true, step: name) }
            let result: String? = isAny || step.kind == .flow ? nil : name
            for field in step.result ?? [] { add(.resultKey(name), field.name.text, at: field.name.position, definition: true, step: name) }
            for assignment in step.set {
                add(.stateKey, assignment.key.text, at: assignment.key.position, step: name)
                expression(assignment.expression, step: name, result: result)
            }
            for assignment in step.input { expression(assignment.expression, step: name, result: nil) }
            if let file = step.flowPath, let position = step.flowPathPosition { add(.file, file, at: position, step: name) }
            for rule in step.suppression?.rules ?? [] { add(.rule, rule.text, at: rule.position, step: name) }
            for handler in step.on { add(.event, handler.event.text, at: handler.event.position, step: name) }
            for (_, list) in step.optionLists {
                for target in list {
                    if let target = target.stepName { add(.step, target.text, at: target.position, step: name) }
                    if let condition = target.condition { expression(condition, step: name, result: result) }
                    for assignment in target.set {
                        add(.stateKey, assignment.key.text, at: assignment.key.position, step: name)
                        expression(assignment.expression, step: name, result: result)
                    }
                }
            }
        }
        occurrences.sort { $0.start < $1.start }
    }

    /// The occurrence at `position` (its end included).
    package func occurrence(at position: SourcePosition) -> Occurrence? {
        occurrences.first { $0.start.line == position.line && $0.start.column <= position.column && position.column <= $0.end.column }
    }

    /// The expression whose text (on its value's first line) covers `position`.
    package func expression(at position: SourcePosition) -> (source: ExpressionSource, step: String?)? {
        expressions.first { item in
            let start = item.source.position
            let length = item.source.text.unicodeScalars.prefix { $0 != "\n" }.count + (item.source.quoted ? 2 : 0)
            return start.line == position.line && start.column <= position.column && position.column <= start.column + length
        }
    }

    /// The declaration of `kind` named `name`.
    package func definition(_ kind: Kind, _ name: String) -> Occurrence? {
        occurrences.first { $0.isDefinition && $0.kind == kind && $0.name == name }
    }

    /// Every occurrence of `kind` named `name`.
    package func all(_ kind: Kind, _ name: String) -> [Occurrence] {
        occurrences.filter { $0.kind == kind && $0.name == name }
    }

    /// Whether `scalar` can be part of a name.
    static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") || scalar == "_"
    }

    /// Whether `text` is a name (docs/format.md, "Names").
    package static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || (first >= "a" && first <= "z") || (first >= "A" && first <= "Z") else { return false }
        return text.unicodeScalars.allSatisfy { isNameScalar($0) } && text.unicodeScalars.allSatisfy(\.isASCII)
    }
}
