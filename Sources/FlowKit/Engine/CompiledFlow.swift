/// A flow made ready to run: step names interned, every expression parsed once, types looked up by key. Its
/// parts are the engine's; ``flow`` is the flow as written.
public final class CompiledFlow: Sendable {
    /// A move of a compiled target.
    enum Move: Sendable, Equatable {
        case forward(Int)
        case back(Int)
        case backOne
        case restart
        /// A forward or back move to a name that is no step.
        case undefined(String)
    }

    /// One option of a target list (a class: a move looks options up, and a reference is one count to keep where
    /// the fields would be several).
    final class Target: Sendable {
        let move: Move
        let condition: RunExpression?
        let set: [StateWrite]
        let source: FlowKit.Target

        init(move: Move, condition: RunExpression?, set: [StateWrite], source: FlowKit.Target) {
            self.move = move
            self.condition = condition
            self.set = set
            self.source = source
        }
    }

    /// A step with its parsed expressions and resolved targets (a class: a run looks steps up on every move, and
    /// a reference is cheaper to hand around than the fields).
    final class Step: Sendable {
        let step: FlowKit.Step
        /// The step's name, kind and whether it declares a result: read on every move, kept here so that a move
        /// does not go through the step's box for them.
        let name: String
        let kind: StepKind
        let declaresResult: Bool
        let resultTypes: [String: TypeRef]?
        let set: [StateWrite]
        let handlers: HandlerTable
        let next: [Target]?
        let input: [(key: String, expression: RunExpression)]
        /// The derived events this step or `"*"` handles (indices into the flow's `derivedEvents`, in declaration
        /// order): the ones a completion without an explicit event tries.
        let derivedHandled: [Int]

        init(step: FlowKit.Step, resultTypes: [String: TypeRef]?, set: [StateWrite],
             handlers: HandlerTable, next: [Target]?, input: [(key: String, expression: RunExpression)], derivedHandled: [Int]) {
            self.step = step
            self.name = step.name.text
            self.kind = step.kind
            self.declaresResult = step.result != nil
            self.derivedHandled = derivedHandled
            self.resultTypes = resultTypes
            self.set = set
            self.handlers = handlers
            self.next = next
            self.input = input
        }
    }

    /// The flow as written.
    public let flow: Flow
    /// Step ids by name (file order).
    let ids: [String: Int]
    /// The compiled steps, by id.
    let steps: [Step]
    /// The compiled `"*"` step, when there is one.
    let anyStep: Step?
    /// Declared state types by key.
    let stateTypes: [String: TypeRef]
    /// Derived events with their expressions, in declaration order.
    let derivedEvents: [(name: String, expression: RunExpression)]
    /// The derived events by name (their index in `derivedEvents`): a step cannot raise them by hand.
    private let derivedByName: NameTable<Int>

    /// Whether `event` is a derived event.
    func isDerived(_ event: String) -> Bool { derivedByName[event] != nil }

    /// The id of `start`.
    let startID: Int

    /// Compiles `flow`; fails with the first expression that does not parse or an undefined start.
    public init(flow: Flow) throws(RunError) {
        var ids: [String: Int] = [:]
        for (id, step) in flow.steps.enumerated() where ids[step.name.text] == nil { ids[step.name.text] = id }
        guard let startID = ids[flow.start.text] else {
            throw RunError("start step '\(flow.start.text)' is not defined", kind: .invalidFlow, file: flow.file, position: flow.start.position)
        }
        func parse(_ source: ExpressionSource, step: String?) throws(RunError) -> RunExpression {
            switch ExpressionParser.parse(source) {
            case .success(let expression): return RunExpression(expression)
            case .failure(let error):
                throw RunError(error.message, kind: .invalidFlow, step: step, file: flow.file, position: source.position(ofOffset: error.offset))
            }
        }
        let stateTypes = Dictionary(flow.state.map { ($0.name.text, $0.type) }, uniquingKeysWith: { first, _ in first })
        func writes(_ list: [Assignment], step: String?) throws(RunError) -> [StateWrite] {
            var result: [StateWrite] = []
            for assignment in list {
                result.append(StateWrite(key: assignment.key.text, expression: try parse(assignment.expression, step: step),
                                         type: stateTypes[assignment.key.text]))
            }
            return result
        }
        func assignments(_ list: [Assignment], step: String?) throws(RunError) -> [(key: String, expression: RunExpression)] {
            var result: [(key: String, expression: RunExpression)] = []
            for assignment in list { result.append((assignment.key.text, try parse(assignment.expression, step: step))) }
            return result
        }
        func targets(_ list: [FlowKit.Target], step: String?) throws(RunError) -> [Target] {
            var result: [Target] = []
            for target in list {
                let move: Move
                switch target.move {
                case .forward(let name): move = ids[name.text].map(Move.forward) ?? .undefined(name.text)
                case .back(let name): move = ids[name.text].map(Move.back) ?? .undefined(name.text)
                case .backOne: move = .backOne
                case .restart: move = .restart
                }
                let condition = try target.condition.map { (source) throws(RunError) in try parse(source, step: step) }
                result.append(Target(move: move, condition: condition, set: try writes(target.set, step: step), source: target))
            }
            return result
        }
        // The derived events by name, and those the "*" step handles (its handlers apply to every step).
        let derivedNames = flow.events.filter { $0.expression != nil }.map(\.name.text)
        let sharedEvents = Set(flow.anyStep?.on.map(\.event.text) ?? [])
        func compile(_ step: FlowKit.Step) throws(RunError) -> Step {
            let name = step.name.text
            // The first handler of an event is the one that counts.
            var seen = Set<String>()
            var lists: [(name: String, value: [Target])] = []
            for handler in step.on where seen.insert(handler.event.text).inserted {
                lists.append((handler.event.text, try targets(handler.targets, step: name)))
            }
            let handlers = HandlerTable(lists)
            let resultTypes = step.result.map { fields in Dictionary(fields.map { ($0.name.text, $0.type) }, uniquingKeysWith: { first, _ in first }) }
            let next = try step.next.map { (list) throws(RunError) in try targets(list, step: name) }
            let handled = derivedNames.indices.filter { handlers[derivedNames[$0]] != nil || sharedEvents.contains(derivedNames[$0]) }
            return Step(step: step, resultTypes: resultTypes, set: try writes(step.set, step: name), handlers: handlers,
                        next: next, input: try assignments(step.input, step: name), derivedHandled: handled)
        }
        var steps: [Step] = []
        for step in flow.steps { steps.append(try compile(step)) }
        var derived: [(name: String, expression: RunExpression)] = []
        for event in flow.events {
            if let source = event.expression { derived.append((event.name.text, try parse(source, step: nil))) }
        }
        self.flow = flow
        self.ids = ids
        self.steps = steps
        self.anyStep = try flow.anyStep.map { (step) throws(RunError) in try compile(step) }
        self.stateTypes = stateTypes
        self.derivedEvents = derived
        self.derivedByName = NameTable(derived.indices.map { (derived[$0].name, $0) })
        self.startID = startID
    }

    /// A step's target lists by event.
    typealias HandlerTable = NameTable<[Target]>

    /// Values by name, for the few names a step handles or a flow derives: a short list is searched by comparing
    /// names (no hashing; a name is mostly one machine comparison), a long one is looked up in a dictionary.
    struct NameTable<Element: Sendable>: Sendable {
        private let entries: [(name: String, value: Element)]
        private let index: [String: Int]?

        /// The entries; the first of a repeated name is the one found.
        init(_ entries: [(name: String, value: Element)]) {
            self.entries = entries
            index = entries.count > 8 ? Dictionary(entries.indices.map { (entries[$0].name, $0) }, uniquingKeysWith: { first, _ in first }) : nil
        }

        /// The value for `name`, when there is one.
        subscript(name: String) -> Element? {
            if let index { return index[name].map { entries[$0].value } }
            for position in entries.indices where entries[position].name == name { return entries[position].value }
            return nil
        }
    }

    /// The name of step `id`.
    func name(_ id: Int) -> String { steps[id].name }
}

/// A run error: what went wrong, at which step, and where in the flow files when it is about a written value.
public struct RunError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure a run error is, so that a host app or a tool can react to it without reading the
    /// message.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The host or script gave a completion the step does not take: a result at a step without `result`,
        /// neither result nor event at a step with one, a derived event by hand, an event no handler takes, a
        /// result that does not fit, a number that is not finite, or any completion after the flow finished.
        case invalidCompletion
        /// The run cannot start: an unknown entry, a bad path parameter, an initial state that does not fit.
        case invalidStart
        /// A required input was not given at `start`, or not passed by a parent flow's `input`.
        case missingInput
        /// A non-optional state key was read before it was set.
        case unsetState
        /// A state key that `state` does not declare was read or written.
        case undeclaredState
        /// `result` was read at a completion without a result.
        case resultAbsent
        /// The result lacks a non-optional key that was read.
        case missingResultKey
        /// `null` reached an operator, a condition or a non-optional key.
        case nullValue
        /// Any other value of the wrong type.
        case typeError
        /// Division by zero, overflow, a number that is not finite, or text past its limit.
        case arithmetic
        /// No handler and no `next` for the move (no derived event held).
        case noTransition
        /// A nested flow's outcome that the `flow` step neither handles nor covers with `next`.
        case unhandledOutcome
        /// No option of the target list has an `if` that holds.
        case noOptionHolds
        /// `back: X` when X is not on the history.
        case backNotOnHistory
        /// `back: true` at the only step on the history.
        case backAtFirstStep
        /// A move to a step that does not exist.
        case undefinedStep
        /// The run showed more steps than its bound allows.
        case stepLimit
        /// Nested flows nest deeper than the run allows.
        case nestingLimit
        /// A nested flow cannot be found, read or loaded.
        case nestedFlowUnavailable
        /// The flow cannot run at all: an undefined `start`, an expression that does not parse.
        case invalidFlow
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// A lowercase message naming steps in single quotes.
    public let message: String
    /// The step the run was at (qualified for nested flows), when there is one.
    public var step: String?
    /// The file of the value at fault, when there is one.
    public var file: String?
    /// The position of the value at fault, when there is one.
    public var position: SourcePosition?

    /// Creates a run error. As for findings, any control, format or separator character left in `message` is
    /// escaped with `Identifier.display`, so that no run error can forge a line or an escape sequence.
    public init(_ message: String, kind: Kind, step: String? = nil, file: String? = nil, position: SourcePosition? = nil) {
        self.kind = kind
        self.message = Identifier.needsEscape(message) ? Identifier.display(message, limit: .max, quoting: false) : message
        self.step = step
        self.file = file
        self.position = position
    }

    public var description: String {
        var text = message
        if let file, let position { text += " (\(file):\(position.line):\(position.column))" }
        return text
    }
}

/// An expression made ready to run: its parsed tree, and its fast form when it has one (`FastExpression`), which a
/// run tries first. A class: a run hands expressions around on every move, and a reference is one count to keep.
final class RunExpression: Sendable {
    /// The parsed expression, which the full evaluator reads.
    let expression: FlowExpression
    /// The fast form, when every part of the expression has one.
    let fast: FastExpression?

    /// Compiles `expression`.
    init(_ expression: FlowExpression) {
        self.expression = expression
        self.fast = FastExpression(expression)
    }

    /// The text it was parsed from.
    var source: ExpressionSource { expression.source }

    /// Its value in `scope`: the fast form's when it gives one, else the full evaluator's (or its run error).
    func evaluate(in scope: EvaluationScope) throws(EvaluationError) -> Value {
        if let fast, let value = fast.value(state: scope.state, result: scope.result) { return value }
        return try expression.evaluate(in: scope)
    }
}

/// A state write of a `set`, made ready to run: the key, the expression, and the key's declared type (nil when
/// `state` does not declare it, a run error when the write runs). A class, for the reason `RunExpression` is one.
final class StateWrite: Sendable {
    /// The state key written.
    let key: String
    /// The value's expression.
    let expression: RunExpression
    /// The key's declared type, looked up once.
    let type: TypeRef?

    init(key: String, expression: RunExpression, type: TypeRef?) {
        self.key = key
        self.expression = expression
        self.type = type
    }
}
