import FlowGen
import FlowKit
import Foundation
import Testing

/// Every script flowkit writes reads back and passes (issue 29): `generate scenarios`, `--extend`, and the
/// scenario `simulate --interactive` saves, for flows whose names YAML reads otherwise (`null`, `yes`, `on`, …) or
/// cannot read as implicit keys (over 1,024 characters), and whose texts hold quotes, escapes and line breaks.
@Suite("Scripts read back")
struct ScriptRoundTripTests {
    /// A flow with names over 1,024 characters, as JSON (which has no limit on keys), with a nested flow, an entry
    /// and texts a YAML scalar must escape.
    static func longNamesFlow(_ long: (String) -> String) -> (main: String, child: String) {
        let step = long("ask"), event = long("retry"), key = long("amount"), entry = long("open"), outcome = long("done")
        let main = """
            {"flowkit": 1, "flow": "\(long("loan"))", "start": "\(step)",
             "state": {"\(key)": "int?", "note": "string?", "kind": ["a b", "x: y", "#c", "q\\"d", "l\\nm", "\\u0085z"]},
             "events": {"\(event)": null, "big": "result.\(key) > 10"},
             "entries": {"\(entry)": {"step": "\(step)", "path": "/loan/{\(key)}"}},
             "steps": {
               "\(step)": {"result": {"\(key)": "int", "kind": ["a b", "x: y", "#c", "q\\"d", "l\\nm", "\\u0085z"]},
                          "set": {"\(key)": "result.\(key)", "kind": "result.kind"},
                          "on": {"\(event)": "\(step)", "big": "check"}, "next": "check"},
               "check": {"kind": "flow", "flow": "child.json", "next": [{"forward": "\(outcome)", "if": "state.kind == 'x: y'"}, "\(outcome)"]},
               "\(outcome)": {"kind": "finish"}
             }}
            """
        let child = """
            {"flowkit": 1, "flow": "child", "start": "\(long("inner"))",
             "state": {"note": "string?"},
             "steps": {"\(long("inner"))": {"result": {"note": "string"}, "set": {"note": "result.note"},
                                            "next": [{"forward": "ok", "if": "result.note == 'a \\"b\\" #: - ?'"}, "ok"]},
                       "ok": {"kind": "finish"}}}
            """
        return (main, child)
    }

    /// Names YAML reads as something else, for renamed random flows.
    static let yamlWords = ["null", "Null", "true", "False", "yes", "No", "on", "OFF", "y", "N", "_", "inf", "nan", "e1", "x0"]

    /// `text` with names of `flow` replaced, as whole words, by `yamlWords`.
    static func renamed(_ text: String, flow: FlowBlueprint, seed: UInt64) -> String {
        var names: [String] = flow.steps.map(\.name) + flow.state.map(\.name) + flow.events.map(\.name)
        for step in flow.steps { names += (step.result ?? []).map(\.name) }
        var unique: [String] = []
        for name in names where !unique.contains(name) { unique.append(name) }
        var pool = yamlWords
        var rng = SplitMix64(seed: seed)
        var output = text
        for name in unique where !pool.isEmpty && rng.chance(0.6) {
            output = output.replacingOccurrences(of: "\\b\(name)\\b", with: pool.remove(at: rng.below(pool.count)), options: .regularExpression)
        }
        return output
    }

    /// Lints and simulates `script`: both must pass.
    static func passes(_ script: String, _ label: String) throws {
        let lint = try flowkit(["lint", script])
        #expect(lint.status == 0, "\(label): \(lint.stdout)\(lint.stderr)")
        let simulated = try flowkit(["simulate", "--quiet", "--script", script])
        #expect(simulated.status == 0, "\(label): \(simulated.stdout.prefix(3_000))\(simulated.stderr.prefix(2_000))")
    }

    @Test func everyScriptFlowkitWritesReadsBackAndPasses() throws {
        let folder = NSTemporaryDirectory() + "flowkit-roundtrip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var flows: [String] = []
        // Names over 1,024 characters.
        let (main, child) = Self.longNamesFlow { $0 + String(repeating: "x", count: 1_100) }
        try main.write(toFile: folder + "/long.json", atomically: true, encoding: .utf8)
        try child.write(toFile: folder + "/child.json", atomically: true, encoding: .utf8)
        let lint = try flowkit(["lint", folder + "/long.json"])
        #expect(lint.status == 0, "the long-names flow is clean: \(lint.stdout)")
        flows.append(folder + "/long.json")
        // Random flows with names YAML reads otherwise; those lint finds clean.
        var seed: UInt64 = 1
        while flows.count < 8 && seed < 800 {
            defer { seed += 1 }
            let bundle = BlueprintGenerator.bundle(seed: seed)
            guard bundle.children.isEmpty else { continue }
            let path = folder + "/r\(seed).yaml"
            try Self.renamed(bundle.main.text, flow: bundle.main.flow, seed: seed).write(toFile: path, atomically: true, encoding: .utf8)
            guard try flowkit(["lint", path]).status == 0 else { continue }
            flows.append(path)
        }
        #expect(flows.count == 8)
        var extendedCount = 0
        var playedCount = 0
        for flow in flows {
            let script = flow + ".scenarios.yaml"
            let generated = try flowkit(["generate", "scenarios", flow, "-o", script])
            #expect(generated.status == 0, "\(flow): \(generated.stderr)")
            try Self.passes(script, flow)

            // Extended: a script of the first scenario ending in a `|+` block scalar (with and without a blank line
            // after it) gains the others, and its own text and meaning stay as they were, byte for byte.
            let text = try String(contentsOfFile: script, encoding: .utf8)
            guard let firstItem = text.range(of: "\n  - name:"),
                  let second = text.range(of: "\n\n  # covers", range: firstItem.upperBound..<text.endIndex) else { continue }
            for ending in ["", "\n\n"] {
                // The first scenario with its name moved to its end, as a kept block scalar: the last thing in the file.
                var lines = String(text[..<second.lowerBound]).components(separatedBy: "\n")
                let nameLine = try #require(lines.firstIndex { $0.hasPrefix("  - name: ") })
                lines.remove(at: nameLine)
                lines[nameLine] = "  - " + lines[nameLine].dropFirst(4)
                let first = lines.joined(separator: "\n") + "\n    name: |+\n      kept" + ending
                let partial = flow + ".partial.yaml"
                try first.write(toFile: partial, atomically: true, encoding: .utf8)
                let extended = try flowkit(["generate", "scenarios", flow, "--extend", partial])
                let after = try String(contentsOfFile: partial, encoding: .utf8)
                if ending.isEmpty {
                    // No line break after the kept scalar: one added would change its value, so nothing is written.
                    #expect(extended.status == 2 && extended.stderr.contains("end the file with a line break"), "\(flow): \(extended.stderr)")
                    #expect(after == first)
                    continue
                }
                #expect(extended.status == 0, "\(flow): \(extended.stderr)")
                #expect(after.hasPrefix(first) && after.count > first.count, "\(flow): the existing text is kept byte for byte")
                try Self.passes(partial, flow + " extended")
                extendedCount += 1
            }

            // Played by hand and saved: each generated scenario whose moves a person can type.
            let scenarios = try #require(try ScriptLoader.scenarios(of: script))
            for (index, scenario) in scenarios.prefix(2).enumerated() where scenario.moves.allSatisfy({ !($0.event != nil && $0.result != nil) }) {
                guard scenario.startsAtStart else { continue }
                var lines = scenario.moves.map { move -> String in
                    if let event = move.event { return event }
                    if let result = move.result { return ScriptLoader.json(.object(result)) }
                    return "next"
                }
                let saved = flow + ".played\(index).yaml"
                lines += [saved, "played: \"quoted\" # not a comment \u{2028} " + String(repeating: "n", count: 1_100)]
                let played = try flowkit(["simulate", flow, "--interactive", "--state", ScriptLoader.json(.object(scenario.state))],
                                         input: lines.joined(separator: "\n") + "\n")
                #expect(played.status == 0 && played.stdout.contains("wrote "), "\(flow): \(played.stdout.suffix(2_000))\(played.stderr)")
                try Self.passes(saved, flow + " played")
                playedCount += 1
            }
        }
        #expect(extendedCount >= 3 && playedCount >= 3, "extended \(extendedCount), played \(playedCount)")
    }
}

/// The scenarios of a generated script, read back through the library, for playing them by hand.
enum ScriptLoader {
    /// `value` as plain JSON, as a person types it.
    static func json(_ value: Value) -> String {
        func string(_ text: String) -> String { String(decoding: try! JSONEncoder().encode(text), as: UTF8.self) }
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .number(let number): return String(number)
        case .string(let text): return string(text)
        case .object(let fields): return "{" + fields.keys.sorted().map { string($0) + ": " + json(fields[$0]!) }.joined(separator: ", ") + "}"
        }
    }

    struct Played {
        var moves: [(event: String?, result: [String: Value]?)]
        var state: [String: Value]
        var startsAtStart: Bool
    }

    static func scenarios(of path: String) throws -> [Played]? {
        let document = try FlowLoader.load(path: path)
        guard let root = document.root, let script = ScriptDecoder.decode(root, file: path).script else { return nil }
        return script.scenarios.map { scenario in
            var state: [String: Value] = [:]
            var startsAtStart = true
            switch scenario.start {
            case .state(let values): state = values
            default: startsAtStart = false
            }
            return Played(moves: scenario.steps.map { ($0.event?.text, $0.result) }, state: state, startsAtStart: startsAtStart)
        }
    }
}
