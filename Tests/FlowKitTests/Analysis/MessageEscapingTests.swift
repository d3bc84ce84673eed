@testable import FlowKit
@testable import FlowKitTool
import Foundation
import Testing
import FlowGen

/// No control character reaches the terminal or a report: flows built from names and text full of control
/// characters, escapes, newlines and bidirectional overrides are linted, and no finding message holds one raw.
@Suite struct MessageEscapingTests {
    /// The characters that must never appear raw in a message, decided here independently of the code under test.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value) || [0x061C, 0x200B, 0x200E, 0x200F, 0x2028, 0x2029, 0xFEFF].contains(value)
    }

    static let nasty: [String] = ["\u{1B}[31m", "\n", "\r", "\u{202E}", "\u{7}", "\u{0}", "\u{85}", "\u{2028}", "\u{200B}",
                                  "\u{2066}", "\u{7F}", "\t", "'", "\\", "é", "x.yaml:1:1: error: forged"]

    /// A name made of identifier characters and at least one nasty piece.
    static func name(_ random: inout SplitMix64) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            text += Bool.random(using: &random) ? ["a", "step", "k", "ev", "_x"].randomElement(using: &random)! : nasty.randomElement(using: &random)!
        }
        return text + nasty.randomElement(using: &random)!
    }

    /// `text` as a JSON string literal (which is also a YAML double-quoted scalar).
    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value >= 0x7F {
                    output += scalar.value > 0xFFFF ? String(scalar) : String(format: "\\u%04x", scalar.value)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }

    /// A flow whose names, targets, events, state keys, expressions, nested flow paths, entries and keys are nasty.
    static func flow(_ random: inout SplitMix64) -> String {
        let steps = (0..<3).map { _ in name(&random) }
        let event = name(&random)
        let key = name(&random)
        let q = quoted
        var parts: [String] = []
        parts.append("\"flowkit\": 1")
        parts.append("\"flow\": \(q(name(&random)))")
        parts.append("\"start\": \(q(Bool.random(using: &random) ? steps[0] : name(&random)))")
        parts.append("\"state\": { \(q(key)): \(q(Bool.random(using: &random) ? "int" : name(&random))), \"ok\": \"int\" }")
        parts.append("\"events\": { \(q(event)): null, \"big\": \(q("state.ok > 'x" + name(&random) + "'")) }")
        parts.append("\"entries\": { \(q(name(&random))): { \"step\": \(q(steps[1])), \"path\": \(q("/p/{" + name(&random) + "}")) } }")
        parts.append("\(q(name(&random))): 1")
        var stepTexts: [String] = []
        stepTexts.append("\(q(steps[0])): { \"title\": \(q(name(&random))), \"on\": { \(q(event)): \(q(name(&random))) }, "
                         + "\"set\": { \(q(name(&random))): \(q("state." + name(&random))) }, \"next\": \(q(steps[1])) }")
        stepTexts.append("\(q(steps[1])): { \"kind\": \"flow\", \"flow\": \(q(name(&random) + ".yaml")), \"next\": { \"back\": \(q(name(&random))) }, "
                         + "\"lint\": { \"allow\": [\(q(name(&random)))], \"reason\": \"r\" } }")
        stepTexts.append("\(q(steps[2])): { \"kind\": \(q(Bool.random(using: &random) ? "finish" : name(&random))), "
                         + "\"next\": { \"forward\": \(q(steps[0])), \"if\": \(q(name(&random))) } }")
        stepTexts.append("\(q(steps[2])): { \"kind\": \"finish\" }")
        parts.append("\"steps\": { " + stepTexts.joined(separator: ", ") + " }")
        return "{ " + parts.joined(separator: ", ") + " }\n"
    }

    @Test func everyFindingMessageOfAFlowBuiltFromControlCharactersHasNoneRaw() throws {
        var random = SplitMix64(seed: 0xE5CA_9E)
        var findings = 0
        for round in 0..<150 {
            let text = Self.flow(&random)
            for file in ["flow-\(round).json", "flow-\(round).yaml"] {
                let document = FlowLoader.load(bytes: Array(text.utf8), file: file)
                let diagnostics = Linter.lint(document)
                findings += diagnostics.count
                for diagnostic in diagnostics {
                    let raw = diagnostic.message.unicodeScalars.filter(Self.isForbidden)
                    #expect(raw.isEmpty, "\(file) [\(diagnostic.rule)]: \(diagnostic.message.debugDescription)\n\(text)")
                }
                let report = TextReporter(color: false).render(LintReport(diagnostics: diagnostics, fileCount: 1))
                #expect(report.split(separator: "\n", omittingEmptySubsequences: false).count == diagnostics.count + 2)
            }
        }
        // The generator must reach the rules, not only the readers.
        #expect(findings > 150 * 2 * 3)
    }

    @Test func aYAMLDuplicateKeyIsShownEscaped() throws {
        let yaml = "flowkit: 1\nflow: f\nstart: a\nsteps:\n  a: { next: b }\n  \"b\\n\\e[2J\\u202E\": { kind: finish }\n  \"b\\n\\e[2J\\u202E\": { kind: finish }\n"
        let document = FlowLoader.load(bytes: Array(yaml.utf8), file: "f.yaml")
        let duplicate = try #require(Linter.lint(document).first { $0.rule == "duplicate_key" })
        #expect(duplicate.message == "duplicate key 'b\\n\\u{1b}[2J\\u{202e}' (first at line 6, column 3)")
    }
}

/// Mermaid labels show format characters as every other output does (issue 29): no bidirectional override, zero-width
/// character or other format character reaches a Mermaid file raw.
@Suite("Mermaid labels escape format characters")
struct MermaidFormatCharacterTests {
    @Test func noFormatCharacterReachesALabel() {
        let nasty = ["\u{202E}", "\u{202A}", "\u{2066}", "\u{2069}", "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{061C}", "\u{2060}"]
        for character in nasty {
            let escaped = MermaidWriter.escape("a" + character + "b")
            #expect(!escaped.unicodeScalars.contains { $0.properties.generalCategory == .format }, "\(escaped.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(escaped.hasPrefix("a#92;u#123;") && escaped.hasSuffix("#125;b"), "\(escaped)")
        }
        // Letters with combining marks are text, not format characters: kept as they are.
        #expect(MermaidWriter.escape("e\u{301}") == "e\u{301}")
    }
}
