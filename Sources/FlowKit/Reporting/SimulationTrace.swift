import Foundation

/// The runs `flowkit simulate --trace-out` writes (the `--format json` report, `JSONSimulationReporter`), read back
/// for `flowkit render --trace`: each scenario's path, where it started, how it ended, and its completions with
/// their moves as `TraceEntry.Move`, the type the engine records them with.
public struct SimulationTrace: Decodable, Sendable {
    /// One scenario's run.
    public struct Scenario: Decodable, Sendable {
        /// One completion: the step, the event handled, the move and the step shown next (qualified names).
        public struct Completion: Decodable, Sendable {
            /// The step completed.
            public let step: String
            /// The event handled, when there was one.
            public let event: String?
            /// The move taken.
            public let move: TraceEntry.Move
            /// The step shown next.
            public let to: String
        }

        /// Where a run that began at an entry began.
        public struct Start: Decodable, Sendable {
            /// The entry.
            public let entry: String?
        }

        /// The scenario's name.
        public let name: String
        /// Whether it passed.
        public let passed: Bool
        /// Every step shown, in order.
        public let path: [String]
        /// Where it began, when at an entry.
        public let start: Start?
        /// The error that stopped it, when one did.
        public let error: String?
        /// Its completions.
        public let trace: [Completion]

        /// The entry the run began at, when it began at one.
        public var entry: String? { start?.entry }

        /// Where a failed run stopped: the last step it showed (its top-level step, for a step inside a nested flow)
        /// and the error.
        public var failure: (step: String, message: String)? {
            guard !passed, let error, let last = path.last else { return nil }
            return (String(last.split(separator: "/", maxSplits: 1).first ?? Substring(last)), error)
        }
    }

    /// Why a trace could not be read; the message names the file.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        /// A lowercase message.
        public let message: String
        public var description: String { message }
    }

    /// The scenarios, in the order they ran.
    public let scenarios: [Scenario]

    /// Reads the trace file at `path` (at most 64 MiB).
    public static func read(path: String) throws(ReadError) -> SimulationTrace {
        let bytes: [UInt8]
        do {
            bytes = try FlowLoader.read(path: path, limit: 64 << 20)
        } catch {
            throw ReadError(message: (error as? LocalizedError)?.errorDescription ?? "\(error)")
        }
        guard bytes.count <= 64 << 20, let trace = try? JSONDecoder().decode(SimulationTrace.self, from: Data(bytes)) else {
            throw ReadError(message: "'\(Identifier.display(path, limit: .max))' is not a run written by 'flowkit simulate --trace-out'")
        }
        return trace
    }

    /// The scenario named `name`, else the first.
    public func scenario(named name: String?, in path: String) throws(ReadError) -> Scenario {
        guard let chosen = name.map({ name in scenarios.first { $0.name == name } }) ?? scenarios.first else {
            let hint = name.map { Suggestions.didYouMean($0, in: scenarios.map(\.name)) } ?? ""
            throw ReadError(message: "no scenario '\(Identifier.display(name ?? ""))' in '\(Identifier.display(path, limit: .max))'\(hint)")
        }
        return chosen
    }
}
