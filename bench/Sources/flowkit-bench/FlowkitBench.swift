import FlowKit
import Foundation

/// Measures the engine alone: transitions per second on a generated chain flow (every step handles an explicit
/// event, has a result, a `set`, a derived event and a `"*"` handler), with loading and compiling timed apart.
@main
struct FlowkitBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        let steps = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
        let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20
        var yaml = "flowkit: 1\nflow: chain\nstart: s0\nstate: { total: int }\nevents: { go: , retry: , big: \"result.v > 100\" }\n"
        yaml += "steps:\n  \"*\":\n    on: { retry: { back: true } }\n"
        for i in 0..<steps {
            let next = i + 1 < steps ? "s\(i + 1)" : "done"
            yaml += "  s\(i): { result: { v: int }, set: { total: result.v }, on: { go: \(next), big: \(next) }, next: \(next) }\n"
        }
        yaml += "  done: { kind: finish }\n"
        let clock = ContinuousClock()
        var document: LoadedDocument?
        let loadTime = clock.measure { document = FlowLoader.load(bytes: Array(yaml.utf8), file: "chain.yaml", format: .yaml) }
        guard let flow = document?.flow else { fatalError("the generated flow does not load") }
        var compiled: CompiledFlow?
        let compileTime = try clock.measure { compiled = try CompiledFlow(flow: flow) }
        var transitions = 0
        var explicitTime = Duration.zero
        var resultTime = Duration.zero
        for round in 0..<rounds {
            // Alternate explicit events and results with a derived event evaluated at every step.
            let withResults = round % 2 == 1
            var run = try FlowRun(flow: compiled!, maxSteps: steps * 2 + 10)
            let elapsed = try clock.measure {
                while !run.isFinished {
                    if withResults { try run.complete(result: ["v": .int(5)]) } else { try run.complete(event: "go") }
                }
            }
            transitions += run.trace.count
            if withResults { resultTime += elapsed } else { explicitTime += elapsed }
        }
        func seconds(_ duration: Duration) -> Double { Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 }
        let half = Double(transitions) / 2
        print("flow: \(steps) steps; load \(String(format: "%.1f", seconds(loadTime) * 1000)) ms; compile \(String(format: "%.1f", seconds(compileTime) * 1000)) ms")
        print("explicit events: \(Int(half / seconds(explicitTime))) transitions/s")
        print("results + set + derived event: \(Int(half / seconds(resultTime))) transitions/s")
    }
}
