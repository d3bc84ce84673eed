/// A declared type in a generated flow: a scalar, an enum or (in results) a nested shape, possibly optional.
public struct BlueprintType: Hashable, Sendable {
    /// The underlying type.
    public indirect enum Base: Hashable, Sendable {
        /// `int`.
        case int
        /// `number`.
        case number
        /// `string`.
        case string
        /// `bool`.
        case bool
        /// An enum: one of the listed strings.
        case enumeration([String])
        /// A nested result shape.
        case object([BlueprintField])
    }

    /// The underlying type.
    public var base: Base
    /// Whether the type is written with `?` (scalars only: enums and shapes cannot be optional).
    public var optional: Bool

    /// Creates a type.
    public init(_ base: Base, optional: Bool = false) {
        self.base = base
        self.optional = optional
    }
}

/// A key and its type, in `state` or a `result`.
public struct BlueprintField: Hashable, Sendable {
    /// The key.
    public var name: String
    /// Its type.
    public var type: BlueprintType

    /// Creates a field.
    public init(_ name: String, _ type: BlueprintType) {
        self.name = name
        self.type = type
    }
}

/// A state update: a key and the expression text that computes it.
public struct BlueprintAssignment: Hashable, Sendable {
    /// The key written.
    public var key: String
    /// The expression's text.
    public var expression: String

    /// Creates an assignment.
    public init(_ key: String, _ expression: String) {
        self.key = key
        self.expression = expression
    }
}

/// One option of a target list.
public struct TargetBlueprint: Hashable, Sendable {
    /// The navigation.
    public enum Move: Hashable, Sendable {
        /// `forward: X` (or the bare step name).
        case forward(String)
        /// `back: X`.
        case back(String)
        /// `back: true`.
        case backOne
        /// `restart: true`.
        case restart
    }

    /// The navigation.
    public var move: Move
    /// The `if` expression, when there is one.
    public var condition: String?
    /// The target's `set`.
    public var set: [BlueprintAssignment]

    /// Creates a target.
    public init(_ move: Move, condition: String? = nil, set: [BlueprintAssignment] = []) {
        self.move = move
        self.condition = condition
        self.set = set
    }
}

/// A handler: an event (or a nested flow's outcome) and its target list.
public struct HandlerBlueprint: Hashable, Sendable {
    /// The event.
    public var event: String
    /// The options, tried in order.
    public var targets: [TargetBlueprint]

    /// Creates a handler.
    public init(_ event: String, _ targets: [TargetBlueprint]) {
        self.event = event
        self.targets = targets
    }
}

/// A step of a generated flow (or its `"*"` step, which uses only `on` and `next`).
public struct StepBlueprint: Hashable, Sendable {
    /// The step's name.
    public var name: String
    /// `screen` (nil: not written), `action`, `flow` or `finish`.
    public var kind: String?
    /// The declared result shape, when there is one.
    public var result: [BlueprintField]?
    /// The step's `set`.
    public var set: [BlueprintAssignment]
    /// The step's handlers, in file order.
    public var on: [HandlerBlueprint]
    /// The step's `next`, when there is one.
    public var next: [TargetBlueprint]?
    /// A finish step's `outcome`, when written.
    public var outcome: String?
    /// A flow step's nested flow file.
    public var flow: String?
    /// A flow step's `input`.
    public var input: [BlueprintAssignment]

    /// Creates a step.
    public init(name: String, kind: String? = nil, result: [BlueprintField]? = nil, set: [BlueprintAssignment] = [],
                on: [HandlerBlueprint] = [], next: [TargetBlueprint]? = nil, outcome: String? = nil, flow: String? = nil,
                input: [BlueprintAssignment] = []) {
        self.name = name
        self.kind = kind
        self.result = result
        self.set = set
        self.on = on
        self.next = next
        self.outcome = outcome
        self.flow = flow
        self.input = input
    }

    /// Whether this is a finish step.
    public var isFinish: Bool { kind == "finish" }
}

/// A declared event: explicit (no expression) or derived.
public struct EventBlueprint: Hashable, Sendable {
    /// The event's name.
    public var name: String
    /// The derived event's expression, nil for an explicit event.
    public var expression: String?

    /// Creates an event declaration.
    public init(_ name: String, expression: String? = nil) {
        self.name = name
        self.expression = expression
    }
}

/// A deep link: its step and the state keys its path binds.
public struct EntryBlueprint: Hashable, Sendable {
    /// The entry's name.
    public var name: String
    /// The step it opens.
    public var step: String
    /// The path parameters (state keys), in order.
    public var parameters: [String]

    /// Creates an entry.
    public init(name: String, step: String, parameters: [String]) {
        self.name = name
        self.step = step
        self.parameters = parameters
    }

    /// The entry's path, e.g. `/open/{amount}/{tier}`.
    public var path: String {
        "/" + ([name] + parameters.map { "{\($0)}" }).joined(separator: "/")
    }
}

/// A generated flow as a structured value: rendered to YAML or JSON text (so it goes through the real loader),
/// and small enough to edit when a failing example is minimised.
public struct FlowBlueprint: Hashable, Sendable {
    /// The flow's name.
    public var name: String
    /// The first step.
    public var start: String
    /// Declared state keys.
    public var state: [BlueprintField]
    /// `inputs`, when written.
    public var inputs: [String]?
    /// Declared events.
    public var events: [EventBlueprint]
    /// Deep links.
    public var entries: [EntryBlueprint]
    /// The steps in file order.
    public var steps: [StepBlueprint]
    /// The `"*"` step, when there is one.
    public var anyStep: StepBlueprint?

    /// Creates a flow.
    public init(name: String, start: String, state: [BlueprintField] = [], inputs: [String]? = nil, events: [EventBlueprint] = [],
                entries: [EntryBlueprint] = [], steps: [StepBlueprint] = [], anyStep: StepBlueprint? = nil) {
        self.name = name
        self.start = start
        self.state = state
        self.inputs = inputs
        self.events = events
        self.entries = entries
        self.steps = steps
        self.anyStep = anyStep
    }

    /// The declared type of state key `key`.
    public func stateType(_ key: String) -> BlueprintType? {
        state.first { $0.name == key }?.type
    }

    /// The inputs a run that begins at `start` must be given: listed, declared and not optional.
    public var requiredInputs: [String] {
        (inputs ?? []).filter { key in stateType(key).map { !$0.optional } ?? false }
    }

    /// The inputs a run may be given or not: listed, declared and optional.
    public var optionalInputs: [String] {
        (inputs ?? []).filter { key in stateType(key)?.optional ?? false }
    }

    /// The outcomes of the finish steps, in file order, each once.
    public var outcomes: [String] {
        var seen: [String] = []
        for step in steps where step.isFinish {
            let outcome = step.outcome ?? step.name
            if !seen.contains(outcome) { seen.append(outcome) }
        }
        return seen
    }
}

/// The spelling of a generated file.
public enum BlueprintFormat: String, Hashable, Sendable {
    /// YAML block style.
    case yaml
    /// JSON.
    case json
}

/// A generated flow with the nested flows its `flow` steps name, each a file of its own.
public struct FlowBundle: Hashable, Sendable {
    /// One file of the bundle.
    public struct File: Hashable, Sendable {
        /// The file name, relative to the bundle's folder (e.g. `main.yaml`, `child1.json`).
        public var name: String
        /// The flow.
        public var flow: FlowBlueprint

        /// Creates a file.
        public init(name: String, flow: FlowBlueprint) {
            self.name = name
            self.flow = flow
        }

        /// The spelling its extension names.
        public var format: BlueprintFormat { name.hasSuffix(".json") ? .json : .yaml }

        /// The file's text.
        public var text: String { flow.render(format) }
    }

    /// The top-level flow.
    public var main: File
    /// The nested flows, each named by some `flow` step of `main`.
    public var children: [File]

    /// Creates a bundle.
    public init(main: File, children: [File] = []) {
        self.main = main
        self.children = children
    }

    /// Every file, the top-level flow first.
    public var files: [File] { [main] + children }

    /// The whole bundle as text for people: each file's name, then its text.
    public var listing: String {
        files.map { "# \($0.name)\n\($0.text)" }.joined(separator: "\n")
    }
}
