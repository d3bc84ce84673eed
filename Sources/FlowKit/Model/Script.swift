/// A simulation script: scenarios that drive a flow with step results and check where it ends.
package struct Script: Sendable {
    /// The script file, as given.
    package var file: String
    /// The flow the script names (relative to the script), when it names one.
    package var flow: String?
    /// Where `flow` was written.
    package var flowPosition: SourcePosition?
    /// The scenarios, in file order.
    package var scenarios: [Scenario]

    /// Creates a script.
    package init(file: String, flow: String?, flowPosition: SourcePosition?, scenarios: [Scenario]) {
        self.file = file
        self.flow = flow
        self.flowPosition = flowPosition
        self.scenarios = scenarios
    }
}

/// One scenario: how the run starts, the steps it walks through, and what must hold at the end.
package struct Scenario: Sendable {
    /// How a scenario's run starts.
    package enum Start: Sendable {
        /// At `start` with this initial state.
        case state([String: Value])
        /// At an entry with path parameters (text) and an initial state.
        case entry(Name, params: [String: String], state: [String: Value])
        /// At the entry a link's path matches, with an initial state.
        case url(Name, state: [String: Value])
    }

    /// The scenario's name.
    package var name: String
    /// Where the scenario starts in the script.
    package var position: SourcePosition
    /// How the run starts.
    package var start: Start
    /// The steps, in order.
    package var steps: [ScriptStep]
    /// What must hold at the end.
    package var expect: Expectation?
    /// Where the `start`'s state values and path parameters were written: by key, `state.KEY` and
    /// `params.KEY`, the value's position (for findings about them).
    package var startPositions: [String: SourcePosition]

    /// Creates a scenario.
    package init(name: String, position: SourcePosition, start: Start, steps: [ScriptStep], expect: Expectation?,
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
package struct ScriptStep: Sendable {
    /// The step (qualified as `parent/child` inside nested flows).
    package var step: Name
    /// The explicit event, when there is one.
    package var event: Name?
    /// The result, when there is one.
    package var result: [String: Value]?
    /// Whether the step is left with the back button (`{ back: true }`) rather than completed.
    package var back: Bool
    /// Where the `result` mapping and each of its keys were written, for findings about the result's values.
    package var resultPositions: ResultPositions?

    /// Where a script step's `result` and its keys were written.
    package struct ResultPositions: Sendable {
        /// Where the `result` mapping starts.
        package var result: SourcePosition
        /// Where each key was written, and where its value starts.
        package var keys: [String: (key: SourcePosition, value: SourcePosition)]

        /// Creates the positions of a result.
        package init(result: SourcePosition, keys: [String: (key: SourcePosition, value: SourcePosition)]) {
            self.result = result
            self.keys = keys
        }
    }

    /// Creates a script step.
    package init(step: Name, event: Name?, result: [String: Value]?, back: Bool = false, resultPositions: ResultPositions? = nil) {
        self.step = step
        self.event = event
        self.result = result
        self.back = back
        self.resultPositions = resultPositions
    }
}

/// What a scenario expects at its end; every part is optional.
package struct Expectation: Sendable {
    /// The flow's outcome.
    package var outcome: Name?
    /// The exact path, finish step included.
    package var path: [Name]?
    /// State keys that must have these values (`null` matches an unset key); others are free.
    package var state: [(key: Name, value: Value)]

    /// Creates an expectation.
    package init(outcome: Name?, path: [Name]?, state: [(key: Name, value: Value)]) {
        self.outcome = outcome
        self.path = path
        self.state = state
    }
}
