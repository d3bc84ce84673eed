import Foundation
import FlowKit

/// The runs `flowkit simulate --trace-out` writes, as a typed value: its JSON (`JSONEncoder`, keys sorted) is the
/// file, and `flowkit render --trace` reads the file back through the same type. Each scenario keeps its path, where
/// it started, how it ended, its final state and every completion as the engine recorded it (`TraceEntry`, its move
/// a `TraceEntry.Move`).
package struct SimulationTrace: Codable, Equatable, Sendable {
    /// One scenario's run.
    package struct Scenario: Codable, Equatable, Sendable {
        /// Where a run that began at an entry began.
        package struct Start: Codable, Equatable, Sendable {
            /// The entry.
            package var entry: String?
        }

        /// The scenario's name.
        package var name: String
        /// Whether it passed.
        package var passed: Bool
        /// Every step shown, in order.
        package var path: [String]
        /// The outcome, when the flow finished.
        package var outcome: String?
        /// The final state of the top-level flow.
        package var state: [String: Value]
        /// Where it began, when at an entry.
        package var start: Start?
        /// The error that stopped it (or the first expectation it missed), when it failed.
        package var error: String?
        /// Its completions.
        package var trace: [TraceEntry]

        /// The run of `result`.
        package init(_ result: ScenarioResult) {
            name = result.name
            passed = result.passed
            path = result.path
            outcome = result.outcome
            state = result.state
            start = result.entry.map { Start(entry: $0) }
            error = result.error
            trace = result.trace
        }

        /// The entry the run began at, when it began at one.
        package var entry: String? { start?.entry }

        /// Where a failed run stopped: the last step it showed (its top-level step, for a step inside a nested flow)
        /// and the error.
        package var failure: (step: String, message: String)? {
            guard !passed, let error, let last = path.last else { return nil }
            return (String(last.split(separator: "/", maxSplits: 1).first ?? Substring(last)), error)
        }
    }

    /// Why a trace could not be read; the message names the file.
    package struct ReadError: Error, Sendable, CustomStringConvertible {
        /// A lowercase message.
        package let message: CommandMessage
        package var description: String { message.description }
    }

    /// The scenarios, in the order they ran.
    package var scenarios: [Scenario]

    /// The runs of `report`.
    package init(_ report: SimulationReport) {
        scenarios = report.results.map(Scenario.init)
    }

    /// The file's bytes: the JSON of this value, keys sorted, ending in a newline. It fails only for a number that
    /// is not finite, which no run holds (the engine refuses them).
    package func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [UInt8(ascii: "\n")]
    }

    /// Reads the trace file at `path` (at most 64 MiB).
    package static func read(path: String) throws(ReadError) -> SimulationTrace {
        let bytes: [UInt8]
        do {
            bytes = try FlowLoader.read(path: path, limit: 64 << 20)
        } catch {
            throw ReadError(message: CommandMessage(describing: error))
        }
        guard bytes.count <= 64 << 20, let trace = try? JSONDecoder().decode(SimulationTrace.self, from: Data(bytes)) else {
            throw ReadError(message: "'\(name: path, limit: .max)' is not a run written by 'flowkit simulate \(CommandOption.traceOut)'")
        }
        return trace
    }

    /// The scenario named `name`, else the first.
    package func scenario(named name: String?, in path: String) throws(ReadError) -> Scenario {
        guard let chosen = name.map({ name in scenarios.first { $0.name == name } }) ?? scenarios.first else {
            let hint = name.map { Suggestions.didYouMean($0, in: scenarios.map(\.name)) } ?? ""
            throw ReadError(message: "no scenario '\(name: name ?? "")' in '\(name: path, limit: .max)'\(verbatim: hint)")
        }
        return chosen
    }
}
