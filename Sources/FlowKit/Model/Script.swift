/// A simulation script: scenarios that drive a flow with step results and check where it ends.
public struct Script: Sendable {
    /// The script file, as given.
    public var file: String
    /// The flow the script names (relative to the script), when it names one.
    public var flow: String?
    /// Where `flow` was written.
    public var flowPosition: SourcePosition?
    /// The scenarios, in file order.
    public var scenarios: [Scenario]

    /// Creates a script.
    public init(file: String, flow: String?, flowPosition: SourcePosition?, scenarios: [Scenario]) {
        self.file = file
        self.flow = flow
        self.flowPosition = flowPosition
        self.scenarios = scenarios
    }
}

/// One scenario: how the run starts, the steps it walks through, and what must hold at the end.
public struct Scenario: Sendable {
    /// How a scenario's run starts.
    public enum Start: Sendable {
        /// At `start` with this initial state.
        case state([String: Value])
        /// At an entry with path parameters (text) and an initial state.
        case entry(Name, params: [String: String], state: [String: Value])
        /// At the entry a link's path matches, with an initial state.
        case url(Name, state: [String: Value])
    }

    /// The scenario's name.
    public var name: String
    /// Where the scenario starts in the script.
    public var position: SourcePosition
    /// How the run starts.
    public var start: Start
    /// The steps, in order.
    public var steps: [ScriptStep]
    /// What must hold at the end.
    public var expect: Expectation?
    /// Where the `start`'s state values and path parameters were written: by key, `state.KEY` and
    /// `params.KEY`, the value's position (for findings about them).
    public var startPositions: [String: SourcePosition]

    /// Creates a scenario.
    public init(name: String, position: SourcePosition, start: Start, steps: [ScriptStep], expect: Expectation?,
                startPositions: [String: SourcePosition] = [:]) {
        self.name = name
        self.position = position
        self.start = start
        self.steps = steps
        self.expect = expect
        self.startPositions = startPositions
    }
}

/// One step of a scenario: the step the run must be at, and how it completes.
public struct ScriptStep: Sendable {
    /// The step (qualified as `parent/child` inside nested flows).
    public var step: Name
    /// The explicit event, when there is one.
    public var event: Name?
    /// The result, when there is one.
    public var result: [String: Value]?
    /// Whether the step is left with the back button (`{ back: true }`) rather than completed.
    public var back: Bool
    /// Where the `result` mapping and each of its keys were written, for findings about the result's values.
    public var resultPositions: ResultPositions?

    /// Where a script step's `result` and its keys were written.
    public struct ResultPositions: Sendable {
        /// Where the `result` mapping starts.
        public var result: SourcePosition
        /// Where each key was written, and where its value starts.
        public var keys: [String: (key: SourcePosition, value: SourcePosition)]

        /// Creates the positions of a result.
        public init(result: SourcePosition, keys: [String: (key: SourcePosition, value: SourcePosition)]) {
            self.result = result
            self.keys = keys
        }
    }

    /// Creates a script step.
    public init(step: Name, event: Name?, result: [String: Value]?, back: Bool = false, resultPositions: ResultPositions? = nil) {
        self.step = step
        self.event = event
        self.result = result
        self.back = back
        self.resultPositions = resultPositions
    }
}

/// What a scenario expects at its end; every part is optional.
public struct Expectation: Sendable {
    /// The flow's outcome.
    public var outcome: Name?
    /// The exact path, finish step included.
    public var path: [Name]?
    /// State keys that must have these values (`null` matches an unset key); others are free.
    public var state: [(key: Name, value: Value)]

    /// Creates an expectation.
    public init(outcome: Name?, path: [Name]?, state: [(key: Name, value: Value)]) {
        self.outcome = outcome
        self.path = path
        self.state = state
    }
}
