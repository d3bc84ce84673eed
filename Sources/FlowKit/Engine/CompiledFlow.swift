import Foundation

/// A flow made ready to run: step names interned, every expression parsed once, types looked up by key. Its
/// parts are the engine's; ``flow`` is the flow as written.
///
/// What a move reads lies in a few flat arrays of small values: the steps by id, every step's handlers one after
/// the other, every target list's options one after the other. Consecutive steps are next to each other in memory
/// and a move retains nothing of the flow, where an object per step, per list and per option put each in its own
/// allocation: on a long flow each move then waited on memory several times over.
public final class CompiledFlow: Sendable {
    /// A move of a compiled target.
    package enum Move: Sendable, Equatable {
        case forward(Int)
        case back(Int)
        case backOne
        case restart
        /// A forward or back move to a name that is no step.
        case undefined(String)
    }

    /// One option of a target list: its move, and where its `if` and `set` are (plain numbers, so that reading an
    /// option touches only the option).
    package struct Option: Sendable {
        enum Kind: UInt8, Sendable {
            case forward, back, backOne, restart, undefined
        }

        let kind: Kind
        /// The step of a forward or back move; for an undefined one, the name's index in `undefinedNames`.
        let step: Int32
        /// The `if`'s index in `conditions`, or -1.
        let condition: Int32
        /// The `set`, a span of `writes`.
        let writes: Span
    }

    /// A run of entries in one of the flat arrays: a target list in `options`, a `set` in `writes`, a step's
    /// handlers or derived events.
    struct Span: Sendable {
        let start: Int32
        let count: Int32

        var range: Range<Int> { Int(start)..<Int(start + count) }
    }

    /// A target list: a span of `options`.
    typealias OptionList = Span

    /// One handler of a step: its event and its list.
    struct Handler: Sendable {
        let event: String
        let options: OptionList
    }

    /// What a move reads of a step: plain numbers, so that reading one copies a few words and counts no
    /// reference. Its name, and the parts a result, a nested flow or an error needs, are in arrays of their own
    /// (`names`, `resultTypes`, `inputs`, ``flow``'s steps), by the same id.
    struct Step: Sendable {
        let kind: StepKind
        let declaresResult: Bool
        /// The handlers, a span of `handlers`; the first of a repeated event is the one kept.
        let handlers: Span
        /// The handlers by event, an index into `handlerIndexes`, for a step with more handlers than a search
        /// is quicker for; -1 otherwise.
        let handlerIndex: Int32
        /// The step's `set`, a span of `writes`.
        let writes: Span
        /// The derived events this step or `"*"` handles (a span of `derivedHandled`, in declaration order): the
        /// ones a completion without an explicit event tries.
        let derived: Span
        let next: OptionList?
    }

    /// The most handlers a step's handlers are searched for by comparing names; past it, they are looked up.
    static let handlerSearchLimit = 8

    /// The flow as written.
    public let flow: Flow
    /// `flow.fingerprint`, worked out once, when a snapshot first needs it.
    private let fingerprintCache = FingerprintCache()

    /// The flow's fingerprint (`Flow.fingerprint`), worked out once.
    public var fingerprint: String { fingerprintCache.value { flow.fingerprint } }
    /// Step ids by name (file order).
    let ids: [String: Int]
    /// The compiled steps, by id (the index of the step in ``flow``'s steps).
    let steps: [Step]
    /// The steps' names, by id.
    private let names: [String]
    /// The compiled `"*"` step, when there is one.
    let anyStep: Step?
    /// Every step's handlers, step after step (`"*"`'s last).
    private let handlers: [Handler]
    /// The handlers of each step with many, by event (their index in `handlers`).
    private let handlerIndexes: [[String: Int32]]
    /// Every target list's options, list after list.
    let options: [Option]
    /// The options' `if`s.
    let conditions: [RunExpression]
    /// Every `set`'s writes, one after the other (steps' and options').
    let writes: [StateWrite]
    /// The names of undefined move targets.
    private let undefinedNames: [String]
    /// The derived events each step handles, step after step (indices into `derivedEvents`).
    private let derivedHandled: [Int32]
    /// Each step's result keys and types, by id (nil when it declares no result); `"*"` declares none.
    let resultTypes: [[String: TypeRef]?]
    /// Each step's `input` (a `flow` step's), by id.
    let inputs: [[(key: String, expression: RunExpression)]]
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
        var writes: [StateWrite] = []
        var options: [Option] = []
        var conditions: [RunExpression] = []
        var undefinedNames: [String] = []
        var handlers: [Handler] = []
        var handlerIndexes: [[String: Int32]] = []
        var derivedHandled: [Int32] = []
        /// Appends `list`'s writes.
        func addWrites(_ list: [Assignment], step: String?) throws(RunError) -> Span {
            let start = Int32(writes.count)
            for assignment in list {
                writes.append(StateWrite(key: assignment.key.text, expression: try parse(assignment.expression, step: step),
                                         type: stateTypes[assignment.key.text], keyPosition: assignment.key.position))
            }
            return Span(start: start, count: Int32(list.count))
        }
        func assignments(_ list: [Assignment], step: String?) throws(RunError) -> [(key: String, expression: RunExpression)] {
            var result: [(key: String, expression: RunExpression)] = []
            for assignment in list { result.append((assignment.key.text, try parse(assignment.expression, step: step))) }
            return result
        }
        /// Appends `list`'s options; returns the list.
        func addOptions(_ list: [FlowKit.Target], step: String?) throws(RunError) -> OptionList {
            // Each option's `if` and `set` first, so that the options themselves lie together.
            var made: [Option] = []
            for target in list {
                let kind: Option.Kind
                var id: Int32 = -1
                func resolve(_ name: Name, as known: Option.Kind) -> Option.Kind {
                    if let found = ids[name.text] {
                        id = Int32(found)
                        return known
                    }
                    id = Int32(undefinedNames.count)
                    undefinedNames.append(name.text)
                    return .undefined
                }
                switch target.move {
                case .forward(let name): kind = resolve(name, as: .forward)
                case .back(let name): kind = resolve(name, as: .back)
                case .backOne: kind = .backOne
                case .restart: kind = .restart
                }
                var condition: Int32 = -1
                if let source = target.condition {
                    condition = Int32(conditions.count)
                    conditions.append(try parse(source, step: step))
                }
                made.append(Option(kind: kind, step: id, condition: condition, writes: try addWrites(target.set, step: step)))
            }
            let start = Int32(options.count)
            options.append(contentsOf: made)
            return OptionList(start: start, count: Int32(made.count))
        }
        // The derived events by name, and those the "*" step handles (its handlers apply to every step).
        let derivedNames = flow.events.filter { $0.expression != nil }.map(\.name.text)
        let sharedEvents = Set(flow.anyStep?.on.map(\.event.text) ?? [])
        var inputs: [[(key: String, expression: RunExpression)]] = []
        inputs.reserveCapacity(flow.steps.count)
        /// Compiles `step`, its `input` into `inputs` (in this order, so that the first expression that does not
        /// parse is the first in the step).
        func compile(_ step: FlowKit.Step) throws(RunError) -> Step {
            let name = step.name.text
            // The first handler of an event is the one that counts.
            var seen = Set<String>()
            var own: [Handler] = []
            for handler in step.on where seen.insert(handler.event.text).inserted {
                own.append(Handler(event: handler.event.text, options: try addOptions(handler.targets, step: name)))
            }
            let next = try step.next.map { (list) throws(RunError) in try addOptions(list, step: name) }
            let writes = try addWrites(step.set, step: name)
            let handlerStart = Int32(handlers.count)
            var handlerIndex: Int32 = -1
            if own.count > Self.handlerSearchLimit {
                handlerIndex = Int32(handlerIndexes.count)
                handlerIndexes.append(Dictionary(own.indices.map { (own[$0].event, handlerStart + Int32($0)) }, uniquingKeysWith: { first, _ in first }))
            }
            handlers.append(contentsOf: own)
            let derivedStart = Int32(derivedHandled.count)
            for index in derivedNames.indices where seen.contains(derivedNames[index]) || sharedEvents.contains(derivedNames[index]) {
                derivedHandled.append(Int32(index))
            }
            inputs.append(try assignments(step.input, step: name))
            return Step(kind: step.kind, declaresResult: step.result != nil, handlers: Span(start: handlerStart, count: Int32(own.count)),
                        handlerIndex: handlerIndex, writes: writes, derived: Span(start: derivedStart, count: Int32(derivedHandled.count) - derivedStart),
                        next: next)
        }
        var steps: [Step] = []
        steps.reserveCapacity(flow.steps.count)
        for step in flow.steps { steps.append(try compile(step)) }
        let anyStep = try flow.anyStep.map { (step) throws(RunError) in try compile(step) }
        // `"*"`'s input, which nothing reads.
        if anyStep != nil { inputs.removeLast() }
        var derived: [(name: String, expression: RunExpression)] = []
        for event in flow.events {
            if let source = event.expression { derived.append((event.name.text, try parse(source, step: nil))) }
        }
        self.flow = flow
        self.ids = ids
        self.steps = steps
        self.names = flow.steps.map(\.name.text)
        self.anyStep = anyStep
        self.handlers = handlers
        self.handlerIndexes = handlerIndexes
        self.options = options
        self.conditions = conditions
        self.writes = writes
        self.undefinedNames = undefinedNames
        self.derivedHandled = derivedHandled
        self.resultTypes = flow.steps.map { step in
            step.result.map { fields in Dictionary(fields.map { ($0.name.text, $0.type) }, uniquingKeysWith: { first, _ in first }) }
        }
        self.inputs = inputs
        self.stateTypes = stateTypes
        self.derivedEvents = derived
        self.derivedByName = NameTable(derived.indices.map { (derived[$0].name, $0) })
        self.startID = startID
    }

    /// The target list `step` has for `event`, when it handles it: a few handlers are searched by comparing names
    /// (no hashing; a name is mostly one machine comparison), many are looked up.
    func handler(_ step: Step, for event: String) -> OptionList? {
        if step.handlerIndex >= 0 {
            return handlerIndexes[Int(step.handlerIndex)][event].map { handlers[Int($0)].options }
        }
        for position in step.handlers.range where handlers[position].event == event {
            return handlers[position].options
        }
        return nil
    }

    /// The move of `option`.
    package func move(_ option: Option) -> Move {
        switch option.kind {
        case .forward: .forward(Int(option.step))
        case .back: .back(Int(option.step))
        case .backOne: .backOne
        case .restart: .restart
        case .undefined: .undefined(undefinedNames[Int(option.step)])
        }
    }

    /// The derived events `step` handles, indices into `derivedEvents` in declaration order.
    func derived(of step: Step) -> ArraySlice<Int32> { derivedHandled[step.derived.range] }

    /// Values by name, for the few names a flow derives: a short list is searched by comparing names, a long one
    /// is looked up in a dictionary.
    struct NameTable<Element: Sendable>: Sendable {
        private let entries: [(name: String, value: Element)]
        private let index: [String: Int]?

        /// The entries; the first of a repeated name is the one found.
        init(_ entries: [(name: String, value: Element)]) {
            self.entries = entries
            index = entries.count > CompiledFlow.handlerSearchLimit
                ? Dictionary(entries.indices.map { (entries[$0].name, $0) }, uniquingKeysWith: { first, _ in first }) : nil
        }

        /// The value for `name`, when there is one.
        subscript(name: String) -> Element? {
            if let index { return index[name].map { entries[$0].value } }
            for position in entries.indices where entries[position].name == name { return entries[position].value }
            return nil
        }
    }

    /// The name of step `id`.
    package func name(_ id: Int) -> String { names[id] }
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
    /// The name the error is about, when its kind has one that its place does not tell: the outcome of an
    /// `unhandledOutcome` (a `flow` step may leave several unhandled).
    public var subject: String?

    /// Creates a run error. As for findings, any control, format or separator character left in `message` is
    /// escaped with `Identifier.display`, so that no run error can forge a line or an escape sequence.
    public init(_ message: String, kind: Kind, step: String? = nil, file: String? = nil, position: SourcePosition? = nil, subject: String? = nil) {
        self.kind = kind
        self.message = Identifier.needsEscape(message) ? Identifier.display(message, limit: .max, quoting: false) : message
        self.step = step
        self.file = file
        self.position = position
        self.subject = subject
    }

    /// Creates a run error from a message whose names were escaped as it was written.
    package init(_ message: Message, kind: Kind, step: String? = nil, file: String? = nil, position: SourcePosition? = nil) {
        self.init(message.text, kind: kind, step: step, file: file, position: position)
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
    package let expression: FlowExpression
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
    package let expression: RunExpression
    /// The key's declared type, looked up once.
    let type: TypeRef?
    /// Where the key is written: a write of an undeclared key is an error there.
    let keyPosition: SourcePosition

    init(key: String, expression: RunExpression, type: TypeRef?, keyPosition: SourcePosition) {
        self.key = key
        self.expression = expression
        self.type = type
        self.keyPosition = keyPosition
    }
}

/// A value worked out at most once, on first use, from any thread.
private final class FingerprintCache: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    func value(_ make: () -> String) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let stored { return stored }
        let made = make()
        stored = made
        return made
    }
}
