@testable import FlowKit
import Testing

/// Numbers mean what they say: only YAML 1.2 core-schema forms are numbers, and a literal beyond 64 bits is a
/// `syntax` finding at the value, never clamped or read as a float.
@Suite struct NumberRangeTests {
    @Test func onlyCoreSchemaFormsAreNumbers() throws {
        let root = try #require(parseYAML("""
            a: 0X1F
            b: 0x
            c: 0o8
            d: 1_000
            e: 0b101
            f: +12
            g: -0o7
            h: 0xff
            j: -.INF
            k: 1.
            l: 0x-5
            """).root)
        for key in ["a", "b", "c", "d", "e", "g", "l"] { #expect(root[key]?.scalar?.kind == .string, "\(key)") }
        #expect(root["f"]?.scalar?.kind == .int(12))
        #expect(root["h"]?.scalar?.kind == .int(255))
        #expect(root["j"]?.scalar?.kind == .number(-.infinity))
        #expect(root["k"]?.scalar?.kind == .number(1))
    }

    @Test(arguments: [
        ("99999999999999999999", "integer '99999999999999999999' does not fit in 64 bits"),
        ("-9223372036854775809", "integer '-9223372036854775809' does not fit in 64 bits"),
        ("0x10000000000000000", "integer '0x10000000000000000' does not fit in 64 bits"),
        ("0xFFFFFFFFFFFFFFFF", "integer '0xFFFFFFFFFFFFFFFF' does not fit in 64 bits"),
        ("0o2000000000000000000000", "integer '0o2000000000000000000000' does not fit in 64 bits"),
        ("1e999", "number '1e999' is out of range"),
    ])
    func yamlNumberBeyondRangeIsASyntaxFindingAtTheValue(literal: String, message: String) throws {
        let parsed = parseYAML("a: 1\nb: [x, \(literal)]\n")
        #expect(parsed.root == nil)
        let finding = try #require(parsed.diagnostics.first)
        #expect(finding.rule == "syntax")
        #expect(finding.position == SourcePosition(line: 2, column: 8))
        #expect(finding.message.hasPrefix(message))
    }

    @Test func yamlExtremeIntegersInRangeAreIntegers() throws {
        let root = try #require(parseYAML("""
            a: 9223372036854775807
            b: -9223372036854775808
            c: 0x7FFFFFFFFFFFFFFF
            d: 0o777777777777777777777
            """).root)
        #expect(root["a"]?.scalar?.kind == .int(.max))
        #expect(root["b"]?.scalar?.kind == .int(.min))
        #expect(root["c"]?.scalar?.kind == .int(.max))
        #expect(root["d"]?.scalar?.kind == .int(.max))
    }
}
