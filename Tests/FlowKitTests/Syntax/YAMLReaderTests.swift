import Foundation
import Testing
@testable import FlowKit

/// Parses YAML text with the standard limits (or `limits`).
func parseYAML(_ text: String, limits: ReaderLimits = .standard) -> ParsedDocument {
    YAMLReader.parse(Array(text.utf8), file: "t.yaml", limits: limits)
}

/// A malformed YAML input and where and how it must be reported.
struct MalformedYAML: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let line: Int
    let column: Int
    let message: String

    init(_ name: String, _ text: String, _ line: Int, _ column: Int, _ message: String) {
        self.init(name, Array(text.utf8), line, column, message)
    }

    init(_ name: String, _ bytes: [UInt8], _ line: Int, _ column: Int, _ message: String) {
        self.name = name
        self.bytes = bytes
        self.line = line
        self.column = column
        self.message = message
    }

    var testDescription: String { name }
}

@Suite("YAML reader")
struct YAMLReaderTests {
    @Test func positionsOfKeysAndValues() throws {
        let text = "flowkit: 1\nsteps:\n  amount:\n    next: tariffs\n  \"é\": { next: [a, 'b'] }\n"
        let root = try #require(parseYAML(text).root)
        let steps = try #require(root["steps"]?.entries)
        #expect(steps[0].keyPosition == SourcePosition(line: 3, column: 3))
        #expect(steps[0].value["next"]?.position == SourcePosition(line: 4, column: 11))
        #expect(steps[1].keyPosition == SourcePosition(line: 5, column: 3))
        let items = try #require(steps[1].value["next"]?.items)
        #expect(items[0].position == SourcePosition(line: 5, column: 17))
        #expect(items[1].position == SourcePosition(line: 5, column: 20))
        #expect(items[1].scalar?.quoted == true)
    }

    @Test func columnsCountUnicodeScalars() throws {
        let root = try #require(parseYAML("title: \"日本語\"\nx: [\"ü\", y]\n").root)
        let items = try #require(root["x"]?.items)
        #expect(items[1].position == SourcePosition(line: 2, column: 10))
    }

    @Test func yaml12CoreSchema() throws {
        let root = try #require(parseYAML("""
            a: on
            b: yes
            c: no
            d: true
            e: 12
            f: 1.5
            g: ~
            h: 0x1F
            i: "12"
            j: 1e3
            k: 0x-5
            l: .inf
            m:
            n: 0o17
            o: 012
            """).root)
        #expect(root["a"]?.scalar?.kind == .string)
        #expect(root["b"]?.scalar?.kind == .string)
        #expect(root["c"]?.scalar?.kind == .string)
        #expect(root["d"]?.scalar?.kind == .bool(true))
        #expect(root["e"]?.scalar?.kind == .int(12))
        #expect(root["f"]?.scalar?.kind == .number(1.5))
        #expect(root["g"]?.scalar?.kind == .null)
        #expect(root["h"]?.scalar?.kind == .int(31))
        #expect(root["i"]?.scalar?.kind == .string)
        #expect(root["j"]?.scalar?.kind == .number(1000))
        #expect(root["k"]?.scalar?.kind == .string)
        #expect(root["l"]?.scalar?.kind == .number(.infinity))
        #expect(root["m"]?.scalar?.kind == .null)
        #expect(root["n"]?.scalar?.kind == .int(15))
        #expect(root["o"]?.scalar?.kind == .int(12))
        #expect(root["a"]?.scalar?.text == "on")
    }

    /// YAML 1.2's core schema written out as its regular expressions, for the property below.
    static func coreSchemaKind(_ text: String) -> Scalar.Kind? {
        func matches(_ pattern: String) -> Bool { text.range(of: "^(" + pattern + ")$", options: .regularExpression) != nil }
        if matches("null|Null|NULL|~") || text.isEmpty { return .null }
        if matches("true|True|TRUE") { return .bool(true) }
        if matches("false|False|FALSE") { return .bool(false) }
        if matches("[-+]?[0-9]+") { return Int64(text).map(Scalar.Kind.int) }
        if matches("0o[0-7]+") { return Int64(text.dropFirst(2), radix: 8).map(Scalar.Kind.int) }
        if matches("0x[0-9a-fA-F]+") { return Int64(text.dropFirst(2), radix: 16).map(Scalar.Kind.int) }
        if matches("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?") {
            return Double(text).flatMap { $0.isFinite ? Scalar.Kind.number($0) : nil }
        }
        if matches("[-+]?\\.(inf|Inf|INF)") { return .number(text.hasPrefix("-") ? -.infinity : .infinity) }
        if matches("\\.(nan|NaN|NAN)") { return .number(.nan) }
        return .string
    }

    /// Every plain scalar resolves as the core schema's expressions say (nil there: out of range, which the reader
    /// throws), over random texts made of the characters the schema's forms use.
    @Test func plainScalarsResolveAsTheCoreSchemaSays() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let pieces = ["0", "1", "7", "9", "8", "a", "F", "f", "e", "E", "x", "o", ".", "+", "-", "~", "n", "N", "t", "T",
                      "null", "true", "False", "inf", "Inf", "nan", "NaN", "name", "9223372036854775807", "9223372036854775808",
                      "0x", "0o", "1e308", "1e309", "_", " "]
        var texts = ["", "0", "-0", "+.inf", "-.Inf", ".NAN", ".nan", "0x7fffffffffffffff", "0x8000000000000000", "0o777", "1.", ".5", "+1e+3"]
        // Every named value, and each with its last character dropped or changed, and with one more.
        let named = ["~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", ".inf", ".Inf", ".INF",
                     "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN"]
        for name in named { texts += [name, String(name.dropLast()), String(name.dropLast()) + "x", name + "s", name.lowercased(), name.uppercased()] }
        for _ in 0..<20_000 { texts.append((0..<(1 + next(5))).map { _ in pieces[next(pieces.count)] }.joined()) }
        for text in texts {
            let expected = Self.coreSchemaKind(text)
            let resolved = try? YAMLReader.resolvePlain(text)
            switch (expected, resolved) {
            case (.number(let a)?, .number(let b)?) where a.isNaN && b.isNaN: continue
            default: #expect(resolved == expected, "'\(text)'")
            }
        }
    }

    @Test func keyNamedOnStaysAString() throws {
        let root = try #require(parseYAML("on:\n  error: alert\nno: 1\n").root)
        #expect(root.entries?.map(\.key) == ["on", "no"])
    }

    @Test func duplicateKeysAreFindingsAndTheFirstIsKept() throws {
        let parsed = parseYAML("a: 1\nb: 2\na: 3\nc: { x: 1, x: 2 }\na: 4\n")
        let root = try #require(parsed.root)
        #expect(root["a"]?.scalar?.kind == .int(1))
        #expect(parsed.diagnostics.map(\.rule) == ["duplicate_key", "duplicate_key", "duplicate_key"])
        #expect(parsed.diagnostics.map(\.position) == [
            SourcePosition(line: 3, column: 1), SourcePosition(line: 4, column: 12), SourcePosition(line: 5, column: 1),
        ])
        #expect(parsed.diagnostics[0].message == "duplicate key 'a' (first at line 1, column 1)")
    }

    @Test func keysInDifferentNormalFormsAreDuplicates() {
        let parsed = parseYAML("\"caf\u{E9}\": 1\n\"cafe\u{301}\": 2\n")
        #expect(parsed.diagnostics.map(\.rule) == ["duplicate_key"])
    }

    @Test func aliasesExpandWithinTheBudget() throws {
        let parsed = parseYAML("base: &b { next: done }\ncopy: *b\n")
        let root = try #require(parsed.root)
        #expect(root["copy"]?["next"]?.scalar?.text == "done")
        #expect(parsed.diagnostics.isEmpty)
    }

    @Test func billionLaughsIsStoppedQuickly() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let refs = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(refs)]\n"
        }
        let clock = ContinuousClock()
        var parsed: ParsedDocument?
        let elapsed = clock.measure { parsed = parseYAML(text) }
        #expect(parsed?.root == nil)
        #expect(parsed?.diagnostics.first?.rule == "syntax")
        #expect(parsed?.diagnostics.first?.message.contains("aliases") == true)
        #expect(elapsed < .seconds(10))
    }

    @Test func deepNestingIsAFindingNotACrash() {
        for depth in [300, 10_000, 1_000_000] {
            let flow = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let parsed = parseYAML("a: " + flow)
            #expect(parsed.root == nil)
            #expect(parsed.diagnostics.first?.message == "nesting is deeper than 256 levels")
        }
        var block = ""
        for level in 0..<400 { block += String(repeating: " ", count: level) + "k:\n" }
        let parsed = parseYAML(block)
        #expect(parsed.diagnostics.first?.message == "nesting is deeper than 256 levels")
    }

    @Test func nestingAtTheLimitIsFine() {
        let flow = String(repeating: "[", count: 255) + String(repeating: "]", count: 255)
        #expect(parseYAML("a: " + flow).root != nil)
    }

    @Test func sizeLimit() {
        let parsed = parseYAML("a: 1234567890\n", limits: ReaderLimits(maxBytes: 8))
        #expect(parsed.diagnostics.first?.message == "the file is too large: the limit is 8 bytes")
    }

    static let malformed: [MalformedYAML] = [
        MalformedYAML("empty file", "", 1, 1, "the file is empty"),
        MalformedYAML("only a comment", "# nothing\n", 1, 1, "the file is empty"),
        MalformedYAML("unclosed flow mapping", "a: { b: c\nd: e\n", 2, 2, "did not find expected ',' or '}'"),
        MalformedYAML("unclosed flow sequence", "a: [1, 2\n", 2, 1, "did not find expected ',' or ']'"),
        MalformedYAML("unclosed quote", "a: \"abc\n", 2, 1, "found unexpected end of stream"),
        MalformedYAML("tab indentation", "a:\n\tb: 1\n", 2, 1, "tab"),
        MalformedYAML("second document", "a: 1\n---\nb: 2\n", 2, 1, "a flow file holds one YAML document"),
        MalformedYAML("undefined alias", "a: *nope\n", 1, 4, "alias '*nope' names no anchor"),
        MalformedYAML("mapping as a key", "? { a: 1 }\n: 2\n", 1, 3, "a mapping key must be a plain name"),
        MalformedYAML("list as a key", "[a, b]: 1\n", 1, 1, "a mapping key must be a plain name"),
        MalformedYAML("bad indentation", "a: 1\n  b: 2\n", 2, 4, "mapping values are not allowed"),
        MalformedYAML("invalid UTF-8", [0x61, 0x3A, 0x20, 0xFF, 0x0A], 1, 4, "invalid UTF-8 byte 0xFF"),
        MalformedYAML("overlong UTF-8", [0x61, 0x3A, 0x20, 0xC0, 0xAF], 1, 4, "invalid UTF-8 byte 0xC0"),
        MalformedYAML("truncated UTF-8", [0x61, 0x3A, 0x20, 0xE6, 0x97], 1, 4, "truncated UTF-8"),
        MalformedYAML("UTF-8 surrogate", [0x61, 0x3A, 0x20, 0xED, 0xA0, 0x80], 1, 4, "invalid UTF-8 sequence"),
        MalformedYAML("NUL byte", [0x61, 0x3A, 0x0A, 0x62, 0x00], 2, 2, "NUL"),
        MalformedYAML("control character", [0x61, 0x3A, 0x20, 0x01], 1, 4, "control characters are not allowed"),
        MalformedYAML("bad escape", "a: \"\\q\"\n", 1, 5, "found unknown escape character"),
    ]

    @Test(arguments: malformed)
    func malformedInput(_ input: MalformedYAML) {
        let parsed = YAMLReader.parse(input.bytes, file: "t.yaml")
        let syntax = parsed.diagnostics.filter { $0.rule == "syntax" }
        #expect(parsed.root == nil)
        #expect(syntax.count == 1)
        #expect(syntax.first?.position == SourcePosition(line: input.line, column: input.column), "\(syntax.first?.message ?? "")")
        #expect(syntax.first?.message.contains(input.message) == true, "\(syntax.first?.message ?? "no finding")")
    }
}
