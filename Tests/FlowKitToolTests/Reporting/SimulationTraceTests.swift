import Foundation
import Testing
import FlowGen
@testable import FlowKit
@testable import FlowKitTool

/// `--trace-out` files are the JSON of `SimulationTrace`, read back through the same type.
@Suite("Simulation traces")
struct SimulationTraceTests {
    /// Property: for every sample script, and random runs of random flows (back buttons included), the trace
    /// written as JSON reads back as the same value: each scenario's name, outcome, path, entry, state and every
    /// completion as the engine recorded it.
    @Test func aTraceReadsBackAsItWasWritten() throws {
        var reports: [SimulationReport] = []
        for name in ["booking", "onboarding", "profile", "signup", "transfer"] {
            let path = packageRoot + "/flows/scripts/\(name).yaml"
            let root = try #require(try FlowLoader.load(path: path).root)
            let script = try #require(ScriptDecoder.decode(root, file: path).script)
            let flowPath = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(try #require(script.flow)).standardized.path
            let loaded = try #require(try FlowLoader.load(path: flowPath).flow)
            let flow = try CompiledFlow(flow: loaded)
            reports.append(SimulationReport(script: path, flow: flowPath, results: ScriptRunner.run(script, flow: flow, resolver: FileFlowResolver(root: "/"))))
        }
        for seed in UInt64(1)...40 {
            let bundle = BlueprintGenerator.bundle(seed: seed)
            guard let main = FlowLoader.load(bytes: Array(bundle.main.text.utf8), file: bundle.main.name).flow,
                  let flow = try? CompiledFlow(flow: main) else { continue }
            var children: [String: CompiledFlow] = [:]
            for child in bundle.children {
                if let loaded = FlowLoader.load(bytes: Array(child.text.utf8), file: child.name).flow, let compiled = try? CompiledFlow(flow: loaded) {
                    children[child.name] = compiled
                }
            }
            let resolver = InMemoryResolver(children)
            let walk = RandomWalker(flow: flow, resolver: resolver).walk(seed: seed)
            // The walk's completions as moves (an event wins over a result), a back button every fifth.
            var moves: [RunMove] = []
            for (index, completion) in walk.completions.enumerated() {
                if index % 5 == 4 { moves.append(.back) }
                moves.append(completion.event.map { .event($0) } ?? completion.result.map { .result($0, step: nil) } ?? .next)
            }
            let result = ScriptRunner.run(moves: moves, start: walk.start.runStart, flow: flow, resolver: resolver)
            reports.append(SimulationReport(script: "random", flow: bundle.main.name, results: [result]))
        }
        let kinds = Set(reports.flatMap { $0.results.flatMap { $0.trace.map(\.move) } })
        #expect(kinds.isSuperset(of: [.forward, .back, .backOne, .backButton]), "the runs make too few kinds of move: \(kinds)")
        for report in reports {
            let trace = SimulationTrace(report)
            let read = try JSONDecoder().decode(SimulationTrace.self, from: Data(try trace.json()))
            #expect(read == trace)
            #expect(read.scenarios.count == report.results.count)
            for (scenario, result) in zip(read.scenarios, report.results) {
                #expect(scenario.name == result.name && scenario.passed == result.passed && scenario.path == result.path)
                #expect(scenario.entry == result.entry && scenario.outcome == result.outcome && scenario.state == result.state)
                #expect(scenario.trace == result.trace, "every completion as the engine recorded it")
            }
        }
    }

    @Test func aFileThatIsNotATraceIsAClearError() throws {
        let path = NSTemporaryDirectory() + "flowkit-trace-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"{"scenarios": [{"name": "a", "passed": true, "path": [], "state": {}, "trace": [{"step": "a", "move": "sideways", "to": "b", "changes": []}]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: SimulationTrace.ReadError.self) { try SimulationTrace.read(path: path) }
        #expect(error.message == "'\(name: path, limit: .max)' is not a run written by 'flowkit simulate \(CommandOption.traceOut)'")
        // The same file with a move the engine makes is read.
        try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "sideways", with: "back: true")
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try SimulationTrace.read(path: path).scenarios[0].trace[0].move == .backOne)
        let missing = try #require(throws: SimulationTrace.ReadError.self) { try SimulationTrace.read(path: path + ".none") }
        #expect(missing.message == "\(path: path).none: no such file or directory")
    }
}
