import Foundation
import Testing
import FlowGen
@testable import FlowKit

/// `--trace-out` files read back as `SimulationTrace`: what the JSON report writes, the library reads, moves typed.
@Suite("Simulation traces")
struct SimulationTraceTests {
    /// Property: for every sample script, and random runs of random flows, the report's JSON read back as a
    /// `SimulationTrace` has each scenario's name, outcome, path, entry and every completion's step, event, move and
    /// landing step as the engine recorded them.
    @Test func theJSONReportReadsBackAsTheTrace() throws {
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
            let text = JSONSimulationReporter().render(report)
            let trace = try JSONDecoder().decode(SimulationTrace.self, from: Data(text.utf8))
            #expect(trace.scenarios.count == report.results.count)
            for (read, result) in zip(trace.scenarios, report.results) {
                #expect(read.name == result.name && read.passed == result.passed && read.path == result.path && read.entry == result.entry)
                #expect(read.trace.map(\.step) == result.trace.map(\.step))
                #expect(read.trace.map(\.event) == result.trace.map(\.event))
                #expect(read.trace.map(\.move) == result.trace.map(\.move))
                #expect(read.trace.map(\.to) == result.trace.map(\.to))
            }
        }
    }

    @Test func aFileThatIsNotATraceIsAClearError() throws {
        let path = NSTemporaryDirectory() + "flowkit-trace-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"{"scenarios": [{"name": "a", "passed": true, "path": [], "trace": [{"step": "a", "move": "sideways", "to": "b"}]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: SimulationTrace.ReadError.self) { try SimulationTrace.read(path: path) }
        #expect(error.message == "'\(path)' is not a run written by 'flowkit simulate --trace-out'")
        let missing = try #require(throws: SimulationTrace.ReadError.self) { try SimulationTrace.read(path: path + ".none") }
        #expect(missing.message == "\(path).none: no such file or directory")
    }
}
