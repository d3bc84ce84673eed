import Foundation
import Testing
@testable import FlowKit

private func parse(_ text: String, limits: ReaderLimits = .standard) -> ParsedDocument {
    JSONReader.parse(Array(text.utf8), file: "test.json", limits: limits)
}

private func parse(bytes: [UInt8], limits: ReaderLimits = .standard) -> ParsedDocument {
    JSONReader.parse(bytes, file: "test.json", limits: limits)
}

private func at(_ line: Int, _ column: Int) -> SourcePosition {
    SourcePosition(line: line, column: column)
}

// MARK: - Positions

@Suite struct JSONReaderPositionTests {
    @Test func multiLineDocumentPositions() throws {
        let text = "{\n  \"name\": \"caf\u{E9}\", \"n\": 1,\r\n  \"list\": [true, {\"x\": null}],\n\t\"\u{E9}\": -2.5e3\n}"
        let document = parse(text)
        #expect(document.diagnostics.isEmpty)
        let root = try #require(document.root)
        #expect(root.position == at(1, 1))
        let entries = try #require(root.entries)
        #expect(entries.map(\.key) == ["name", "n", "list", "\u{E9}"])
        #expect(entries.map(\.keyPosition) == [at(2, 3), at(2, 19), at(3, 3), at(4, 2)])
        #expect(entries[0].value.position == at(2, 11))
        #expect(entries[0].value.scalar?.text == "caf\u{E9}")
        // After the two-byte "é" the column counts one character, not two bytes.
        #expect(entries[1].value.position == at(2, 24))
        // The \r\n ends line 2 only once.
        let list = try #require(entries[2].value.items)
        #expect(entries[2].value.position == at(3, 11))
        #expect(list[0].position == at(3, 12))
        #expect(list[1].position == at(3, 18))
        let inner = try #require(list[1].entries)
        #expect(inner[0].keyPosition == at(3, 19))
        #expect(inner[0].value.position == at(3, 24))
        #expect(entries[3].value.position == at(4, 7))
    }

    @Test func fourByteCharactersAndEscapesCountAsWritten() throws {
        let root = try #require(parse("[\"\u{1F600}\", 1, \"a\\n\\u00e9\", 2]").root)
        let items = try #require(root.items)
        #expect(items.map(\.position) == [at(1, 2), at(1, 7), at(1, 10), at(1, 23)])
        #expect(items[2].scalar?.text == "a\n\u{E9}")
    }

    @Test func loneCarriageReturnBreaksLines() throws {
        let root = try #require(parse("[1,\r2,\r\n3,\n\n4]").root)
        #expect(try #require(root.items).map(\.position) == [at(1, 2), at(2, 1), at(3, 1), at(5, 1)])
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let root = try #require(parse(bytes: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)).root)
        #expect(root.position == at(1, 1))
        #expect(try #require(root.items).first?.position == at(1, 2))
    }
}

// MARK: - Malformed input

/// One malformed input with where and what the syntax error must be.
struct JSONMalformedCase: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let line: Int
    let column: Int
    let message: String

    init(_ name: String, _ text: String, _ line: Int, _ column: Int, _ message: String) {
        self.init(name, bytes: Array(text.utf8), line, column, message)
    }

    init(_ name: String, bytes: [UInt8], _ line: Int, _ column: Int, _ message: String) {
        self.name = name
        self.bytes = bytes
        self.line = line
        self.column = column
        self.message = message
    }

    var testDescription: String { name }
}

private let malformedCases: [JSONMalformedCase] = [
    JSONMalformedCase("empty file", "", 1, 1, "the file is empty"),
    JSONMalformedCase("whitespace only", "  \n\t \r\n", 1, 1, "the file is empty"),
    JSONMalformedCase("BOM only", bytes: [0xEF, 0xBB, 0xBF], 1, 1, "the file is empty"),
    JSONMalformedCase("trailing comma in array", "[1,2,]", 1, 5, "trailing comma before ']'"),
    JSONMalformedCase("trailing comma in object", "{\"a\":1,}", 1, 7, "trailing comma before '}'"),
    JSONMalformedCase("trailing comma on an earlier line", "{\n  \"a\": \"\u{E9}\",\n}", 2, 11, "trailing comma before '}'"),
    JSONMalformedCase("line comment after the document", "[1] // note", 1, 5, "comments are not allowed in JSON"),
    JSONMalformedCase("block comment inside an object", "{/* c */ \"a\": 1}", 1, 2, "comments are not allowed in JSON"),
    JSONMalformedCase("hash comment", "# note\n{}", 1, 1, "comments are not allowed in JSON"),
    JSONMalformedCase("single-quoted value", "['a']", 1, 2, "strings must use double quotes"),
    JSONMalformedCase("single-quoted key", "{'a': 1}", 1, 2, "strings must use double quotes"),
    JSONMalformedCase("typographic quotes", "\u{201C}a\u{201D}", 1, 1, "strings must use straight double quotes"),
    JSONMalformedCase("unterminated string", "\"abc", 1, 5, "unexpected end of file inside a string"),
    JSONMalformedCase("end of file after a backslash", "\"a\\", 1, 4, "unexpected end of file inside a string"),
    JSONMalformedCase("invalid escape", "\"a\\x\"", 1, 3, "invalid escape '\\x' in string"),
    JSONMalformedCase("escaped single quote", "\"\\'\"", 1, 2, "invalid escape '\\'' in string"),
    JSONMalformedCase("unescaped tab", "\"a\tb\"", 1, 3, "unescaped control character U+0009 in string"),
    JSONMalformedCase("unescaped line break", "[\"a\nb\"]", 1, 4, "unescaped control character U+000A in string"),
    JSONMalformedCase("short unicode escape", "\"\\u12\"", 1, 6, "expected four hexadecimal digits after '\\u', found '\"'"),
    JSONMalformedCase("non-hex unicode escape", "\"\\uZZZZ\"", 1, 4, "expected four hexadecimal digits after '\\u', found 'Z'"),
    JSONMalformedCase("lone high surrogate", "\"\\ud800\"", 1, 2, "unpaired surrogate escape '\\ud800' in string"),
    JSONMalformedCase("lone low surrogate", "\"x\\uDC00\"", 1, 3, "unpaired surrogate escape '\\uDC00' in string"),
    JSONMalformedCase("high surrogate before a letter", "\"\\ud800\\u0041\"", 1, 2, "unpaired surrogate escape '\\ud800'"),
    JSONMalformedCase("two high surrogates", "\"\\ud800\\udbff\"", 1, 2, "unpaired surrogate escape '\\ud800'"),
    JSONMalformedCase("invalid UTF-8 byte", bytes: [0x5B, 0xFF, 0x5D], 1, 2, "invalid UTF-8 byte 0xFF"),
    JSONMalformedCase("invalid UTF-8 in a string", bytes: Array("[\"\u{E9}".utf8) + [0xFE, 0x22, 0x5D], 1, 4, "invalid UTF-8 byte 0xFE"),
    JSONMalformedCase("stray continuation byte", bytes: [0x5B, 0x80, 0x5D], 1, 2, "invalid UTF-8 byte 0x80"),
    JSONMalformedCase("overlong C0 AF", bytes: [0x22, 0xC0, 0xAF, 0x22], 1, 2, "invalid UTF-8 byte 0xC0 (overlong encoding)"),
    JSONMalformedCase("overlong three-byte", bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], 1, 2, "invalid UTF-8 sequence 0xE0 0x80 (overlong encoding)"),
    JSONMalformedCase("UTF-8 encoded surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], 1, 2, "invalid UTF-8 sequence 0xED 0xA0 (encoded surrogate)"),
    JSONMalformedCase("beyond U+10FFFF", bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, 2, "beyond U+10FFFF"),
    JSONMalformedCase("truncated UTF-8 before a quote", bytes: [0x22, 0xE2, 0x82, 0x22], 1, 2, "invalid UTF-8 sequence 0xE2 0x82 (incomplete character)"),
    JSONMalformedCase("truncated UTF-8 at the end of the file", bytes: [0x22, 0x61, 0xE2, 0x82], 1, 3, "incomplete character at the end of the file"),
    JSONMalformedCase("UTF-16 file", bytes: [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00], 1, 1, "the file looks like UTF-16"),
    JSONMalformedCase("NUL byte between values", bytes: [0x5B, 0x31, 0x2C, 0x00, 0x5D], 1, 4, "expected a value, found a NUL byte"),
    JSONMalformedCase("NUL byte inside a string", bytes: [0x22, 0x61, 0x00, 0x22], 1, 3, "unescaped control character U+0000 in string"),
    JSONMalformedCase("form feed as whitespace", "\u{0C}[]", 1, 1, "expected a value, found the control character U+000C"),
    JSONMalformedCase("leading zero", "01", 1, 1, "numbers cannot have leading zeros"),
    JSONMalformedCase("negative leading zero", "[-01]", 1, 3, "numbers cannot have leading zeros"),
    JSONMalformedCase("hexadecimal number", "0x10", 1, 1, "hexadecimal numbers are not allowed in JSON"),
    JSONMalformedCase("plus sign", "+1", 1, 1, "numbers cannot start with '+'"),
    JSONMalformedCase("leading decimal point", "[.5]", 1, 2, "numbers must have a digit before the decimal point"),
    JSONMalformedCase("trailing decimal point", "1.", 1, 3, "expected a digit after the decimal point, found the end of the file"),
    JSONMalformedCase("decimal point before exponent", "1.e5", 1, 3, "expected a digit after the decimal point, found 'e5'"),
    JSONMalformedCase("empty exponent", "1e", 1, 3, "expected a digit in the exponent, found the end of the file"),
    JSONMalformedCase("exponent sign only", "[1e+]", 1, 5, "expected a digit in the exponent, found ']'"),
    JSONMalformedCase("lone minus", "-", 1, 2, "expected a digit after '-', found the end of the file"),
    JSONMalformedCase("letter after a number", "[1a]", 1, 3, "invalid character 'a' in a number"),
    JSONMalformedCase("two decimal points", "1.5.3", 1, 4, "invalid character '.' in a number"),
    JSONMalformedCase("out of range number", "1e400", 1, 1, "number '1e400' is out of range"),
    JSONMalformedCase("integer beyond 64 bits", "[9223372036854775808]", 1, 2, "integer '9223372036854775808' does not fit in 64 bits"),
    JSONMalformedCase("negative integer beyond 64 bits", "[-9223372036854775809]", 1, 2, "integer '-9223372036854775809' does not fit in 64 bits"),
    JSONMalformedCase("out of range negative number", "[0, -1.5e309]", 1, 5, "number '-1.5e309' is out of range"),
    JSONMalformedCase("NaN", "NaN", 1, 1, "numbers cannot be NaN or Infinity in JSON"),
    JSONMalformedCase("negative Infinity", "[-Infinity]", 1, 2, "numbers cannot be NaN or Infinity in JSON"),
    JSONMalformedCase("capitalised literal", "[True]", 1, 2, "JSON literals are lowercase"),
    JSONMalformedCase("bare word", "[1,\n  tru]", 2, 3, "expected a value, found 'tru'"),
    JSONMalformedCase("bare word as the document", "undefined", 1, 1, "expected a value, found 'undefined'"),
    JSONMalformedCase("content after the document", "[1] x", 1, 5, "unexpected content after the end of the document"),
    JSONMalformedCase("second document", "{\"a\":1}{}", 1, 8, "unexpected content after the end of the document"),
    JSONMalformedCase("content after CRLF lines", "[1]\r\n\r\n,", 3, 1, "unexpected content after the end of the document"),
    JSONMalformedCase("content after lone CR lines", "[1]\r\r,", 3, 1, "unexpected content after the end of the document"),
    JSONMalformedCase("unterminated object", "{\"a\":1", 1, 7, "expected ',' or '}' after an object member, found the end of the file"),
    JSONMalformedCase("unterminated array", "[1,2", 1, 5, "expected ',' or ']' after an array item, found the end of the file"),
    JSONMalformedCase("unterminated nested array", "[[1]", 1, 5, "(the array at line 1, column 1 is not closed)"),
    JSONMalformedCase("end of file after a colon", "{\"a\":", 1, 6, "expected a value, found the end of the file"),
    JSONMalformedCase("object closed by a bracket", "{\"a\":1]", 1, 7, "expected ',' or '}' after an object member, found ']'"),
    JSONMalformedCase("array closed by a brace", "[1}", 1, 3, "expected ',' or ']' after an array item, found '}'"),
    JSONMalformedCase("missing colon", "{\"a\" 1}", 1, 6, "expected ':' after the key 'a', found '1'"),
    JSONMalformedCase("key without a value", "{\"a\":1,\"b\"}", 1, 11, "expected ':' after the key 'b', found '}'"),
    JSONMalformedCase("missing value", "{\"a\":}", 1, 6, "expected a value, found '}'"),
    JSONMalformedCase("missing comma between items", "[1 2]", 1, 4, "expected ',' or ']' after an array item, found '2'"),
    JSONMalformedCase("missing comma between members", "{\"a\":1 \"b\":2}", 1, 8, "expected ',' or '}' after an object member, found '\"'"),
    JSONMalformedCase("number as key", "{1: 2}", 1, 2, "expected an object key in double quotes, found '1'"),
    JSONMalformedCase("bare key", "{a: 2}", 1, 2, "expected an object key in double quotes, found 'a'"),
    JSONMalformedCase("double comma", "[1,,2]", 1, 4, "expected a value, found ','"),
    JSONMalformedCase("comma only object", "{,}", 1, 2, "expected an object key in double quotes, found ','"),
    JSONMalformedCase("error after a multi-byte character", "[\"\u{E9}\", x]", 1, 7, "expected a value, found 'x'"),
    JSONMalformedCase("non-ASCII character outside strings", "[\u{E9}]", 1, 2, "expected a value, found '\u{E9}' (U+00E9)"),
    JSONMalformedCase("deep nesting", String(repeating: "[", count: 1_000_000), 1, 257, "nesting is deeper than 256 levels"),
    JSONMalformedCase("deep object nesting", String(repeating: "{\"a\":", count: 300), 1, 1 + 5 * 256, "nesting is deeper than 256 levels"),
]

@Suite struct JSONReaderMalformedTests {
    @Test(arguments: malformedCases)
    func reportsTheSyntaxError(_ testCase: JSONMalformedCase) throws {
        let document = parse(bytes: testCase.bytes)
        #expect(document.root == nil)
        let diagnostic = try #require(document.diagnostics.last)
        #expect(document.diagnostics.count == 1)
        #expect(diagnostic.rule == "syntax")
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.file == "test.json")
        #expect(diagnostic.position == at(testCase.line, testCase.column))
        #expect(diagnostic.message.contains(testCase.message), "message: \(diagnostic.message)")
        #expect(diagnostic.message.first?.isLowercase == true)
    }

    @Test func millionDeepNestingFinishesQuickly() {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            let document = parse(bytes: bytes)
            #expect(document.diagnostics.first?.message == "nesting is deeper than 256 levels")
        }
        #expect(elapsed < .seconds(2))
    }

    @Test func unboundedDepthLimitStillDoesNotRecurse() {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        let document = parse(bytes: bytes, limits: ReaderLimits(maxDepth: .max))
        #expect(document.root == nil)
        #expect(document.diagnostics.first?.message.contains("found the end of the file") == true)
        #expect(document.diagnostics.first?.position == at(1, 1_000_001))
    }

    @Test func everyTruncationOfAValidDocumentFailsCleanly() {
        let text = "{\"a\": [1, -2.5e3, true, false, null, \"x\\u00e9\\ud83d\\ude00\u{E9}\"], \"b\": {\"c\": {}}}"
        let bytes = Array(text.utf8)
        #expect(parse(bytes: bytes).root != nil)
        for length in 0..<bytes.count {
            let document = parse(bytes: Array(bytes[..<length]))
            #expect(document.root == nil, "prefix of \(length) bytes")
            #expect(document.diagnostics.count == 1)
            #expect(document.diagnostics.first?.rule == "syntax")
        }
    }

    @Test func everySingleByteInsertionNeverCrashes() {
        let bytes = Array("{\"k\": [1, \"v\u{E9}\", null]}".utf8)
        let inserted: [UInt8] = [0x00, 0x0A, 0x22, 0x27, 0x2C, 0x2F, 0x3A, 0x5B, 0x5C, 0x5D, 0x7B, 0x7D, 0x80, 0xC3, 0xFF]
        for offset in 0...bytes.count {
            for byte in inserted {
                var mutated = bytes
                mutated.insert(byte, at: offset)
                let document = parse(bytes: mutated)
                #expect(document.root != nil || document.diagnostics.last?.rule == "syntax")
            }
        }
    }
}

// MARK: - Limits

@Suite struct JSONReaderLimitTests {
    @Test func fileSizeLimit() {
        let document = parse("[1, 2]", limits: ReaderLimits(maxBytes: 5))
        #expect(document.root == nil)
        #expect(document.diagnostics.first?.position == at(1, 1))
        #expect(document.diagnostics.first?.message == "the file is too large: the limit is 5 bytes")
        #expect(parse("[1, 2]", limits: ReaderLimits(maxBytes: 6)).root != nil)
    }

    @Test func nodeLimit() {
        let document = parse("[1, 2, 3]", limits: ReaderLimits(maxNodes: 3))
        #expect(document.root == nil)
        #expect(document.diagnostics.first?.position == at(1, 8))
        #expect(document.diagnostics.first?.message == "the document has more than 3 values")
        #expect(parse("[1, 2, 3]", limits: ReaderLimits(maxNodes: 4)).root != nil)
    }

    @Test func depthLimitAllowsExactlyMaxDepth() {
        let limits = ReaderLimits(maxDepth: 10)
        let atLimit = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        #expect(parse(atLimit, limits: limits).root != nil)
        let mixed = String(repeating: "{\"a\":[", count: 5) + String(repeating: "]}", count: 5)
        #expect(parse(mixed, limits: limits).root != nil)
        let tooDeep = String(repeating: "[", count: 11) + String(repeating: "]", count: 11)
        let document = parse(tooDeep, limits: limits)
        #expect(document.root == nil)
        #expect(document.diagnostics.first?.position == at(1, 11))
        #expect(document.diagnostics.first?.message == "nesting is deeper than 10 levels")
        let emptyTooDeep = String(repeating: "[", count: 10) + "{}" + String(repeating: "]", count: 10)
        #expect(parse(emptyTooDeep, limits: limits).diagnostics.first?.position == at(1, 11))
    }
}

// MARK: - Duplicate keys

@Suite struct JSONReaderDuplicateKeyTests {
    @Test func twoOccurrencesKeepTheFirst() throws {
        let document = parse("{\"name\": 1,\n \"name\": 2}")
        let root = try #require(document.root)
        let entries = try #require(root.entries)
        #expect(entries.count == 1)
        #expect(root["name"]?.scalar?.kind == .int(1))
        #expect(document.diagnostics == [Diagnostic(
            file: "test.json", position: at(2, 2), severity: .error, rule: "duplicate_key",
            message: "duplicate key 'name' (first at line 1, column 2)")])
    }

    @Test func threeOccurrencesReportTwice() throws {
        let document = parse("{\"a\": \"x\", \"b\": 0, \"a\": \"y\", \"a\": \"z\"}")
        let root = try #require(document.root)
        #expect(try #require(root.entries).map(\.key) == ["a", "b"])
        #expect(root["a"]?.scalar?.text == "x")
        #expect(document.diagnostics.map(\.position) == [at(1, 20), at(1, 30)])
        #expect(document.diagnostics.allSatisfy { $0.rule == "duplicate_key" && $0.message == "duplicate key 'a' (first at line 1, column 2)" })
    }

    @Test func nestedDuplicatesAndSameKeyInSiblingsIsFine() throws {
        let document = parse("{\"x\": {\"k\": 1, \"k\": 2}, \"y\": {\"k\": 3}}")
        let root = try #require(document.root)
        #expect(root["x"]?["k"]?.scalar?.kind == .int(1))
        #expect(root["x"]?.entries?.count == 1)
        #expect(root["y"]?["k"]?.scalar?.kind == .int(3))
        #expect(document.diagnostics.map(\.position) == [at(1, 16)])
    }

    @Test func canonicallyEquivalentKeysAreDuplicates() throws {
        let document = parse("{\"\u{E9}\": 1, \"e\u{301}\": 2, \"e\\u0301\": 3}")
        let root = try #require(document.root)
        let entries = try #require(root.entries)
        #expect(entries.count == 1)
        #expect(Array(entries[0].key.unicodeScalars) == ["\u{E9}"])
        #expect(entries[0].value.scalar?.kind == .int(1))
        #expect(document.diagnostics.count == 2)
        #expect(document.diagnostics.first?.message == "duplicate key '\u{E9}' (first at line 1, column 2)")
    }

    @Test func keysAreStoredInNFC() throws {
        let root = try #require(parse("{\"e\u{301}\": 1, \"A\\u030a\": 2}").root)
        let keys = try #require(root.entries).map { Array($0.key.unicodeScalars) }
        #expect(keys == [["\u{E9}"], ["\u{C5}"]])
        #expect(root["\u{E9}"] != nil)
    }

    @Test func largeObjectsFindDuplicatesToo() throws {
        var members = (0..<40).map { "\"k\($0)\": \($0)" }
        members.append("\"k3\": -1")
        members.append("\"k39\": -1")
        members.append("\"k40\": 40")
        members.append("\"k40\": -1")
        let text = "{" + members.joined(separator: ", ") + "}"
        func column(of key: String, options: String.CompareOptions = []) -> Int {
            text.distance(from: text.startIndex, to: text.range(of: "\"\(key)\"", options: options)!.lowerBound) + 1
        }
        let document = parse(text)
        let root = try #require(document.root)
        #expect(root.entries?.count == 41)
        #expect(root["k3"]?.scalar?.kind == .int(3))
        #expect(root["k39"]?.scalar?.kind == .int(39))
        #expect(root["k40"]?.scalar?.kind == .int(40))
        #expect(document.diagnostics.map(\.message) == ["k3", "k39", "k40"].map {
            "duplicate key '\($0)' (first at line 1, column \(column(of: $0)))"
        })
        #expect(document.diagnostics.map(\.column) == ["k3", "k39", "k40"].map { column(of: $0, options: .backwards) })
    }

    @Test func duplicatesBeforeASyntaxErrorAreKept() {
        let document = parse("{\"a\": 1, \"a\": {\"b\": 1, \"b\": 2}, ]")
        #expect(document.root == nil)
        #expect(document.diagnostics.map(\.rule) == ["duplicate_key", "duplicate_key", "syntax"])
        #expect(document.diagnostics.last?.message == "trailing comma before ']'")
    }
}

// MARK: - Scalars

@Suite struct JSONReaderScalarTests {
    @Test(arguments: [
        ("0", Scalar.Kind.int(0)),
        ("-0", .int(0)),
        ("42", .int(42)),
        ("9223372036854775807", .int(.max)),
        ("-9223372036854775808", .int(.min)),
        ("1.0", .number(1)),
        ("1E+2", .number(100)),
        ("-1.5e-7", .number(-1.5e-7)),
        ("1e-400", .number(0)),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("null", .null),
    ])
    func kindAndTextAsWritten(text: String, kind: Scalar.Kind) throws {
        let scalar = try #require(parse(" \(text) ").root?.scalar)
        #expect(scalar.kind == kind)
        #expect(scalar.text == text)
        #expect(scalar.quoted == false)
    }

    @Test func stringsAreDecodedAndQuoted() throws {
        let scalar = try #require(parse(#""a\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00\u0000 ""#).root?.scalar)
        #expect(scalar.kind == .string)
        #expect(scalar.quoted)
        #expect(scalar.text == "a\"\\/\u{8}\u{C}\n\r\tA\u{E9}\u{20AC}\u{1F600}\u{0} ")
        let raw = try #require(parse("\"\u{7F}\u{E9}\u{1F600}\u{2028}\"").root?.scalar)
        #expect(raw.text == "\u{7F}\u{E9}\u{1F600}\u{2028}")
    }

    @Test func stringValuesAreNotNormalised() throws {
        let scalar = try #require(parse("\"e\u{301}\"").root?.scalar)
        #expect(Array(scalar.text.unicodeScalars) == ["e", "\u{301}"])
    }
}

// MARK: - Agreement with Foundation

/// Whether `ours` (from `Node.foundationValue`) and `theirs` (from JSONSerialization) are the same JSON value.
private func sameValue(_ ours: Any, _ theirs: Any) -> Bool {
    switch ours {
    case is NSNull:
        return theirs is NSNull
    case let bool as Bool:
        guard let number = theirs as? NSNumber else { return false }
        return String(cString: number.objCType) == "c" && number.boolValue == bool
    case let int as Int64:
        guard let number = theirs as? NSNumber, String(cString: number.objCType) != "c" else { return false }
        return number.doubleValue == Double(int)
    case let double as Double:
        guard let number = theirs as? NSNumber, String(cString: number.objCType) != "c" else { return false }
        return number.doubleValue == double
    case let string as String:
        return (theirs as? String) == string
    case let array as [Any]:
        guard let other = theirs as? [Any], other.count == array.count else { return false }
        return zip(array, other).allSatisfy { sameValue($0, $1) }
    case let dictionary as [String: Any]:
        guard let other = theirs as? [String: Any], Set(other.keys) == Set(dictionary.keys) else { return false }
        return dictionary.allSatisfy { key, value in sameValue(value, other[key]!) }
    default:
        return false
    }
}

private let bigNestedDocument: String = {
    let steps = (0..<200).map { n in
        "\"step_\(n)\": {\"run\": \"echo \(n) \\u00e9\\t\", \"needs\": [\(n), \(Double(n) / 8), true, null], \"env\": {\"A\": \"\(n)\", \"\u{E9}\": [[[]], {}]}}"
    }
    return "{\"version\": 1, \"steps\": {" + steps.joined(separator: ",\n") + "}}"
}()

/// A valid JSON text, named in test output by its text or, when long, by its size.
struct JSONValidInput: CustomTestStringConvertible, Sendable {
    let text: String
    var testDescription: String { text.utf8.count <= 80 ? text : "a \(text.utf8.count)-byte document" }
}

private let validInputs: [JSONValidInput] = [String]([
    "0", "-0", "1", "-1", "1.5e-7", "-1.5E-7", "1E+2", "1e2", "0.1", "123456789.123456789",
    "9223372036854775807", "-9223372036854775808",
    "1e308", "4.9e-324", "1e-400", "true", "false", "null",
    "\"\"", "\"plain\"", "\"\\u0041\\u00e9\\u4e2d\"", "\"\\ud83d\\ude00 \\uD834\\uDD1E\"", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
    "\"caf\u{E9} \u{1F600} \u{4E2D}\u{6587}\"", "\"\\u0000\"",
    "[]", "{}", "[[]]", "[1, \"a\", true, null, 2.5, {}]", "{\"a\": {\"b\": {\"c\": [1, [2, [3]]]}}}",
    " \r\n\t{ \"k\" : [ 1 , 2 ] } \n", "{\"\u{E9}\": 1, \"a b\": 2, \"\": 3}",
    "[0, -0.0, 0e0, 0E-0, 1.0e+0]",
    bigNestedDocument,
]).map(JSONValidInput.init)

@Suite struct JSONReaderFoundationAgreementTests {
    @Test(arguments: validInputs)
    func agreesWithJSONSerialization(_ input: JSONValidInput) throws {
        let text = input.text
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        let document = parse(text)
        #expect(document.diagnostics.isEmpty)
        let root = try #require(document.root)
        #expect(sameValue(root.foundationValue, theirs))
    }

    @Test func comparisonHelperTellsValuesApart() throws {
        func foundation(_ text: String) throws -> Any {
            try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        }
        func ours(_ text: String) throws -> Any { try #require(parse(text).root).foundationValue }
        #expect(try !sameValue(ours("true"), foundation("1")))
        #expect(try !sameValue(ours("1"), foundation("true")))
        #expect(try !sameValue(ours("1.5"), foundation("1.25")))
        #expect(try !sameValue(ours("[1, 2]"), foundation("[1]")))
        #expect(try !sameValue(ours("{\"a\": 1}"), foundation("{\"b\": 1}")))
        #expect(try !sameValue(ours("\"a\""), foundation("\"b\"")))
        #expect(try !sameValue(ours("null"), foundation("0")))
    }

    @Test func bigDocumentParsesCompletely() throws {
        let root = try #require(parse(bigNestedDocument).root)
        #expect(root["steps"]?.entries?.count == 200)
        #expect(root["steps"]?["step_199"]?["needs"]?.items?[1].scalar?.kind == .number(199.0 / 8))
    }
}
