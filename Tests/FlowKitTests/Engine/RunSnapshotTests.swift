import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// Saving and restoring a run (docs/format.md, "Saving and restoring a run").
@Suite("RunSnapshot")
struct RunSnapshotTests {
    private func load(_ path: String) throws -> (Script, CompiledFlow, FileFlowResolver) {
        let scriptDocument = try FlowLoader.load(path: packageRoot + "/" + path)
        let root = try #require(scriptDocument.root)
        let script = try #require(ScriptDecoder.decode(root, file: path).script)
        let flowPath = URL(fileURLWithPath: packageRoot + "/" + path).deletingLastPathComponent().appendingPathComponent(script.flow!).standardizedFileURL.path
        let flowDocument = try FlowLoader.load(path: flowPath)
        let flow = try CompiledFlow(flow: try #require(flowDocument.flow))
        return (script, flow, FileFlowResolver(root: URL(fileURLWithPath: flowPath).deletingLastPathComponent().path))
    }

    private func roundTrip(_ run: FlowRun, flow: CompiledFlow, resolver: FlowResolver) throws -> FlowRun {
        let data = try JSONEncoder().encode(run.snapshot())
        let decoded = try JSONDecoder().decode(RunSnapshot.self, from: data)
        #expect(decoded == run.snapshot())
        return try FlowRun(restoring: decoded, flow: flow, resolver: resolver)
    }

    /// Property: saving and restoring after every move of every sample scenario (nested flows, entries, back
    /// moves, restarts) changes nothing: the restored run ends exactly as the scripted run does.
    @Test(arguments: ["flows/scripts/booking.yaml", "flows/scripts/transfer.yaml", "flows/scripts/signup.yaml",
                      "flows/scripts/onboarding.yaml", "flows/scripts/profile.yaml"])
    func aRunRestoredAfterEveryMoveEndsAsTheRunItWasSavedFrom(_ path: String) throws {
        let (script, flow, resolver) = try load(path)
        for scenario in script.scenarios {
            let expected = ScriptRunner.run(scenario, script: script, flow: flow, resolver: resolver, maxSteps: 10_000)
            let start: RunStart
            switch scenario.start {
            case .state(let state): start = .start(state: state)
            case .entry(let entry, let params, let state): start = .entry(entry.text, params: params, state: state)
            case .url(let link, let state): start = .url(link.text, state: state)
            }
            var run = try roundTrip(try FlowRun(flow: flow, start: start, resolver: resolver), flow: flow, resolver: resolver)
            for item in scenario.steps {
                if item.back { try run.goBack() } else { try run.complete(event: item.event?.text, result: item.result) }
                run = try roundTrip(run, flow: flow, resolver: resolver)
            }
            #expect(run.path == expected.path, "\(scenario.name)")
            #expect(run.trace == expected.trace, "\(scenario.name)")
            #expect(run.state == expected.state && run.outcome == expected.outcome, "\(scenario.name)")
        }
    }

    @Test func valuesKeepTheirTypes() throws {
        let values: [String: Value] = ["i": .int(5), "n": .number(5), "s": .string("5"), "b": .bool(true), "z": .null,
                                       "o": .object(["x": .number(1.5), "y": .object([:])])]
        let text = String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
        #expect(try JSONDecoder().decode([String: Value].self, from: Data(text.utf8)) == values, "\(text)")
    }

    /// Issue 29: a saved run survives edits that cannot change a run (titles, descriptions, comments, layout, key
    /// order, quoting, expression spacing, the file converted to JSON), and fails on each that can.
    @Test func theFingerprintIsTheFlowsMeaningNotItsBytes() throws {
        let text = """
            flowkit: 1
            flow: f
            title: A flow
            start: a
            state: { n: int?, kind: [x, y] }
            events: { big: "result.n > 1", stop: }
            steps:
              a:
                title: First
                result: { n: int }
                set: { n: result.n }
                on: { big: b }
                next: b
              b:
                on: { stop: done }
                next: [{ forward: done, if: "state.n == 2" }, a]
              done: { kind: finish }
            """
        func flow(_ text: String, format: DocumentFormat = .yaml) throws -> CompiledFlow {
            let document = FlowLoader.load(bytes: Array(text.utf8), file: "f.yaml", format: format)
            #expect(document.diagnostics.filter { $0.severity == .error }.isEmpty, "\(document.diagnostics.map(\.message))\n\(text)")
            return try CompiledFlow(flow: try #require(document.flow))
        }
        let original = try flow(text)
        var run = try FlowRun(flow: original)
        try run.complete(result: ["n": .int(1)])
        let saved = run.snapshot()
        let cosmetic: [(String, String)] = [
            ("title: First", "title: The first screen\n    description: asks for n"),
            ("title: A flow", "title: Another title  # a comment"),
            ("state: { n: int?, kind: [x, y] }", "state:\n  kind: [y, x]\n  n: int?"),
            ("\"state.n == 2\"", "'(state.n)==2'"),
            ("next: [{ forward: done, if: \"state.n == 2\" }, a]", "next:\n      - { forward: done, if: state.n == 2 }\n      - a"),
            ("  done: { kind: finish }", "  done:\n    kind: finish\n    lint: { allow: [unreachable_step] }"),
        ]
        for (from, to) in cosmetic {
            #expect(text.contains(from), "\(from)")
            let edited = try flow(text.replacingOccurrences(of: from, with: to))
            #expect(edited.flow.fingerprint == original.flow.fingerprint, "\(to)")
            var restored = try FlowRun(restoring: saved, flow: edited)
            #expect(restored.currentStep == "b")
            try restored.complete(event: "stop")
            #expect(restored.outcome == "done")
        }
        // The same flow as JSON.
        let json = #"{"flowkit": 1, "flow": "f", "start": "a", "state": {"kind": ["x", "y"], "n": "int?"}, "events": {"big": "result.n>1", "stop": null}, "#
            + #""steps": {"b": {"next": [{"forward": "done", "if": "state.n == 2"}, "a"], "on": {"stop": "done"}}, "a": {"result": {"n": "int"}, "#
            + #""set": {"n": "result.n"}, "on": {"big": "b"}, "next": "b"}, "done": {"kind": "finish"}}}"#
        #expect(try flow(json, format: .json).flow.fingerprint == original.flow.fingerprint)
        let meaningful: [(String, String)] = [
            ("next: b\n", "next: done\n"), ("\"state.n == 2\"", "\"state.n == 3\""), ("n: int?", "n: number?"), ("kind: [x, y]", "kind: [x, y, z]"),
            ("set: { n: result.n }", "set: { n: result.n + 1 }"), ("flow: f", "flow: g"), ("  done: { kind: finish }", "  done: { kind: finish, outcome: ok }"),
            ("on: { stop: done }", "on: { stop: a }"), ("events: { big: \"result.n > 1\", stop: }", "events: { stop: , big: \"result.n > 1\" }"), ("big: \"result.n > 1\"", "big: \"result.n > 2\""), ("result: { n: int }", "result: { n: int? }"),
        ]
        for (from, to) in meaningful {
            #expect(text.contains(from), "\(from)")
            let edited = try flow(text.replacingOccurrences(of: from, with: to))
            #expect(edited.flow.fingerprint != original.flow.fingerprint, "\(to)")
            #expect(throws: RunError.self, "\(to)") { try FlowRun(restoring: saved, flow: edited) }
        }
    }

    @Test func aChangedFlowOrAStepItLacksIsAClearError() throws {
        let text = "flowkit: 1\nflow: f\nstart: a\nsteps:\n  a: { next: b }\n  b: { next: c }\n  c: { kind: finish }\n"
        let original = try CompiledFlow(flow: try #require(FlowLoader.load(bytes: Array(text.utf8), file: "f.yaml", format: .yaml).flow))
        var run = try FlowRun(flow: original)
        try run.complete()
        let saved = run.snapshot()
        let edited = text.replacingOccurrences(of: "c: { kind: finish }", with: "c: { kind: finish }\n  d: { kind: finish }")
        let changed = try CompiledFlow(flow: try #require(FlowLoader.load(bytes: Array(edited.utf8), file: "f.yaml", format: .yaml).flow))
        #expect(throws: RunError.self) { try FlowRun(restoring: saved, flow: changed) }
        do {
            _ = try FlowRun(restoring: saved, flow: changed)
        } catch {
            #expect(error.kind == .invalidStart)
            #expect(error.message.hasPrefix("the saved run was made with another version of flow 'f' (saved fingerprint \(original.flow.fingerprint), now \(changed.flow.fingerprint))"))
        }
        var renamed = saved
        renamed.levels[0].history = ["a", "zz"]
        #expect(throws: RunError("the saved run is at step 'zz', which flow 'f' does not have", kind: .invalidStart)) {
            try FlowRun(restoring: renamed, flow: original)
        }
        var restored = try FlowRun(restoring: saved, flow: original)
        #expect(restored.currentStep == "b")
        try restored.complete()
        #expect(restored.path == ["a", "b", "c"] && restored.outcome == "c")
    }
}
