import Foundation

/// A 1-based line and column in a source file; columns count Unicode scalars, as libyaml does.
///
/// Kept in 32 bits each (positions are in every node, name and finding, so a position is 8 bytes rather than 16); a
/// line or column beyond `Int32.max` is stored as `Int32.max` (docs/format.md, "Positions").
public struct SourcePosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    private var storedLine: Int32
    private var storedColumn: Int32

    /// The 1-based line.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }
    /// The 1-based column, in Unicode scalars.
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    /// Creates a position from a 1-based line and column.
    public init(line: Int, column: Int) {
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    /// The first character of a file.
    public static let start = SourcePosition(line: 1, column: 1)

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.storedLine, lhs.storedColumn) < (rhs.storedLine, rhs.storedColumn)
    }

    public var description: String { "\(line):\(column)" }
}

/// A scalar value of a flow document with the text it was written as.
package struct Scalar: Hashable, Sendable {
    /// What the scalar resolved to under the JSON rules or YAML 1.2's core schema.
    package enum Kind: Hashable, Sendable {
        /// `null`, `~` or an empty YAML value.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// An integer that fits in 64 bits.
        case int(Int64)
        /// A number written as a float (an integer too large for 64 bits is a `syntax` finding, never a number).
        case number(Double)
        /// A string.
        case string
    }

    /// The resolved kind.
    package var kind: Kind
    /// The text: the decoded string for strings, the literal as written otherwise.
    package var text: String
    /// Whether the scalar was quoted (JSON strings, YAML quoted or block scalars).
    package var quoted: Bool
    /// The scalar as written, when its text cannot be mapped back to the file by counting (escapes, several
    /// lines); nil for one written on one line as its text is (after its quote).
    package var raw: RawScalar?

    /// Creates a scalar.
    package init(kind: Kind, text: String, quoted: Bool, raw: RawScalar? = nil) {
        self.kind = kind
        self.text = text
        self.quoted = quoted
        self.raw = raw
    }
}

/// One node of the positioned document tree that both the JSON and the YAML reader build.
package struct Node: Sendable {
    /// The node's content.
    package enum Value: Sendable {
        /// A scalar.
        case scalar(Scalar)
        /// A sequence of nodes.
        case sequence([Node])
        /// A mapping, keys in document order (duplicates already removed and reported).
        case mapping([Entry])
    }

    /// One key and value of a mapping; the key keeps its own position.
    package struct Entry: Sendable {
        /// The key's text (normalised to NFC).
        package var key: String
        /// Where the key starts.
        package var keyPosition: SourcePosition
        /// The value.
        package var value: Node

        /// Creates a mapping entry.
        package init(key: String, keyPosition: SourcePosition, value: Node) {
            self.key = key
            self.keyPosition = keyPosition
            self.value = value
        }
    }

    /// The content.
    package var value: Value
    /// Where the node starts.
    package var position: SourcePosition

    /// Creates a node.
    package init(_ value: Value, at position: SourcePosition) {
        self.value = value
        self.position = position
    }

    /// The scalar, when this node is one.
    package var scalar: Scalar? {
        if case .scalar(let scalar) = value { return scalar }
        return nil
    }

    /// The entries, when this node is a mapping.
    package var entries: [Entry]? {
        if case .mapping(let entries) = value { return entries }
        return nil
    }

    /// The items, when this node is a sequence.
    package var items: [Node]? {
        if case .sequence(let items) = value { return items }
        return nil
    }

    /// The value of `key`, when this node is a mapping that has it.
    package subscript(key: String) -> Node? {
        // The entries compared in place: `first(where:)` would copy each entry it passes (its key and its node).
        guard case .mapping(let entries) = value else { return nil }
        for index in entries.indices where entries[index].key == key { return entries[index].value }
        return nil
    }

    /// The plain value as Foundation objects (`NSNull`, `Bool`, `Int64`, `Double`, `String`, arrays, dictionaries), for JSON output and comparisons.
    package var foundationValue: Any {
        switch value {
        case .scalar(let scalar):
            switch scalar.kind {
            case .null: return NSNull()
            case .bool(let b): return b
            case .int(let i): return i
            case .number(let d): return d
            case .string: return scalar.text
            }
        case .sequence(let items):
            return items.map(\.foundationValue)
        case .mapping(let entries):
            var dict: [String: Any] = [:]
            for entry in entries { dict[entry.key] = entry.value.foundationValue }
            return dict
        }
    }

    /// The node as JSON text with mapping keys in document order (declaration order matters in flows), for
    /// writing a YAML flow's JSON twin.
    package var jsonText: String {
        switch value {
        case .scalar(let scalar):
            switch scalar.kind {
            case .string: return JSONText.string(scalar.text)
            case .null: return "null"
            case .bool(let flag): return flag ? "true" : "false"
            case .int(let number): return String(number)
            case .number(let number): return number.isFinite ? "\(number)" : "null"
            }
        case .sequence(let items):
            return "[" + items.map(\.jsonText).joined(separator: ", ") + "]"
        case .mapping(let entries):
            return "{" + entries.map { JSONText.string($0.key) + ": " + $0.value.jsonText }.joined(separator: ", ") + "}"
        }
    }

    /// A short name of the node's kind for messages ("a mapping", "a string", ...).
    package var kindDescription: String {
        switch value {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let scalar):
            switch scalar.kind {
            case .null: return "null"
            case .bool: return "a boolean"
            case .int: return "an integer"
            case .number: return "a number"
            case .string: return "a string"
            }
        }
    }
}

/// What a reader makes of a file's text: the document when it could be read, and the findings on the way.
package struct ParsedDocument: Sendable {
    /// The root node, or nil when the text is not a readable document.
    package var root: Node?
    /// `syntax` and `duplicate_key` findings, in the order found.
    package var diagnostics: [Diagnostic]

    /// Creates a parse result.
    package init(root: Node?, diagnostics: [Diagnostic]) {
        self.root = root
        self.diagnostics = diagnostics
    }
}

/// The bounds every reader enforces on untrusted input.
public struct ReaderLimits: Sendable {
    /// The deepest nesting of lists and mappings accepted.
    public var maxDepth: Int
    /// The most nodes a document may have, aliases expanded.
    public var maxNodes: Int
    /// The largest file accepted, in bytes.
    public var maxBytes: Int

    /// Creates limits.
    public init(maxDepth: Int = 256, maxNodes: Int = 2_000_000, maxBytes: Int = 16 << 20) {
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.maxBytes = maxBytes
    }

    /// The limits flowkit uses unless told otherwise.
    public static let standard = ReaderLimits()
}
