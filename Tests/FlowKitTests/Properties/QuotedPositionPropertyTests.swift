import Foundation
import Testing
import FlowGen
@testable import FlowKit

/// Issue 32's property: a finding inside an expression points at the same token however the expression is written:
/// plain, single-quoted (`''`, folded lines), a folded block scalar (`>-`), double-quoted (`\"`, `\x`, `\u`, `\U` escapes, folded lines, escaped
/// line breaks), or as a JSON string (`\u` escapes, surrogate pairs). Each writer records where it wrote each
/// character of the value, independently of the readers; lint's positions must be those.
@Suite("Positions inside quoted text")
struct QuotedPositionPropertyTests {
    /// One written value: its lines (the first one's text starts at `column` of the flow's line), and where each
    /// character of the decoded value was written (the first written character of its escape or fold).
    struct Written {
        var lines: [String] = [""]
        var places: [SourcePosition] = []
        let firstLine: Int
        let column: Int

        init(firstLine: Int, column: Int) {
            self.firstLine = firstLine
            self.column = column
        }

        /// Where the next written character goes.
        var here: SourcePosition {
            SourcePosition(line: firstLine + lines.count - 1, column: (lines.count == 1 ? column : 1) + lines[lines.count - 1].unicodeScalars.count)
        }

        mutating func write(_ text: String) { lines[lines.count - 1] += text }
        mutating func breakLine(indent: Int) {
            lines.append(String(repeating: " ", count: indent))
        }
        /// Records that the value's next character starts here.
        mutating func mark() { places.append(here) }
    }

    enum Style: CaseIterable { case plain, single, double, folded, json }

    /// A random expression over `state.n` (int) and `state.s` (text), with two undeclared keys planted in it; the
    /// value and the offsets of the planted keys.
    static func expression(_ random: inout SplitMix64) -> (text: String, planted: [Int]) {
        let alphabet: [String] = ["a", "Z", "0", " ", "é", "日", "😀", "\"", "\\", "#", ":", "/", "\t", "ß"]
        func literal() -> String {
            var text = ""
            for _ in 0..<Int.random(in: 0...6, using: &random) { text += alphabet.randomElement(using: &random)! }
            // The expression language's own escapes: a backslash and a quote inside '…'.
            return "'" + text.replacingOccurrences(of: "\\", with: "\\\\") + "'"
        }
        var terms: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            switch Int.random(in: 0..<3, using: &random) {
            case 0: terms.append("state.n > \(Int.random(in: -5...500, using: &random))")
            case 1: terms.append("state.s == " + literal())
            default: terms.append("(state.s + " + literal() + ") != 'x'")
            }
        }
        var planted: [Int] = []
        var text = ""
        let plantAt = Set([Int.random(in: 0...terms.count, using: &random), Int.random(in: 0...terms.count, using: &random)])
        for index in 0...terms.count {
            if plantAt.contains(index) {
                if !text.isEmpty { text += " && " }
                planted.append(text.unicodeScalars.count)
                text += "state.nope\(index) == 1"
            }
            if index < terms.count {
                if !text.isEmpty { text += Bool.random(using: &random) ? " && " : " || " }
                text += terms[index]
            }
        }
        return (text, planted)
    }

    /// `value` written in `style`, starting at `column` of line `line`; nil when the style cannot write it (a plain
    /// scalar with characters YAML reads otherwise).
    static func write(_ value: String, _ style: Style, line: Int, column: Int, random: inout SplitMix64) -> Written? {
        var out = Written(firstLine: line, column: column)
        let scalars = Array(value.unicodeScalars)
        // A space may fold (become a line break) when it is a single space between two other characters.
        func mayFold(_ index: Int) -> Bool {
            scalars[index] == " " && index > 0 && index + 1 < scalars.count && scalars[index - 1] != " " && scalars[index + 1] != " "
                && scalars[index - 1] != "\t" && scalars[index + 1] != "\t"
        }
        // An anchor before the value, now and then: the value's own text starts after it.
        if style != .json && Int.random(in: 0..<4, using: &random) == 0 { out.write("&v ") }
        // Blanks before a folded line break are dropped: written now and then.
        func trailing() { out.write(String(repeating: " ", count: Int.random(in: 0...2, using: &random))) }
        switch style {
        case .plain:
            if value.contains(": ") || value.contains(" #") || value.contains("\t") || value.hasSuffix(":") || value.hasSuffix(" ") { return nil }
            for (index, scalar) in scalars.enumerated() {
                if mayFold(index) && Int.random(in: 0..<4, using: &random) == 0 {
                    trailing()
                    out.mark()
                    out.breakLine(indent: 10)
                    continue
                }
                out.mark()
                out.write(String(scalar))
            }
        case .folded:
            // `>-` then the value's lines, each indented; a single space between two characters may fold.
            if value.contains("\t") { return nil }
            out.write(">-")
            out.breakLine(indent: 10)
            for (index, scalar) in scalars.enumerated() {
                out.mark()
                if mayFold(index) && Int.random(in: 0..<4, using: &random) == 0 {
                    out.breakLine(indent: 10)
                } else {
                    out.write(String(scalar))
                }
            }
        case .single:
            out.write("'")
            for (index, scalar) in scalars.enumerated() {
                if mayFold(index) && Int.random(in: 0..<4, using: &random) == 0 {
                    trailing()
                    out.mark()
                    out.breakLine(indent: 10)
                } else {
                    out.mark()
                    out.write(scalar == "'" ? "''" : String(scalar))
                }
            }
            out.write("'")
        case .double:
            out.write("\"")
            for (index, scalar) in scalars.enumerated() {
                // An escaped line break before a character that is no blank: the lines join with nothing between.
                if scalar != " " && scalar != "\t" && index > 0 && Int.random(in: 0..<8, using: &random) == 0 {
                    out.write("\\")
                    out.breakLine(indent: 10)
                }
                if mayFold(index) && Int.random(in: 0..<4, using: &random) == 0 {
                    trailing()
                    out.mark()
                    out.breakLine(indent: 10)
                    continue
                }
                if scalar == " " && Int.random(in: 0..<6, using: &random) == 0 {
                    // A space kept at the start of a line: an escaped line break, then the space escaped.
                    out.write("\\")
                    out.breakLine(indent: 10)
                    out.mark()
                    out.write("\\ ")
                    continue
                }
                out.mark()
                let code = scalar.value
                switch Int.random(in: 0..<6, using: &random) {
                case 0 where code < 0x100: out.write(String(format: "\\x%02X", code))
                case 1 where code < 0x10000: out.write(String(format: "\\u%04x", code))
                case 2: out.write(String(format: "\\U%08X", code))
                default:
                    switch scalar {
                    case "\"": out.write("\\\"")
                    case "\\": out.write("\\\\")
                    case "\t": out.write("\\t")
                    default: out.write(String(scalar))
                    }
                }
            }
            out.write("\"")
        case .json:
            out.write("\"")
            for scalar in scalars {
                out.mark()
                let code = scalar.value
                if Int.random(in: 0..<4, using: &random) == 0 {
                    if code >= 0x10000 {
                        let high = 0xD800 + ((code - 0x10000) >> 10), low = 0xDC00 + ((code - 0x10000) & 0x3FF)
                        out.write(String(format: "\\u%04X\\u%04x", high, low))
                    } else {
                        out.write(String(format: "\\u%04x", code))
                    }
                    continue
                }
                switch scalar {
                case "\"": out.write("\\\"")
                case "\\": out.write("\\\\")
                case "\t": out.write("\\t")
                case "/": out.write(Bool.random(using: &random) ? "\\/" : "/")
                default: out.write(String(scalar))
                }
            }
            out.write("\"")
        }
        out.mark() // the end of the value
        return out
    }

    @Test func findingsPointAtTheSameTokenHoweverTheExpressionIsWritten() throws {
        let folder = NSTemporaryDirectory() + "flowkit-quoted-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var random = SplitMix64(seed: ProcessInfo.processInfo.environment["FLOWKIT_PROPERTY_SEED"].flatMap { UInt64($0) } ?? 0x9_0073)
        var checked: [Style: Int] = [:]
        var wrong: [String] = []
        for round in 0..<300 {
            let (value, planted) = Self.expression(&random)
            for style in Style.allCases {
                let text: String
                let name: String
                let written: Written
                if style == .json {
                    guard let out = Self.write(value, .json, line: 1, column: 0, random: &random) else { continue }
                    let head = "{\"flowkit\": 1, \"flow\": \"p\", \"start\": \"a\", \"state\": {\"n\": \"int\", \"s\": \"string\"}, \"inputs\": [\"n\", \"s\"], "
                        + "\"steps\": {\"a\": {\"next\": [{\"forward\": \"b\", \"if\": "
                    // The writer counted from column 0; the value starts after the head.
                    var shifted = Written(firstLine: 1, column: head.unicodeScalars.count + 1)
                    shifted.lines = out.lines
                    shifted.places = out.places.map { SourcePosition(line: $0.line, column: $0.column + head.unicodeScalars.count + 1) }
                    written = shifted
                    text = head + out.lines.joined(separator: "\n") + "}, \"b\"]}, \"b\": {\"kind\": \"finish\"}}}\n"
                    name = "r\(round).json"
                } else {
                    let head = "flowkit: 1\nflow: p\nstart: a\nstate: { n: int, s: string }\ninputs: [n, s]\nsteps:\n  a:\n    next:\n      - forward: b\n"
                    // Line 10: `        if: ` then the value at column 13.
                    guard let out = Self.write(value, style, line: 10, column: 13, random: &random) else { continue }
                    written = out
                    text = head + "        if: " + out.lines.joined(separator: "\n") + "\n      - b\n  b: { kind: finish }\n"
                    name = "r\(round).yaml"
                }
                try text.write(toFile: folder + "/" + name, atomically: false, encoding: .utf8)
                let document = try FlowLoader.load(path: folder + "/" + name)
                guard document.isWellFormed else {
                    wrong.append("\(style) does not read: \(document.diagnostics.map(\.message))\n\(text)")
                    continue
                }
                let decoded = document.flow?.steps.first?.next?.first?.condition?.text
                guard decoded == value else {
                    wrong.append("\(style) reads as \(decoded ?? "nothing") rather than \(value)\n\(text)")
                    continue
                }
                let found = Linter.lint(document).filter { $0.rule == .undeclaredState }.map(\.position).sorted()
                let expected = planted.map { written.places[$0] }.sorted()
                if found != expected {
                    wrong.append("\(style): findings at \(found), the planted keys were written at \(expected)\n\(text)")
                }
                checked[style, default: 0] += 1
            }
        }
        print("quoted positions: " + Style.allCases.map { "\($0) \(checked[$0] ?? 0)" }.joined(separator: ", "))
        #expect(wrong.isEmpty, Comment(rawValue: "\(wrong.count) wrong, e.g.:\n" + wrong.prefix(3).joined(separator: "\n\n")))
        #expect(Style.allCases.allSatisfy { (checked[$0] ?? 0) >= 50 })
    }
}

/// A finding whose position cannot be worked out says so rather than pointing at the value's start in silence.
@Suite("Positions that do not map back")
struct UnmappedPositionTests {
    @Test func theNoteSaysWhenAPositionIsTheValuesStart() {
        // Text over two lines with no text as written: the readers never give it, so nothing maps past the break.
        let source = ExpressionSource(text: "state.a +\nstate.b", position: SourcePosition(line: 3, column: 7), quoted: true)
        #expect(source.unmappedNote(ofOffset: 0) == "")
        #expect(source.unmappedNote(ofOffset: 6) == "")
        #expect(source.position(ofOffset: 6) == SourcePosition(line: 3, column: 14))
        #expect(source.unmappedNote(ofOffset: 10) == " (shown at the start of the value: the expression's text at character 11 does not map back to the file)")
        #expect(source.position(ofOffset: 10) == SourcePosition(line: 3, column: 7))
    }
}
