/// A run saved to be restored later, for example by an app the system ended in the middle of a flow
/// (docs/format.md, "Saving and restoring a run"). It names steps, not positions, and records each flow's
/// fingerprint, so that it is restored only against the flows it was made with.
public struct RunSnapshot: Codable, Equatable, Sendable {
    /// One level of the run: the top-level flow, then each nested flow it is inside.
    public struct Level: Codable, Equatable, Sendable {
        /// The flow's file as its parent's `flow` step names it (the top-level flow's own file for the first level).
        public var flow: String
        /// The flow's fingerprint when the run was saved.
        public var fingerprint: String
        /// The state.
        public var state: [String: Value]
        /// The state the level began with (what a `restart` returns to).
        public var initialState: [String: Value]
        /// The steps on the history, by name, the current one last.
        public var history: [String]
    }

    /// The levels, outermost first.
    public var levels: [Level]
    /// Every step shown (qualified names).
    public var path: [String]
    /// Every completion.
    public var trace: [TraceEntry]
    /// The outcome, once the flow has finished.
    public var outcome: String?
    /// How many steps the run has shown (what `maxSteps` counts).
    public var shown: Int
}

extension FlowRun {
    /// The run as a value that can be saved (`Codable`) and restored with `init(restoring:flow:resolver:)`.
    public func snapshot() -> RunSnapshot {
        let levels = frames.enumerated().map { index, frame in
            RunSnapshot.Level(flow: index == 0 ? frame.flow.flow.file : frames[index - 1].flow.flow.steps[frames[index - 1].history.last!].flowPath ?? "",
                              fingerprint: frame.flow.fingerprint, state: frame.state, initialState: frame.initialState,
                              history: frame.history.map { frame.flow.name($0) })
        }
        return RunSnapshot(levels: levels, path: path, trace: trace, outcome: outcome, shown: shown)
    }

    /// Restores a saved run against `flow` and, for the nested flows it was inside, the flows `resolver` finds.
    /// A flow whose fingerprint is not the saved one, a step it does not have, or a nested level whose parent is
    /// not at a `flow` step is an error (`invalidStart`): a run never jumps silently to a different place.
    public init(restoring snapshot: RunSnapshot, flow: CompiledFlow, resolver: FlowResolver? = nil, maxSteps: Int = 10_000) throws(RunError) {
        guard !snapshot.levels.isEmpty, snapshot.levels.count <= Self.maxNesting else {
            throw RunError("the saved run has \(snapshot.levels.count) levels; a run has 1 to \(Self.maxNesting)", kind: .invalidStart)
        }
        var restored: [Frame] = []
        var current = flow
        for (index, level) in snapshot.levels.enumerated() {
            if index > 0 {
                let parent = restored[index - 1]
                let step = parent.flow.flow.steps[parent.history.last!]
                guard step.kind == .flow, let reference = step.flowPath, reference == level.flow else {
                    throw RunError("the saved run is inside nested flow '\(name: level.flow)', but step '\(name: step.name.text)' does not run it",
                                   kind: .invalidStart)
                }
                guard let resolver else {
                    throw RunError("the saved run is inside nested flow '\(name: level.flow)', which cannot be loaded without a resolver", kind: .invalidStart)
                }
                current = try resolver.resolve(reference, from: parent.flow.flow.file)
            }
            guard current.fingerprint == level.fingerprint else {
                throw RunError("the saved run was made with another version of flow '\(name: current.flow.name.text)' (saved fingerprint \(verbatim: level.fingerprint), now \(verbatim: current.fingerprint)); start the flow again",
                               kind: .invalidStart)
            }
            var history: [Int] = []
            for name in level.history {
                guard let id = current.ids[name] else {
                    throw RunError("the saved run is at step '\(name: name)', which flow '\(name: current.flow.name.text)' does not have", kind: .invalidStart)
                }
                history.append(id)
            }
            guard !history.isEmpty else { throw RunError("a level of the saved run has an empty history", kind: .invalidStart) }
            let prefix = index == 0 ? "" : restored[index - 1].prefix + restored[index - 1].flow.name(restored[index - 1].history.last!) + "/"
            restored.append(Frame(flow: current, state: level.state, initialState: level.initialState, history: history, prefix: prefix))
        }
        self.init(frames: restored, resolver: resolver, maxSteps: maxSteps, path: snapshot.path, trace: snapshot.trace,
                  outcome: snapshot.outcome, shown: snapshot.shown)
    }
}

extension Value: Codable {
    private enum Tag: String, CodingKey {
        case number, object
    }

    /// Decodes JSON null, a boolean, an integer, a string, `{"number": 1.5}` or `{"object": {...}}`.
    public init(from decoder: any Decoder) throws {
        if let tagged = try? decoder.container(keyedBy: Tag.self) {
            if let number = try tagged.decodeIfPresent(Double.self, forKey: .number) {
                self = .number(number)
            } else {
                self = .object(try tagged.decode([String: Value].self, forKey: .object))
            }
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? single.decode(Int64.self) {
            self = .int(number)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Encodes as `init(from:)` decodes, so that an int and a number stay apart.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let flag):
            var single = encoder.singleValueContainer()
            try single.encode(flag)
        case .int(let number):
            var single = encoder.singleValueContainer()
            try single.encode(number)
        case .string(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .number(let number):
            var tagged = encoder.container(keyedBy: Tag.self)
            try tagged.encode(number, forKey: .number)
        case .object(let fields):
            var tagged = encoder.container(keyedBy: Tag.self)
            try tagged.encode(fields, forKey: .object)
        }
    }
}
