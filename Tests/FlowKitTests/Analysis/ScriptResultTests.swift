@testable import FlowKit
import FlowGen
import Foundation
import Testing

/// Lint of a script checks a step's result as the engine does before any run (issue 28, item 5): on random
/// declared shapes and random results (missing, unknown and misspelt keys, values of every type, enum values that
/// do not exist, `.nan`, nested objects), the script gets a `script` finding about the result exactly when the
/// engine refuses the completion.
@Suite("Script results against the declared shape")
struct ScriptResultTests {
    /// Declared types as written in flow style, each with values that fit it.
    static let types: [(type: String, fits: [String])] = [
        ("int", ["1", "-7"]), ("number", ["1.5", "2"]), ("string", ["'a'", "'gold'"]), ("bool", ["true"]),
        ("[gold, silver]", ["'gold'", "'silver'"]), ("\"int?\"", ["3", "null"]), ("\"string?\"", ["'x'", "null"]),
        ("{ x: int, y: \"string?\" }", ["{ x: 1 }", "{ x: 1, y: 'b' }"]),
    ]
    static let values = ["1", "-7", "1.5", ".nan", "'a'", "'gold'", "'golden'", "true", "null", "{ x: 1 }", "{ x: 'a' }", "{ x: 1, y: 'b' }", "{}"]

    @Test func lintFindsExactlyWhatTheEngineRefuses() throws {
        var rng = SplitMix64(seed: 0x5C21)
        let folder = NSTemporaryDirectory() + "flowkit-script-results-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var refused = 0
        var accepted = 0
        for round in 0..<300 {
            let keys = ["amount", "tier", "note", "card"].filter { _ in rng.chance(0.6) }
            let declared = (keys.isEmpty ? ["amount"] : keys).map { ($0, rng.pick(Self.types)) }
            var given: [(String, String)] = []
            for (key, type) in declared where rng.chance(0.9) { given.append((key, rng.chance(0.85) ? rng.pick(type.fits) : rng.pick(Self.values))) }
            if rng.chance(0.1) { given.append((rng.pick(["amout", "extra", "Tier"]), rng.pick(Self.values))) }
            let flow = """
                flowkit: 1
                flow: shape
                start: s
                steps:
                  s:
                    result: { \(declared.map { "\($0.0): \($0.1.type)" }.joined(separator: ", ")) }
                    next: done
                  done: { kind: finish }
                """
            let result = "{ " + given.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + " }"
            let script = "flowkit-script: 1\nflow: shape.yaml\nscenarios:\n  - name: one\n    steps:\n      - s: { result: \(result) }\n"
            try flow.write(toFile: folder + "/shape.yaml", atomically: true, encoding: .utf8)
            try script.write(toFile: folder + "/script.yaml", atomically: true, encoding: .utf8)
            let findings = Linter.lint(try FlowLoader.load(path: folder + "/script.yaml")).filter { $0.rule == .script }
            // The engine, given the same values as the script reader reads them.
            let scriptDocument = try FlowLoader.load(path: folder + "/script.yaml")
            let scriptRoot = try #require(scriptDocument.root)
            let decoded = try #require(ScriptDecoder.decode(scriptRoot, file: "script.yaml").script)
            let values = try #require(decoded.scenarios.first?.steps.first?.result)
            let model = try #require(try FlowLoader.load(path: folder + "/shape.yaml").flow)
            let compiled = try CompiledFlow(flow: model)
            var run = try FlowRun(flow: compiled)
            var engineRefuses = false
            do {
                try run.complete(result: values)
            } catch {
                engineRefuses = error.kind == .invalidCompletion
                #expect(engineRefuses, "round \(round): the engine failed otherwise: \(error.message)")
            }
            #expect(!findings.isEmpty == engineRefuses,
                    "round \(round): lint \(findings.map(\.message)), engine refuses: \(engineRefuses)\n\(flow)\n\(script)")
            if engineRefuses { refused += 1 } else { accepted += 1 }
        }
        #expect(refused > 60 && accepted > 30, "refused \(refused), accepted \(accepted)")
    }
}

/// Lint of a script checks a scenario's start as the engine does (issue 28, item 5): on random initial states
/// (declared and undeclared keys, values of every type, `.nan`, required inputs left out or null), the script gets
/// a `script` finding about the start exactly when the engine refuses to start the run.
@Suite("Script starts against the flow")
struct ScriptStartTests {
    static let values = ["1", "2.5", ".nan", "'a'", "'gold'", "true", "null", "{ x: 1 }"]

    @Test func lintFindsExactlyWhatTheEngineRefusesAtTheStart() throws {
        var rng = SplitMix64(seed: 0x57A7)
        let folder = NSTemporaryDirectory() + "flowkit-script-starts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let flow = """
            flowkit: 1
            flow: starts
            start: s
            state: { amount: int, tier: [gold, silver], note: "string?", rate: number }
            inputs: [amount, note]
            steps:
              s: { next: done }
              done: { kind: finish }
            """
        try flow.write(toFile: folder + "/starts.yaml", atomically: true, encoding: .utf8)
        let model = try #require(try FlowLoader.load(path: folder + "/starts.yaml").flow)
        let compiled = try CompiledFlow(flow: model)
        var refused = 0
        var accepted = 0
        for round in 0..<300 {
            var given: [(String, String)] = []
            for key in ["amount", "tier", "note", "rate", "amout"] where rng.chance(key == "amout" ? 0.1 : 0.7) {
                let fitting = ["amount": "7", "tier": "'gold'", "note": "'n'", "rate": "1.5", "amout": "1"][key]!
                given.append((key, rng.chance(0.8) ? fitting : rng.pick(Self.values)))
            }
            let state = "{ " + given.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + " }"
            let script = "flowkit-script: 1\nflow: starts.yaml\nscenarios:\n  - name: one\n    start: { state: \(state) }\n    steps:\n      - s: {}\n"
            try script.write(toFile: folder + "/script.yaml", atomically: true, encoding: .utf8)
            let document = try FlowLoader.load(path: folder + "/script.yaml")
            let findings = Linter.lint(document).filter { $0.rule == .script }
            let root = try #require(document.root)
            let decoded = try #require(ScriptDecoder.decode(root, file: "script.yaml").script)
            guard case .state(let values) = try #require(decoded.scenarios.first).start else { Issue.record("not a state start"); continue }
            var engineRefuses = false
            do {
                _ = try FlowRun(flow: compiled, start: .start(state: values))
            } catch {
                engineRefuses = true
                #expect(error.kind == .invalidStart || error.kind == .missingInput, "round \(round): \(error.message)")
            }
            #expect(!findings.isEmpty == engineRefuses, "round \(round): lint \(findings.map(\.message)), engine refuses: \(engineRefuses)\n\(script)")
            if engineRefuses { refused += 1 } else { accepted += 1 }
        }
        #expect(refused > 60 && accepted > 30, "refused \(refused), accepted \(accepted)")
    }
}

/// Names inside nested flows in scripts (issue 28, item 5): a step, an event or an `expect.path` name that the
/// nested flow does not have is a `script` finding at the name, with did-you-mean; the sample script is clean.
@Suite("Script names inside nested flows")
struct ScriptNestedNameTests {
    static func lint(_ script: String) throws -> [Diagnostic] {
        let folder = NSTemporaryDirectory() + "flowkit-script-names-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/scripts", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/nested", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for file in ["booking.json", "nested/sign-in.yaml"] {
            try FileManager.default.copyItem(atPath: packageRoot + "/flows/" + file, toPath: folder + "/" + file)
        }
        try script.write(toFile: folder + "/scripts/booking.yaml", atomically: true, encoding: .utf8)
        return Linter.lint(try FlowLoader.load(path: folder + "/scripts/booking.yaml")).filter { $0.rule == .script }
    }

    @Test func everyMisspeltNestedNameIsFoundWhereItIsWritten() throws {
        let sample = try String(contentsOfFile: packageRoot + "/flows/scripts/booking.yaml", encoding: .utf8)
        #expect(try Self.lint(sample).isEmpty)
        var rng = SplitMix64(seed: 0x4E57)
        let nestedNames = ["signIn/email", "signIn/password", "signIn/signedIn"]
        for round in 0..<40 {
            // One occurrence of a nested name, its inner part misspelt by one dropped or doubled letter.
            let name = rng.pick(nestedNames)
            let ranges = sample.ranges(of: name)
            guard !ranges.isEmpty else { continue }
            let range = ranges[rng.below(ranges.count)]
            var inner = Array(name.dropFirst("signIn/".count))
            let at = rng.below(inner.count)
            if rng.chance(0.5) { inner.remove(at: at) } else { inner.insert(inner[at], at: at) }
            let typo = "signIn/" + String(inner)
            let mutated = sample.replacingCharacters(in: range, with: typo)
            let line = sample[..<range.lowerBound].filter { $0 == "\n" }.count + 1
            let findings = try Self.lint(mutated)
            #expect(findings.contains { $0.position.line == line && $0.message.contains("in '\(typo)' is not a step of the nested flow of 'signIn'") },
                    "round \(round): \(typo) at line \(line): \(findings.map { "\($0.position) \($0.message)" })")
            #expect(findings.allSatisfy { $0.position.line == line }, "round \(round): \(findings.map(\.message))")
        }
        let event = try Self.lint(sample.replacingOccurrences(of: "- signIn/email: { result: { email: guest@example.com } }",
                                                               with: "- signIn/email: { event: cancle }"))
        #expect(event.contains { $0.message == "event 'cancle' is not declared in the nested flow of step 'signIn/email'; did you mean 'cancel'?" })
    }
}
