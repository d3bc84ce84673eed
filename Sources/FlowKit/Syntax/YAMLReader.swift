import CYaml
import Foundation

/// Reads YAML text into the positioned document tree, from the event stream of the libyaml that Yams ships.
///
/// Composing from events (rather than `Yams.compose`) keeps the walk iterative, reports every duplicate key
/// as a finding instead of failing the whole document, bounds the expansion of aliases, and resolves scalars
/// with YAML 1.2's core schema (`on`, `yes`, `no` are strings).
package enum YAMLReader {
    /// Parses `bytes` (the raw file contents) of the file named `file`.
    package static func parse(_ bytes: [UInt8], file: String, limits: ReaderLimits = .standard) -> ParsedDocument {
        bytes.withUnsafeBufferPointer { buffer in
            var composer = Composer(bytes: buffer, file: file, limits: limits)
            return composer.run()
        }
    }

    /// A plain scalar written as a number that a 64-bit value cannot hold.
    struct OutOfRange: Error {
        /// The finding's message.
        let message: Message
    }

    /// Resolves a plain scalar's text under YAML 1.2's core schema: only its forms are numbers (`[-+]?[0-9]+`,
    /// `0o[0-7]+`, `0x[0-9a-fA-F]+`, and its floats), anything else is a string. An integer beyond 64 bits, or a
    /// float literal beyond the finite doubles, throws rather than being clamped or read as another number.
    static func resolvePlain(_ text: String) throws(OutOfRange) -> Scalar.Kind {
        // Most plain scalars are names: only a few first characters can start a null, boolean or number.
        guard let first = text.utf8.first else { return .null }
        switch first {
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"),
             UInt8(ascii: "F"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            break
        default:
            return .string
        }
        // The named values are at most five bytes long; a longer text is compared with none of them.
        // Each is compared only with the named values its first character can start (`next` with `null` alone).
        if text.utf8.count <= 5 {
            switch first {
            case UInt8(ascii: "~"): if text == "~" { return .null }
            case UInt8(ascii: "n"): if text == "null" { return .null }
            case UInt8(ascii: "N"): if text == "Null" || text == "NULL" { return .null }
            case UInt8(ascii: "t"): if text == "true" { return .bool(true) }
            case UInt8(ascii: "T"): if text == "True" || text == "TRUE" { return .bool(true) }
            case UInt8(ascii: "f"): if text == "false" { return .bool(false) }
            case UInt8(ascii: "F"): if text == "False" || text == "FALSE" { return .bool(false) }
            case UInt8(ascii: "."):
                switch text {
                case ".inf", ".Inf", ".INF": return .number(.infinity)
                case ".nan", ".NaN", ".NAN": return .number(.nan)
                default: break
                }
            case UInt8(ascii: "+"): if text == "+.inf" || text == "+.Inf" || text == "+.INF" { return .number(.infinity) }
            case UInt8(ascii: "-"): if text == "-.inf" || text == "-.Inf" || text == "-.INF" { return .number(-.infinity) }
            default: break
            }
        }
        // Past the named values, only a digit, a sign or a point can start a number.
        switch first {
        case UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
        default: return .string
        }
        let utf8 = Array(text.utf8)
        if utf8.count > 2, utf8[0] == UInt8(ascii: "0"), utf8[1] == UInt8(ascii: "x") || utf8[1] == UInt8(ascii: "o") {
            let hex = utf8[1] == UInt8(ascii: "x")
            let digits = utf8[2...]
            let valid = digits.allSatisfy { byte in
                hex ? (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
                    : byte >= 0x30 && byte <= 0x37
            }
            guard valid else { return .string }
            guard let value = Int64(String(decoding: digits, as: UTF8.self), radix: hex ? 16 : 8) else { throw tooLarge(text) }
            return .int(value)
        }
        if isDecimalInteger(utf8) {
            guard let value = Int64(text) else { throw tooLarge(text) }
            return .int(value)
        }
        if isFloat(utf8), let value = Double(text) {
            guard value.isFinite else { throw OutOfRange(message: "number '\(name: text, limit: 40)' is out of range") }
            return .number(value)
        }
        return .string
    }

    private static func tooLarge(_ text: String) -> OutOfRange {
        OutOfRange(message: "integer '\(name: text, limit: 40)' does not fit in 64 bits "
                   + "(-9223372036854775808 to 9223372036854775807)")
    }

    private static func isDecimalInteger(_ utf8: [UInt8]) -> Bool {
        var index = 0
        if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") { index += 1 }
        guard index < utf8.count else { return false }
        return utf8[index...].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
    private static func isFloat(_ utf8: [UInt8]) -> Bool {
        let digit: ClosedRange<UInt8> = UInt8(ascii: "0")...UInt8(ascii: "9")
        var index = 0
        func digits() -> Int {
            let begin = index
            while index < utf8.count, digit.contains(utf8[index]) { index += 1 }
            return index - begin
        }
        if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") { index += 1 }
        let whole = digits()
        if index < utf8.count, utf8[index] == UInt8(ascii: ".") {
            index += 1
            let fraction = digits()
            if whole == 0 && fraction == 0 { return false }
        } else if whole == 0 {
            return false
        }
        if index < utf8.count, utf8[index] == UInt8(ascii: "e") || utf8[index] == UInt8(ascii: "E") {
            index += 1
            if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") { index += 1 }
            if digits() == 0 { return false }
        }
        return index == utf8.count
    }
}

/// Builds the tree from libyaml events with an explicit stack.
private struct Composer {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    let limits: ReaderLimits
    var diagnostics: [Diagnostic] = []

    /// An open collection, mutated in place at the top of the stack; its children wait on the composer's item or
    /// entry stack from `start` on, and move into one array of exactly their number when it closes.
    package struct Frame {
        let isMapping: Bool
        let position: SourcePosition
        let anchor: String?
        /// Where the children start on `items` (a list) or `entries` (a mapping).
        let start: Int
        var pendingKey: (String, SourcePosition)?
        /// Whether the pending key is a plain `<<`, a YAML merge key.
        var pendingMerge = false
        /// Key to index in `entries`, once the mapping is too long to search its entries.
        var index: [String: Int]?
        var nodes = 1
    }

    /// The children of the open lists, innermost last.
    var items = MoveStack<Node>()
    /// The entries of the open mappings, innermost last.
    var entries = MoveStack<Node.Entry>()

    /// Where `key` was first written in the innermost mapping, the frame at `top`, when it was.
    func firstPosition(of key: String, top: Int) -> SourcePosition? {
        if stack[top].index != nil { return stack[top].index![key].map { entries[$0].keyPosition } }
        for k in stack[top].start..<entries.count where entries[k].key == key { return entries[k].keyPosition }
        return nil
    }

    /// Records a new entry of the innermost mapping, the frame at `top`.
    mutating func append(_ entry: consuming Node.Entry, top: Int) {
        let key = entry.key
        let index = entries.count
        entries.push(entry)
        if stack[top].index != nil {
            stack[top].index![key] = index
        } else if index + 1 - stack[top].start == 16 {
            var keys: [String: Int] = [:]
            keys.reserveCapacity(32)
            // The first of equal keys is kept (a duplicate is never pushed, so there are none).
            for k in stack[top].start...index where keys[entries[k].key] == nil { keys[entries[k].key] = k }
            stack[top].index = keys
        }
    }

    var stack: [Frame] = []
    var anchors: [String: (node: Node, count: Int)] = [:]
    var totalNodes = 0
    var root: Node?

    init(bytes: UnsafeBufferPointer<UInt8>, file: String, limits: ReaderLimits) {
        // A UTF-8 byte order mark is no character of the document (libyaml, told the encoding, would count it as
        // a column of the first line).
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        self.bytes = bytes.starts(with: bom) ? UnsafeBufferPointer(rebasing: bytes[3...]) : bytes
        self.file = file
        self.limits = limits
    }

    struct Stop: Error {}

    mutating func fail(_ message: Message, at position: SourcePosition) -> Stop {
        report(message, at: position)
        return Stop()
    }

    /// A `syntax` finding after which reading goes on: the document is read whole (so its other findings show),
    /// but it is not well formed, so it is not analysed further and does not run.
    mutating func report(_ message: Message, at position: SourcePosition, fix: Fix? = nil) {
        var diagnostic = Diagnostic(file: file, position: position, severity: .error, rule: .syntax, message: message.text)
        diagnostic.fix = fix
        diagnostics.append(diagnostic)
    }

    /// Reports a YAML feature the flow format gives no meaning to (docs/format.md, "Files"): a tag on a node, which
    /// the YAML reader would otherwise drop or obey (`wrongPassword: !result.ok` is an empty value tagged
    /// `!result.ok`, not an expression).
    /// `value` is a scalar's text when it was written plain (nil for a collection or a quoted scalar).
    mutating func checkTag(_ pointer: UnsafeMutablePointer<yaml_char_t>?, value: String?, at position: SourcePosition) {
        guard let tag = optionalString(pointer) else { return }
        let core = "tag:yaml.org,2002:"
        let written = tag.hasPrefix(core) ? "!!" + tag.dropFirst(core.count) : tag.hasPrefix("!") ? tag : "!<\(tag)>"
        let shown: Message = "\(name: written, limit: 40)"
        if written == "!", let value, !value.isEmpty {
            // `! state.done`: a '!' and a space read as the non-specific tag, where a negation was meant; removing
            // the tag would turn the condition around.
            report("'! ' is read as a YAML tag, not as 'not'; quote the expression: \"! \(name: value, limit: 40)\"", at: position)
        } else if let value, value.isEmpty, written.hasPrefix("!"), !written.hasPrefix("!!"), !written.hasPrefix("!<") {
            // An empty value after a tag: the tag was meant as the value (an expression such as `!result.ok`).
            report("'\(name: written, limit: 40)' is read as a YAML tag, not as text or an expression, and the value is left empty; "
                   + "quote it: \"\(shown)\"", at: position)
        } else {
            report("YAML tags ('\(name: written, limit: 40)') have no meaning in a flow file; remove the tag (quote the value to make it text)",
                   at: position)
        }
    }

    mutating func run() -> ParsedDocument {
        // The stacks' storage is freed on every way out, the early ones included.
        defer {
            items.release()
            entries.release()
        }
        if bytes.count > limits.maxBytes {
            _ = fail("the file is too large: the limit is \(limits.maxBytes) bytes", at: .start)
            return ParsedDocument(root: nil, diagnostics: diagnostics)
        }
        if let (offset, message) = SourceText.firstInvalidByte(in: bytes) {
            _ = fail(Message(verbatim: message), at: SourceText.position(ofByteOffset: offset, in: bytes))
            return ParsedDocument(root: nil, diagnostics: diagnostics)
        }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            _ = fail("the YAML parser could not start", at: .start)
            return ParsedDocument(root: nil, diagnostics: diagnostics)
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
        do {
            try consume(&parser)
        } catch {
            return ParsedDocument(root: nil, diagnostics: diagnostics)
        }
        guard let root else {
            _ = fail("the file is empty", at: .start)
            return ParsedDocument(root: nil, diagnostics: diagnostics)
        }
        return ParsedDocument(root: root, diagnostics: diagnostics)
    }

    /// A character index (as libyaml counts, a line break `\r\n` as two) and its byte offset in `bytes`: where the
    /// last raw scalar was looked up, so that finding the next one reads on from there.
    var cursor = (index: 0, byte: 0)

    /// The byte offset of the character at `index`, reading on from `cursor` (scalars come in document order).
    mutating func byteOffset(ofCharacter index: Int) -> Int {
        if index < cursor.index { cursor = (0, 0) }
        var (at, byte) = cursor
        while at < index && byte < bytes.count {
            let lead = bytes[byte]
            byte += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            at += 1
        }
        cursor = (at, min(byte, bytes.count))
        return cursor.byte
    }

    /// The scalar as written, when its value cannot be mapped back to the file by counting: a block scalar, one
    /// over several lines, a quoted one with escapes (its written length is not its value's plus the quotes).
    mutating func rawScalar(_ event: yaml_event_t, style: yaml_scalar_style_t, text: String, at position: SourcePosition) -> RawScalar? {
        let (start, end) = (event.start_mark, event.end_mark)
        let rawStyle: RawScalar.Style
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: rawStyle = .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: rawStyle = .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE: rawStyle = .block
        default: rawStyle = .plain
        }
        let written = Int(end.index) - Int(start.index)
        let oneLine = start.line == end.line
        // An anchor or a tag comes before the scalar's own text (the event starts there): always kept, with the text
        // from the scalar's own first character.
        let properties = event.data.scalar.anchor != nil || event.data.scalar.tag != nil
        if !properties {
            switch rawStyle {
            case .plain: if oneLine { return nil }
            case .singleQuoted, .doubleQuoted: if oneLine && written == text.unicodeScalars.count + 2 { return nil }
            case .block, .json: break
            }
        }
        var from = byteOffset(ofCharacter: Int(start.index))
        let to = byteOffset(ofCharacter: Int(end.index))
        guard from <= to else { return nil }
        var at = position
        if properties {
            // Past each `&anchor` and `!tag`, and the blanks and line breaks after them.
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
            while from < to {
                let byte = bytes[from]
                if byte == UInt8(ascii: "&") || byte == UInt8(ascii: "!") {
                    while from < to && !isSpace(bytes[from]) {
                        from += 1
                        if bytes[from - 1] < 0x80 || bytes[from - 1] >= 0xC0 { at.column += 1 }
                    }
                } else if byte == 0x20 || byte == 0x09 {
                    from += 1
                    at.column += 1
                } else if byte == 0x0A || byte == 0x0D {
                    from += byte == 0x0D && from + 1 < to && bytes[from + 1] == 0x0A ? 2 : 1
                    at = SourcePosition(line: at.line + 1, column: 1)
                } else {
                    break
                }
            }
        }
        return RawScalar(text: String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self), style: rawStyle, start: at)
    }

    mutating func consume(_ parser: inout yaml_parser_t) throws {
        var documents = 0
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else {
                throw parserError(parser)
            }
            defer { yaml_event_delete(&event) }
            let position = SourcePosition(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    throw fail("a flow file holds one YAML document, but a second one starts here", at: position)
                }
                let start = event.data.document_start
                checkDirectives(version: start.version_directive, hasTags: start.tag_directives.start != start.tag_directives.end, at: position)
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = string(scalar.value, length: Int(scalar.length))
                let plain = scalar.style == YAML_PLAIN_SCALAR_STYLE
                checkTag(scalar.tag, value: plain ? text : nil, at: position)
                checkAnchor(scalar.anchor, at: position)
                var kind: Scalar.Kind = .string
                // A tag is reported (above) and otherwise ignored: the value is read as written without it, so the
                // tag's finding is the only one it causes.
                if plain {
                    do {
                        kind = try YAMLReader.resolvePlain(text)
                    } catch {
                        throw fail(error.message, at: position)
                    }
                }
                let raw = rawScalar(event, style: scalar.style, text: text, at: position)
                try add(Node(.scalar(Scalar(kind: kind, text: text, quoted: !plain, raw: raw)), at: position), count: 1,
                        anchor: optionalString(scalar.anchor), at: position)
            case YAML_ALIAS_EVENT:
                let name = string(event.data.alias.anchor, length: nil)
                guard let target = anchors[name] else {
                    throw fail("alias '*\(name: name)' names no anchor defined before it", at: position)
                }
                try add(target.node, count: target.count, anchor: nil, at: position)
            case YAML_SEQUENCE_START_EVENT:
                checkTag(event.data.sequence_start.tag, value: nil, at: position)
                checkAnchor(event.data.sequence_start.anchor, at: position)
                try open(at: position)
                stack.append(Frame(isMapping: false, position: position, anchor: optionalString(event.data.sequence_start.anchor),
                                   start: items.count))
            case YAML_MAPPING_START_EVENT:
                checkTag(event.data.mapping_start.tag, value: nil, at: position)
                checkAnchor(event.data.mapping_start.anchor, at: position)
                try open(at: position)
                stack.append(Frame(isMapping: true, position: position, anchor: optionalString(event.data.mapping_start.anchor),
                                   start: entries.count))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                let frame = stack.removeLast()
                let node = Node(frame.isMapping ? .mapping(entries.popArray(from: frame.start)) : .sequence(items.popArray(from: frame.start)),
                                at: frame.position)
                try add(node, count: frame.nodes, anchor: frame.anchor, at: frame.position, counted: true)
            default:
                break
            }
        }
    }

    /// Reports the directives that would change how the document reads: `%YAML` for a version other than 1.2
    /// (1.1 reads `yes`, `no`, `on`, `off` as booleans and `017` as octal; flowkit reads the 1.2 core schema), and
    /// `%TAG`, which only serves tags.
    /// Where each anchor name was first written, in document order (a collection's anchor is written before its
    /// contents'): YAML lets an alias mean the latest value of its anchor, so a name anchored twice would make the
    /// same `*x` mean different values in different places, which the format does not allow.
    var anchorPositions: [String: SourcePosition] = [:]

    mutating func checkAnchor(_ pointer: UnsafeMutablePointer<yaml_char_t>?, at position: SourcePosition) {
        guard let anchor = optionalString(pointer) else { return }
        if let first = anchorPositions[anchor] {
            report("anchor '&\(name: anchor)' is defined again (first at line \(first.line), column \(first.column)), "
                   + "so an alias '*\(name: anchor)' means one value or the other depending on where it is; give each anchor a name of its own",
                   at: position)
        } else {
            anchorPositions[anchor] = position
        }
    }

    mutating func checkDirectives(version: UnsafeMutablePointer<yaml_version_directive_t>?, hasTags: Bool, at position: SourcePosition) {
        if let version, version.pointee.major != 1 || version.pointee.minor != 2 {
            report("'%YAML \(version.pointee.major).\(version.pointee.minor)' asks for another YAML than flowkit reads: flow files are "
                   + "YAML 1.2 (where 'yes', 'no', 'on' and 'off' are text and '017' is 17); remove the directive", at: position)
        }
        if hasTags {
            report("'%TAG' directives have no meaning in a flow file (it has no tags); remove them", at: position)
        }
    }

    mutating func open(at position: SourcePosition) throws {
        if stack.count >= limits.maxDepth {
            throw fail("nesting is deeper than \(limits.maxDepth) levels", at: position)
        }
        // The top frame is read in place: a copy of it would retain and release everything it holds.
        if !stack.isEmpty, stack[stack.count - 1].isMapping, stack[stack.count - 1].pendingKey == nil {
            throw fail("a mapping key must be a plain name, not a list or a mapping", at: position)
        }
        try count(1, at: position)
    }

    mutating func count(_ nodes: Int, at position: SourcePosition) throws {
        totalNodes += nodes
        if totalNodes > limits.maxNodes {
            throw fail("the document has more than \(limits.maxNodes) values once its aliases are expanded", at: position)
        }
    }

    /// Adds a finished node to the open collection (or makes it the root), registering its anchor.
    mutating func add(_ node: Node, count nodes: Int, anchor: String?, at position: SourcePosition, counted: Bool = false) throws {
        if !counted { try count(nodes, at: position) }
        if let anchor { anchors[anchor] = (node, nodes) }
        guard !stack.isEmpty else {
            root = node
            return
        }
        let top = stack.count - 1
        stack[top].nodes += nodes
        guard stack[top].isMapping else {
            items.push(node)
            return
        }
        if let (key, keyPosition) = stack[top].pendingKey {
            stack[top].pendingKey = nil
            if stack[top].pendingMerge {
                // A merge key would copy another mapping's keys in YAML 1.1; YAML 1.2 and the format have no such
                // thing, so the entry is reported and left out (not read as a key named `<<`).
                stack[top].pendingMerge = false
                report("YAML merge keys ('<<') are not part of the flow format; write the keys out "
                       + "(handlers that every step shares go on the '\"*\"' step)", at: keyPosition)
            } else if let first = firstPosition(of: key, top: top) {
                diagnostics.append(Diagnostic(
                    file: file, position: keyPosition, severity: .error, rule: .duplicateKey,
                    message: ("duplicate key '\(name: key)' (first at line \(first.line), column \(first.column))" as Message).text))
            } else {
                append(Node.Entry(key: key, keyPosition: keyPosition, value: node), top: top)
            }
        } else {
            guard let scalar = node.scalar else {
                throw fail("a mapping key must be a plain name, not a list or a mapping", at: position)
            }
            let key = scalar.text.keyForm
            stack[top].pendingKey = (key, node.position)
            stack[top].pendingMerge = !scalar.quoted && key == "<<"
        }
    }

    mutating func parserError(_ parser: yaml_parser_t) -> Stop {
        let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        let position: SourcePosition
        if parser.error == YAML_READER_ERROR {
            position = SourceText.position(ofByteOffset: Int(parser.problem_offset), in: bytes)
        } else {
            position = SourcePosition(line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1)
        }
        var message = problem
        if let context = parser.context.map({ String(cString: $0) }), !context.hasPrefix("while scanning for") {
            let contextPosition = SourcePosition(line: Int(parser.context_mark.line) + 1, column: Int(parser.context_mark.column) + 1)
            var subject = context
            for prefix in ["while parsing ", "while scanning "] where subject.hasPrefix(prefix) {
                var rest = String(subject.dropFirst(prefix.count))
                for article in ["an ", "a "] where rest.hasPrefix(article) { rest = String(rest.dropFirst(article.count)) }
                subject = "in the " + rest + " that starts"
            }
            message = "\(problem) (\(subject) at line \(contextPosition.line), column \(contextPosition.column))"
        }
        if problem.hasPrefix("found character that cannot start any token"), characterIsTab(at: position) {
            message = "a tab cannot indent YAML; use spaces"
        }
        let contextStart = SourcePosition(line: Int(parser.context_mark.line) + 1, column: Int(parser.context_mark.column) + 1)
        if let hint = YAMLHints.hint(problem: problem, context: parser.context.map { String(cString: $0) },
                                     line: lineText(at: position), contextLine: lineText(at: SourcePosition(line: contextStart.line, column: 1))) {
            message += "; " + hint
            // `*:` for the shared step: the fix quotes the `*` the alias starts at.
            if hint == YAMLHints.unquotedStar {
                report(Message(verbatim: message), at: position, fix: .quotingStar(at: contextStart))
                return Stop()
            }
        }
        if problem.contains("Maximum nesting level") {
            // libyaml scans ahead over the brackets and stops at its own limit (1,000 levels), far from ours.
            return fail("nesting is deeper than \(limits.maxDepth) levels", at: flowOpener(beyond: limits.maxDepth - stack.count) ?? position)
        }
        return fail(Message(verbatim: message), at: position)
    }

    /// Where the flow collections (`[`, `{`) first nest more than `levels` deep, outside quotes and comments.
    func flowOpener(beyond levels: Int) -> SourcePosition? {
        var depth = 0
        var index = 0
        var quote: UInt8?
        var lineStart = true
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == UInt8(ascii: "\\") && open == UInt8(ascii: "\"") {
                    index += 1
                } else if byte == open {
                    quote = nil
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    // A quote opens quoted text only where a value can start.
                    if index == 0 || [0x20, 0x09, 0x0A, 0x5B, 0x7B, 0x2C, 0x3A].contains(bytes[index - 1]) { quote = byte }
                case UInt8(ascii: "#") where lineStart || index > 0 && (bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09):
                    while index < bytes.count && bytes[index] != 0x0A { index += 1 }
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > max(levels, 0) { return SourceText.position(ofByteOffset: index, in: bytes) }
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
            }
            lineStart = byte == 0x0A
            index += 1
        }
        return nil
    }

    /// The text of the line `position` is on (without its line break), or "" past the end.
    func lineText(at position: SourcePosition) -> String {
        var line = 1
        var index = 0
        while index < bytes.count, line < position.line {
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        var end = index
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
    }

    /// Whether the character at `position` is a tab.
    func characterIsTab(at position: SourcePosition) -> Bool {
        let scalars = Array(lineText(at: position).unicodeScalars)
        return position.column >= 1 && position.column <= scalars.count && scalars[position.column - 1] == "\t"
    }

    package func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int?) -> String {
        guard let pointer else { return "" }
        let count = length ?? strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func optionalString(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { string($0, length: nil) }
    }
}

extension String {
    /// The string in Unicode normalisation form C, so that keys written in different forms compare equal.
    var precomposedForm: String {
        precomposedStringWithCanonicalMapping
    }

    /// The string as a mapping key: itself when it is ASCII (which NFC leaves alone), else `precomposedForm`.
    var keyForm: String {
        // The bytes in place, when the string has them contiguous (a native string does): a loop over the UTF-8
        // view would cost several times more per byte.
        let ascii = utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } }
            ?? utf8.allSatisfy { $0 < 0x80 }
        return ascii ? self : precomposedForm
    }
}
