/// A type the static checker gives an expression without running it: the declared types, `null`, the shapes of
/// results, and `unknown` for whatever cannot be known (a result with no declared shape); nothing is ever reported
/// about an `unknown`.
indirect enum StaticType: Hashable, Sendable, CustomStringConvertible {
    /// A 64-bit integer.
    case int
    /// A floating-point number.
    case number
    /// Text.
    case string
    /// `true` or `false`.
    case bool
    /// Text that is one of the listed values (read from a key declared as an enum).
    case enumeration([String])
    /// A value of the wrapped type, or null (an optional key).
    case optional(StaticType)
    /// The literal `null`.
    case null
    /// A nested result shape, by field.
    case object([String: StaticType])
    /// Anything: the checker keeps quiet about it.
    case unknown

    /// The type a declaration spells: `int?` is `.optional(.int)`, a result shape is an `.object`.
    package init(_ type: TypeRef) {
        let base: StaticType
        switch type.base {
        case .int: base = .int
        case .number: base = .number
        case .string: base = .string
        case .bool: base = .bool
        case .enumeration(let values): base = .enumeration(values)
        case .object(let fields): base = .object(StaticType.fields(fields))
        }
        self = type.optional ? .optional(base) : base
    }

    /// The declared fields as static types by name (the first of a repeated name wins).
    package static func fields(_ fields: [Field]) -> [String: StaticType] {
        Dictionary(fields.map { ($0.name.text, StaticType($0.type)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The type without its optional wrapper: what the value is whenever it is not null.
    package var unwrapped: StaticType {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    /// Whether a value of the type is an int or a number.
    var isNumeric: Bool { self == .int || self == .number }

    /// Whether a value of the type is text (enum values are text).
    var isText: Bool {
        switch self {
        case .string, .enumeration: return true
        default: return false
        }
    }

    /// The type as a declaration spells it: `int`, `[economy, business]`, `string?`, `null`, `unknown`.
    package var description: String {
        switch self {
        case .int: return "int"
        case .number: return "number"
        case .string: return "string"
        case .bool: return "bool"
        case .enumeration(let values): return "[" + values.joined(separator: ", ") + "]"
        case .optional(let wrapped): return wrapped.description + "?"
        case .null: return "null"
        case .object(let fields): return "{ " + fields.keys.sorted().map { "\($0): \(fields[$0]!)" }.joined(separator: ", ") + " }"
        case .unknown: return "unknown"
        }
    }

    /// The kind of value with its article, as run errors say it: "an int", "a string" (enum values too), "null".
    var phrase: String {
        switch self {
        case .int: return "an int"
        case .number: return "a number"
        case .string, .enumeration: return "a string"
        case .bool: return "a bool"
        case .optional(let wrapped): return "an optional " + wrapped.description
        case .null: return "null"
        case .object: return "an object"
        case .unknown: return "a value"
        }
    }

    /// The type of `condition ? a : b` from the types of its branches: equal types stay, `int` and `number` give
    /// `number`, null and `T` give `T?`, two enums give the enum of all their values, an enum and a string give a
    /// string, anything else is `unknown`.
    package static func join(_ a: StaticType, _ b: StaticType) -> StaticType {
        if a == b { return a }
        switch (a, b) {
        case (.unknown, _), (_, .unknown): return .unknown
        case (.null, .optional), (.optional, .null): return a == .null ? b : a
        case (.null, let other), (let other, .null): return .optional(other)
        case (.optional(let x), .optional(let y)): return wrapping(join(x, y))
        case (.optional(let x), let y), (let y, .optional(let x)): return wrapping(join(x, y))
        case (.int, .number), (.number, .int): return .number
        case (.enumeration(let x), .enumeration(let y)): return .enumeration(x + y.filter { value in !x.contains { same($0, value) } })
        case (.enumeration, .string), (.string, .enumeration): return .string
        default: return .unknown
        }
    }

    /// `T?` for a known `T`, `unknown` for `unknown`.
    private static func wrapping(_ type: StaticType) -> StaticType {
        type == .unknown ? .unknown : .optional(type.unwrapped)
    }

    /// Whether two strings are the same sequence of Unicode scalars, as the evaluator compares them.
    static func same(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.elementsEqual(b.unicodeScalars)
    }
}

/// Whose result `result.…` reads, for messages.
enum ResultOwner: Hashable, Sendable {
    /// The declared `result` of a step.
    case step(String)
    /// The final state of the nested flow (written as `file`) that a `flow` step runs.
    case nestedFlow(step: String, file: String)
}

/// What `result` holds where an expression is evaluated.
enum ResultContext: Hashable, Sendable {
    /// Anything: no declared shape (a step without `result`, the `"*"` step, a derived event in general).
    case unknown
    /// Nothing can be read: `reason` says why (a `flow` step's `input` runs before the step has a result).
    case absent(reason: ResultAbsence)
    /// A known shape: the keys `result` has, with their types.
    case fields([String: StaticType], owner: ResultOwner)
    /// A known shape, but the completion may come without a result (`when` says which: "when step 'ask' completes
    /// with event 'skip'"): a read of `result` needs an `exists(result.…)` guard.
    case fieldsUnlessAbsent([String: StaticType], owner: ResultOwner, when: ResultCompletion)

    /// The declared `result` of `step`, or `unknown` when it declares none.
    package static func declared(by step: Step) -> ResultContext {
        guard let result = step.result else { return .unknown }
        return .fields(StaticType.fields(result), owner: .step(step.name.text))
    }

    /// The final state of a nested flow, as the parent's `set` reads it: every key of `state` with its type
    /// (an optional key never set reads null).
    package static func nestedFlow(state: [Field], step: String, file: String) -> ResultContext {
        .fields(StaticType.fields(state), owner: .nestedFlow(step: step, file: file))
    }
}

/// Why `result` cannot be read at all. The words are made only when a read reports them: the walker builds a
/// context for every handler of every step, and most are never read.
enum ResultAbsence: Hashable, Sendable {
    /// The step declares no `result`, so it completes without one.
    case noResult(step: String)
    /// A `flow` step's `input`, which is evaluated before the step has a result.
    case inputBeforeResult(step: String)

    /// Why, in words: "step 'a' declares no 'result', so it completes without one".
    var text: String {
        switch self {
        case .noResult(let step): return "step '\(step)' declares no 'result', so it completes without one"
        case .inputBeforeResult(let step): return "'input' is evaluated before step '\(step)' has a result"
        }
    }
}

/// A completion that may come without a result: a step completing with an explicit event.
struct ResultCompletion: Hashable, Sendable {
    /// The step.
    let step: String
    /// The event it completes with.
    let event: String

    /// The completion in words: "when step 'ask' completes with event 'skip'".
    var text: String { "when step '\(step)' completes with event '\(event)'" }
}

/// What an expression can read: the declared state and what `result` holds.
struct TypeEnvironment {
    /// Declared state types by key.
    package let state: [String: TypeRef]
    /// What `result` holds.
    package var result: ResultContext
    /// Did-you-mean over the declared state keys, built once and shared by copies.
    let stateKeys: SuggestionIndex
    /// The keys never set where the expressions run (a nested flow's keys no run of it sets, docs/format.md, "Behind
    /// a certain run error"): a read of a non-optional one on every evaluation always fails, and an optional one
    /// reads `null`.
    var neverSet: Set<String> = []
    /// The keys of a `flow` step's result (its nested flow's final state) that no run of the nested flow sets: a read
    /// of a non-optional one on every evaluation always fails, and an optional one reads `null`.
    var resultNeverSet: Set<String> = []
    /// The `state.K` paths known unset or null here (docs/format.md, "Behind a certain run error"): an `if` that held
    /// or failed shows it (`!exists(state.k)` held), or the step's own `set` stored `null` in it before these
    /// options. A read of one on every evaluation that needs a value always fails.
    var knownAbsent: Set<String> = []
    /// The `result.…` paths not null when there is a result (the step's own `set`, which runs with one, needed them
    /// not null): a read of one is no `maybe_null` finding, though the completion may come without a result.
    var resultNotNull: Set<String> = []
    /// Whether a completion that may come without a result surely does (the step's own `set`, which runs with one,
    /// always fails): a read of `result` there always fails.
    var resultSurelyAbsent = false

    /// An environment over the declared `state` (in file order; the first of a repeated key wins).
    package init(state: [Field], result: ResultContext = .unknown) {
        self.state = Dictionary(state.map { ($0.name.text, $0.type) }, uniquingKeysWith: { first, _ in first })
        self.result = result
        self.stateKeys = SuggestionIndex(state.map(\.name.text))
    }

    /// The values of `path` when it is a `state.K` path of a declared enum that is not optional (a read of it
    /// that does not fail gives one of them).
    func enumDomain(_ path: ExpressionPath) -> [String]? {
        Self.enumDomain(path, in: state)
    }

    /// `enumDomain` over the declared types `state`.
    static func enumDomain(_ path: ExpressionPath, in state: [String: TypeRef]) -> [String]? {
        guard path.root == .state, path.keys.count == 1, let type = state[path.keys[0]], !type.optional,
              case .enumeration(let values) = type.base else { return nil }
        return values
    }

    /// The same state with `result` holding `result`.
    package func with(result: ResultContext) -> TypeEnvironment {
        var copy = self
        copy.result = result
        return copy
    }
}

/// One problem the checker found inside an expression.
struct TypeProblem: Hashable, Sendable {
    /// Which rule reports it.
    package enum Kind: String, Hashable, Sendable {
        /// A `state.…` path names a key that `state` does not declare (`undeclared_state`).
        case undeclaredState = "undeclared_state"
        /// Anything else that does not type-check (`type_mismatch`).
        case typeMismatch = "type_mismatch"
        /// A value that may be null reaches an operator, a condition or a non-optional key (`maybe_null`).
        case maybeNull = "maybe_null"
    }

    /// Which rule reports it.
    package let kind: Kind
    /// The offset inside the expression text (in Unicode scalars) of the sub-expression at fault.
    package let offset: Int
    /// What is wrong, lowercase, naming keys and values in single quotes.
    package let message: String
    /// What it is about, for baselines (`Diagnostic.subject`): the state key, or the path that may be null.
    package let subject: String?
    /// A did-you-mean as an edit of the expression: the name `old` at `offset` becomes `new`.
    package struct Replacement: Hashable, Sendable {
        package var offset: Int
        package var old: String
        package var new: String
    }

    /// The did-you-mean as an edit of the expression, when there is one.
    package var replacement: Replacement?
    /// Whether every evaluation of the expression stops with a run error here (docs/format.md, "Behind a certain run
    /// error"): a problem no value of the declared types escapes, in a part evaluated on every evaluation.
    package var alwaysFails = false
    /// Whether it is a finding: false for a read of a key no run sets (`TypeEnvironment.neverSet`), which counts only
    /// as always failing (the data-flow rules report such reads).
    package var reported = true
    /// The offset just past the sub-expression whose evaluation fails here (the innermost one being worked out when
    /// the problem was found): a run that fails here evaluates nothing of the expression from there on.
    package var failsBy = Int.max

    /// Problems are the same when they say the same of the same place (`alwaysFails` is worked out from where it is).
    package static func == (a: TypeProblem, b: TypeProblem) -> Bool {
        a.kind == b.kind && a.offset == b.offset && a.message == b.message && a.subject == b.subject && a.replacement == b.replacement
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(offset)
        hasher.combine(message)
    }

    /// Creates a problem.
    package init(kind: Kind, offset: Int, message: Message, subject: String? = nil, replacement: Replacement? = nil) {
        self.kind = kind
        self.offset = offset
        self.message = message.text
        self.subject = subject
        self.replacement = replacement
    }
}

/// An expression's static type and the problems found while inferring it.
struct InferredExpression: Hashable, Sendable {
    /// The type of the whole expression.
    package let type: StaticType
    /// The problems, in the order they were found (left to right, inner before outer).
    package let problems: [TypeProblem]
}

/// Static type inference over parsed expressions: the rules of `Evaluation.swift` and `TypeCheck.coerce`
/// applied to types instead of values, so that what fails at run time for every value of the declared types
/// is found before any run.
///
/// An optional operand is checked as the type it holds (`exists(state.x) && state.x > 1` is the usual guard), so
/// only a type that is exactly `null` counts as null. `unknown` operands are never reported.
enum TypeInference {
    /// The type of `expression` in `environment`, with the problems of its operators and paths.
    package static func infer(_ expression: FlowExpression, in environment: TypeEnvironment, guarded: Set<String> = []) -> InferredExpression {
        var inferrer = Inferrer(environment: environment)
        inferrer.guarded = guarded
        let type = inferrer.infer(expression.root)
        return InferredExpression(type: type, problems: inferrer.problems)
    }

    /// The problems of `expression` used as a condition (an `if`, a derived event): it must be a bool. The branches
    /// of a `? :` are checked one by one; `what` names the slot ("the 'if' of step 'a'").
    package static func checkCondition(_ expression: FlowExpression, in environment: TypeEnvironment, what: String,
                                      guarded: Set<String> = []) -> [TypeProblem] {
        var carried = guarded
        return checkCondition(expression, in: environment, what: what, guarded: &carried)
    }

    /// `checkCondition`, giving back in `guarded` the paths also proved not null once the condition is worked out,
    /// whether it held or not (an operand the evaluation needed not null, in a part it always evaluates).
    package static func checkCondition(_ expression: FlowExpression, in environment: TypeEnvironment, what: String,
                                      guarded: inout Set<String>) -> [TypeProblem] {
        var inferrer = Inferrer(environment: environment)
        inferrer.guarded = guarded
        inferrer.expect(expression.root, .condition(what))
        guarded = inferrer.guarded
        return inferrer.problems
    }

    /// Whether `expression`, as a condition, holds only when it does not get that far: a conjunct of its top-level
    /// `&&` chain after the first always fails when it is evaluated (with what the conjuncts before it prove, and
    /// `guarded`), so whenever the ones before it hold, the evaluation fails there (docs/format.md, "Behind a
    /// certain run error").
    package static func holdsOnlyByFailing(_ expression: FlowExpression, in environment: TypeEnvironment, guarded: Set<String> = []) -> Bool {
        var conjuncts: [ExpressionNode] = []
        func flatten(_ node: ExpressionNode) {
            if case .binary(.and, let lhs, let rhs, _) = node {
                flatten(lhs)
                flatten(rhs)
            } else {
                conjuncts.append(node)
            }
        }
        flatten(expression.root)
        guard conjuncts.count > 1 else { return false }
        var proved = guarded
        for (index, conjunct) in conjuncts.enumerated() {
            if index > 0 {
                var inferrer = Inferrer(environment: environment)
                inferrer.guarded = proved
                inferrer.expect(conjunct, .condition("'&&'"))
                if inferrer.problems.contains(where: \.alwaysFails) { return true }
            }
            proved.formUnion(PathGuards.whenTrue(conjunct))
        }
        return false
    }

    /// The problems of `expression` stored in a key of type `type` (a `set`, an `input`), with `TypeCheck.coerce`'s
    /// rules: an int fits `number`, a number never fits `int`, null fits only optionals, a text literal must be one
    /// of an enum's values, an enum fits another that shares a value. The branches of a `? :` are checked one by
    /// one; `what` names the slot ("step 'a' sets 'amount'").
    package static func checkAssignment(_ expression: FlowExpression, to type: TypeRef, in environment: TypeEnvironment, what: String,
                                       guarded: Set<String> = []) -> [TypeProblem] {
        var carried = guarded
        return checkAssignment(expression, to: type, in: environment, what: what, guarded: &carried)
    }

    /// `checkAssignment`, giving back in `guarded` the paths also proved not null once the value is worked out (an
    /// operand the evaluation needed not null, in a part it always evaluates): the next assignment of the same list
    /// sees the same state and result, so a run that gets to it has them not null.
    package static func checkAssignment(_ expression: FlowExpression, to type: TypeRef, in environment: TypeEnvironment, what: String,
                                       guarded: inout Set<String>) -> [TypeProblem] {
        var inferrer = Inferrer(environment: environment)
        inferrer.guarded = guarded
        inferrer.expect(expression.root, .value(type, what))
        guarded = inferrer.guarded
        return inferrer.problems
    }
}

/// Walks a parsed tree once, giving each node a type; recursion is bounded by the parser's nesting limit.
private struct Inferrer {
    /// What the slot an expression sits in needs.
    enum Expectation {
        /// A bool, for the slot `what`.
        case condition(String)
        /// A value stored in a key of the type, for the slot `what`.
        case value(TypeRef, String)
    }

    let environment: TypeEnvironment
    var problems: [TypeProblem] = []
    /// The paths (`state.note`, `result.user.name`) an enclosing `exists` guard proves set and not null here.
    var guarded: Set<String> = []

    init(environment: TypeEnvironment) {
        self.environment = environment
    }

    /// How many parts evaluation may skip enclose the node being inferred (`guarding`), and how many enclosing
    /// checks no value need fail (`escapable`): a problem found inside either is not one every evaluation meets.
    var skippable = 0
    var escapableChecks = 0
    /// The ends of the nodes being worked out, innermost last (see `TypeProblem.failsBy`).
    var ends: [Int] = []
    /// How many `? :` so far joined branches of different kinds (an int and a number give a number that may be an
    /// int): a problem found after one may be escaped by the other branch's value.
    var mixedJoins = 0

    /// `certain`: whether the problem is one no value of the declared types escapes (docs/format.md, "Behind a
    /// certain run error"); it counts as always failing only outside the parts evaluation may skip.
    mutating func mismatch(_ message: Message, at offset: Int, replacement: TypeProblem.Replacement? = nil, certain: Bool = true) {
        var problem = TypeProblem(kind: .typeMismatch, offset: offset, message: message, replacement: replacement)
        problem.alwaysFails = certain && skippable == 0 && escapableChecks == 0 && mixedJoins == 0
        problem.failsBy = ends.last ?? Int.max
        problems.append(problem)
    }

    /// A read of a key no run sets (docs/format.md, "Behind a certain run error"): not a finding, but one every
    /// evaluation meets when it is outside the parts evaluation may skip.
    mutating func neverSetRead(_ path: ExpressionPath) {
        var first = path
        first.keys = [path.keys[0]]
        guard !isGuarded(first) else { return }
        var problem = TypeProblem(kind: .typeMismatch, offset: path.span.start, message: "'\(path: first)' is never set here")
        problem.alwaysFails = skippable == 0 && escapableChecks == 0 && mixedJoins == 0
        problem.reported = false
        problem.failsBy = path.span.end
        problems.append(problem)
    }

    /// Runs `body` with the problems it finds counted as ones a value may escape.
    mutating func escapable<T>(_ body: (inout Inferrer) -> T) -> T {
        escapableChecks += 1
        defer { escapableChecks -= 1 }
        return body(&self)
    }

    /// Runs `body` with `extra` paths guarded as well, for a part evaluation may skip (the right side of `&&` and
    /// `||`, a branch of `? :`, an item of `in`): what the part proves (see `nonNull`) does not hold after it.
    /// With `skippable` false, the part is one evaluated whenever the expression gets to it (the branch a constant
    /// condition picks): only the guards apply.
    mutating func guarding<T>(_ extra: Set<String>, skippable counts: Bool = true, _ body: (inout Inferrer) -> T) -> T {
        let saved = guarded
        guarded.formUnion(extra)
        let step = counts ? 1 : 0
        skippable += step
        defer {
            guarded = saved
            skippable -= step
        }
        return body(&self)
    }

    /// Whether a guard proves `path` not null: the path itself, or a longer path through it, is guarded.
    func isGuarded(_ path: ExpressionPath) -> Bool {
        if guarded.isEmpty { return false }
        let text = path.description
        return guarded.contains { $0 == text || ($0.hasPrefix(text) && $0.dropFirst(text.count).first == ".") }
    }

    /// Reports `type` when it may be null (an optional of a known type) where `what` needs a value, and gives the
    /// type it holds.
    ///
    /// A path used so is not null afterwards: a run where it was has stopped there (one cause, one finding). So a
    /// later use of it in the same evaluation (and, for an assignment list, in the later assignments, which see the
    /// same state and result) is not reported, nor is an earlier operand whose operator applies after it (in
    /// `state.x + (state.x * 2)`, the `*` fails first).
    mutating func nonNull(_ type: StaticType, _ node: ExpressionNode, _ what: @autoclosure () -> String) -> StaticType {
        guard case .optional(let wrapped) = type else { return type }
        if case .path(let path) = node {
            if isGuarded(path) || (!environment.resultNotNull.isEmpty && environment.resultNotNull.contains(path.description)) { return wrapped }
            guarded.insert(path.description)
        }
        if wrapped != .unknown {
            let subject: String
            let hint: String
            if case .path(let path) = node {
                subject = "'\(path)'"
                hint = "; guard it with exists(\(path))"
            } else {
                subject = "this value"
                hint = ""
            }
            let path: String?
            if case .path(let read) = node { path = read.description } else { path = nil }
            var problem = TypeProblem(kind: .maybeNull, offset: node.span.start, message: "\(verbatim: subject) may be null, and \(verbatim: what())\(verbatim: hint)",
                                      subject: path)
            // A path known unset or null here always is.
            if let path, !environment.knownAbsent.isEmpty, environment.knownAbsent.contains(path) {
                problem.alwaysFails = skippable == 0 && escapableChecks == 0 && mixedJoins == 0
                problem.failsBy = ends.last ?? Int.max
            }
            problems.append(problem)
        }
        return wrapped
    }

    // MARK: - Slots

    /// Checks `node` against what its slot needs, branch by branch through `? :`.
    mutating func expect(_ node: ExpressionNode, _ expectation: Expectation) {
        ends.append(node.span.end)
        defer { ends.removeLast() }
        if case .conditional(let condition, let then, let otherwise, _) = node {
            // (A condition that fails stops the evaluation before either branch.)
            ends.append(condition.span.end)
            requireBool(condition, what: "the condition of '? :'")
            ends.removeLast()
            // A branch a constant condition rules out is never evaluated: nothing in it is checked.
            let constant = ConstantCondition.value(of: condition, domains: environment.enumDomain)
            if constant != false { guarding(PathGuards.whenTrue(condition), skippable: constant == nil) { $0.expect(then, expectation) } }
            if constant != true { guarding(PathGuards.whenFalse(condition), skippable: constant == nil) { $0.expect(otherwise, expectation) } }
            return
        }
        let type = infer(node)
        switch expectation {
        case .condition(let what):
            let found = nonNull(type, node, "\(what) needs true or false")
            if found != .bool && found != .unknown {
                mismatch("\(verbatim: what) must be a bool, found \(verbatim: found.phrase)", at: node.span.start)
            }
        case .value(let declared, let what):
            let stored = declared.optional ? type : nonNull(type, node, "\(what), which is not optional")
            if let message = assignability(of: stored, node: node, to: declared) {
                // (An optional key takes null: an optional value escapes the error.)
                mismatch("\(verbatim: what): \(message)", at: node.span.start, certain: stored.unwrapped == stored)
            }
        }
    }

    /// Why a value of `type` (written as `node`) cannot be stored in a key declared `declared`, or nil when it can.
    func assignability(of type: StaticType, node: ExpressionNode, to declared: TypeRef) -> Message? {
        let expected = TypeCheck.describe(declared)
        switch type {
        case .unknown:
            return nil
        case .null:
            guard !declared.optional else { return nil }
            // A result key the nested flow never sets is why it is null: say so.
            if case .path(let path) = node, path.root == .result, path.keys.count == 1, environment.resultNeverSet.contains(path.keys[0]) {
                return "expected \(verbatim: expected), found null (the type is not optional): the nested flow never sets '\(name: path.keys[0])' when this step starts it"
            }
            return "expected \(verbatim: expected), found null (the type is not optional)"
        case .optional(let wrapped):
            return assignability(of: wrapped, node: node, to: declared)
        default:
            break
        }
        switch (declared.base, type) {
        case (.int, .int), (.number, .int), (.number, .number), (.string, .string), (.string, .enumeration), (.bool, .bool):
            return nil
        case (.enumeration(let values), .string):
            guard case .literal(.string(let text), _) = node, !values.contains(where: { StaticType.same($0, text) }) else { return nil }
            return "'\(name: text)' is not one of \(Self.list(values))\(verbatim: Suggestions.didYouMean(text, in: values))"
        case (.enumeration(let values), .enumeration(let given)):
            guard !given.contains(where: { value in values.contains { StaticType.same($0, value) } }) else { return nil }
            return "expected \(verbatim: expected), found one of \(Self.list(given))"
        default:
            return "expected \(verbatim: expected), found \(verbatim: type.phrase)"
        }
    }

    /// Infers `node` and reports it unless it is a bool (or optional bool, or unknown).
    mutating func requireBool(_ node: ExpressionNode, what: String) {
        let found = nonNull(infer(node), node, "\(what) needs true or false")
        if found != .bool && found != .unknown {
            mismatch("\(verbatim: what) needs a bool, found \(verbatim: found.phrase)", at: node.span.start)
        }
    }

    package static func list(_ values: [String]) -> Message {
        Message.quoted(values)
    }

    // MARK: - Nodes

    mutating func infer(_ node: ExpressionNode) -> StaticType {
        ends.append(node.span.end)
        defer { ends.removeLast() }
        switch node {
        case .literal(let value, _):
            switch value {
            case .null: return .null
            case .bool: return .bool
            case .int: return .int
            case .number: return .number
            case .string: return .string
            case .object: return .unknown
            }
        case .path(let path):
            return read(path, exists: false)
        case .exists(let path, _):
            _ = read(path, exists: true)
            return .bool
        case .unary(let op, let operand, let span):
            let type = nonNull(infer(operand), operand, "'\(op.rawValue)' needs a value")
            switch (op, type) {
            case (_, .unknown): return op == .not ? .bool : .unknown
            case (.not, .bool): return .bool
            case (.negate, .int), (.negate, .number): return type
            case (.not, _):
                mismatch("'!' needs a bool, found \(verbatim: type.phrase)", at: span.start)
                return .bool
            case (.negate, _):
                mismatch("'-' needs a number, found \(verbatim: type.phrase)", at: span.start)
                return .unknown
            }
        case .binary(let op, let lhs, let rhs, let span):
            return binary(op, lhs, rhs, at: span.start)
        case .conditional(let condition, let then, let otherwise, _):
            // (A condition that fails stops the evaluation before either branch.)
            ends.append(condition.span.end)
            requireBool(condition, what: "the condition of '? :'")
            ends.removeLast()
            // The branch a constant condition picks is evaluated whenever the condition is (it is no part evaluation
            // may skip).
            switch ConstantCondition.value(of: condition, domains: environment.enumDomain) {
            case true?: return guarding(PathGuards.whenTrue(condition), skippable: false) { $0.infer(then) }
            case false?: return guarding(PathGuards.whenFalse(condition), skippable: false) { $0.infer(otherwise) }
            case nil: break
            }
            let a = guarding(PathGuards.whenTrue(condition)) { $0.infer(then) }
            let b = guarding(PathGuards.whenFalse(condition)) { $0.infer(otherwise) }
            let joined = StaticType.join(a, b)
            if a != b { mixedJoins += 1 }
            // Branches of kinds no value can be both of: whatever uses the value fails for one of them.
            if joined == .unknown && a.unwrapped != .unknown && b.unwrapped != .unknown {
                mismatch("the branches of '? :' give \(verbatim: a.unwrapped.phrase) and \(verbatim: b.unwrapped.phrase); give both the same type", at: node.span.start,
                         certain: false)
            }
            return joined
        case .membership(let value, let items, _):
            let valueType = infer(value)
            for item in items {
                let itemType = guarding([]) { $0.infer(item) }
                escapable { $0.compare("in", value, valueType, item, itemType, at: item.span.start) }
            }
            return .bool
        }
    }

    mutating func binary(_ op: BinaryOperator, _ lhs: ExpressionNode, _ rhs: ExpressionNode, at offset: Int) -> StaticType {
        var a = infer(lhs)
        var b: StaticType
        switch op {
        case .and, .or:
            // The left side is needed not null before the right side is evaluated, and the right side only in its
            // own scope (evaluation may skip it).
            a = nonNull(a, lhs, "'\(op.rawValue)' needs a value")
            // A right side a constant left side rules out is never evaluated (`false && …`, `true || …`); one it
            // rules in always is (`true && …`, `false || …`).
            let constant = ConstantCondition.value(of: lhs, domains: environment.enumDomain)
            if constant == (op == .or) {
                b = .bool
            } else {
                b = guarding(op == .and ? PathGuards.whenTrue(lhs) : PathGuards.whenFalse(lhs), skippable: constant == nil) { inferrer in
                    inferrer.nonNull(inferrer.infer(rhs), rhs, "'\(op.rawValue)' needs a value")
                }
            }
        case .equal, .notEqual:
            b = infer(rhs)
        default:
            b = infer(rhs)
            a = nonNull(a, lhs, "'\(op.rawValue)' needs a value")
            b = nonNull(b, rhs, "'\(op.rawValue)' needs a value")
        }
        switch op {
        case .and, .or:
            // (The right side is evaluated only when the left does not decide: always after a constant left side that
            // rules it in.)
            let rightAlways = ConstantCondition.value(of: lhs, domains: environment.enumDomain) == (op == .and)
            for (index, (node, type)) in [(lhs, a), (rhs, b)].enumerated() where type.unwrapped != .bool && type.unwrapped != .unknown {
                mismatch("'\(name: op.rawValue)' needs bools, found \(verbatim: type.unwrapped.phrase)", at: node.span.start, certain: index == 0 || rightAlways)
            }
            return .bool
        case .equal, .notEqual:
            compare(op.rawValue, lhs, a, rhs, b, at: offset)
            return .bool
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            checkEnumLiterals(lhs, a, against: rhs)
            checkEnumLiterals(rhs, b, against: lhs)
            let (x, y) = (a.unwrapped, b.unwrapped)
            if x != .unknown && y != .unknown && !(x.isNumeric && y.isNumeric) && !(x.isText && y.isText) {
                mismatch("'\(name: op.rawValue)' needs two numbers or two strings, found \(verbatim: x.phrase) and \(verbatim: y.phrase)", at: offset)
            }
            return .bool
        case .add, .subtract, .multiply, .divide, .remainder:
            let (x, y) = (a.unwrapped, b.unwrapped)
            // Dividing by a literal zero is a run error on every evaluation (not a finding of its own), after the
            // operands' kinds are checked.
            func byZero() {
                guard op == .divide || op == .remainder, case .literal(let zero, _) = rhs, zero == .int(0) || zero == .number(0) else { return }
                var problem = TypeProblem(kind: .typeMismatch, offset: offset, message: "division by zero")
                problem.alwaysFails = skippable == 0 && escapableChecks == 0 && mixedJoins == 0
                problem.reported = false
                problem.failsBy = ends.last ?? Int.max
                problems.append(problem)
            }
            if x == .unknown || y == .unknown {
                byZero()
                return .unknown
            }
            if x.isNumeric && y.isNumeric {
                byZero()
                return x == .int && y == .int ? .int : .number
            }
            if op == .add && x.isText && y.isText { return .string }
            let needs = op == .add ? "two numbers or two strings" : "two numbers"
            mismatch("'\(name: op.rawValue)' needs \(verbatim: needs), found \(verbatim: x.phrase) and \(verbatim: y.phrase)", at: offset)
            return .unknown
        }
    }

    /// `==`, `!=` and `in`: equal kinds (int and number together, text and enums together), anything with null;
    /// text literals compared with an enum must be among its values.
    mutating func compare(_ op: String, _ lhs: ExpressionNode, _ a: StaticType, _ rhs: ExpressionNode, _ b: StaticType, at offset: Int) {
        checkEnumLiterals(lhs, a, against: rhs)
        checkEnumLiterals(rhs, b, against: lhs)
        let (x, y) = (a.unwrapped, b.unwrapped)
        if x == .unknown || y == .unknown || x == .null || y == .null { return }
        if (x.isNumeric && y.isNumeric) || (x.isText && y.isText) || (x == .bool && y == .bool) { return }
        // (A null compares with anything: an optional operand escapes the error.)
        mismatch("'\(name: op)' cannot compare \(verbatim: x.phrase) with \(verbatim: y.phrase)", at: offset, certain: a == x && b == y)
    }

    /// Reports each text literal that `other` may give (itself, or a branch of its `? :`) that is not a value of the
    /// enum `node` reads.
    mutating func checkEnumLiterals(_ node: ExpressionNode, _ type: StaticType, against other: ExpressionNode) {
        guard case .enumeration(let values) = type.unwrapped else { return }
        var pending = [other]
        var literals: [(text: String, offset: Int)] = []
        while let next = pending.popLast() {
            switch next {
            case .literal(.string(let text), let span): literals.append((text, span.start))
            case .conditional: pending += ConstantCondition.liveChildren(of: next).dropFirst().reversed()
            default: break
            }
        }
        for (text, offset) in literals where !values.contains(where: { StaticType.same($0, text) }) {
            let hint = Suggestions.didYouMean(text, in: values)
            if case .path(let path) = node {
                mismatch("'\(name: text)' is not a value of '\(path: path)' (\(Self.list(values)))\(verbatim: hint)", at: offset, certain: false)
            } else {
                mismatch("'\(name: text)' is not one of \(Self.list(values))\(verbatim: hint)", at: offset, certain: false)
            }
        }
    }

    // MARK: - Paths

    /// The type `path` reads (for `exists(path)`, the problems only): undeclared state keys and result keys the
    /// result does not have are reported.
    mutating func read(_ path: ExpressionPath, exists: Bool) -> StaticType {
        var shown: String { exists ? "exists(\(path))" : "'\(path)'" }
        switch path.root {
        case .state:
            let key = path.keys[0]
            guard let type = environment.state[key] else {
                let suggestion = environment.stateKeys.closest(to: key)
                let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
                // The key starts after `state.`.
                problems.append(TypeProblem(kind: .undeclaredState, offset: path.span.start, message: "state key '\(name: key)' is not declared\(verbatim: hint)",
                                            subject: key, replacement: suggestion.map { .init(offset: path.span.start + 6, old: key, new: $0) }))
                return .unknown
            }
            let declared = StaticType(type)
            if !exists, !type.optional, !environment.knownAbsent.isEmpty, environment.knownAbsent.contains(path.description) { neverSetRead(path) }
            if !exists, !environment.neverSet.isEmpty, environment.neverSet.contains(key) {
                // An optional key never set reads `null`.
                if !type.optional { neverSetRead(path) } else if !isGuarded(path) { return .null }
            }
            return isGuarded(path) ? declared.unwrapped : declared
        case .result:
            switch environment.result {
            case .unknown:
                return .unknown
            case .absent(let reason):
                // One cause, one finding: a run that read the result without one has stopped at the first read.
                if !exists && guarded.contains(PathGuards.resultRead) { return .unknown }
                mismatch(exists ? "'\(path: shown)' is always false: \(verbatim: reason.text)" : "\(verbatim: shown) cannot be read: \(verbatim: reason.text)", at: path.span.start,
                         certain: !exists)
                if !exists { guarded.insert(PathGuards.resultRead) }
                return .unknown
            case .fields(let fields, let owner):
                if !exists, !path.keys.isEmpty, environment.resultNeverSet.contains(path.keys[0]) {
                    // An optional key never set reads `null`.
                    if case .optional = fields[path.keys[0]] {
                        if path.keys.count == 1 && !isGuarded(path) { return .null }
                    } else {
                        neverSetRead(path)
                    }
                }
                let type = readResult(path, fields: fields, owner: owner, exists: exists)
                return isGuarded(path) ? type.unwrapped : type
            case .fieldsUnlessAbsent(let fields, let owner, let when):
                let before = problems.count
                let type = readResult(path, fields: fields, owner: owner, exists: exists)
                // A key the shape lacks is one mistake, reported as such.
                if problems.count == before && !exists && !guarded.contains(where: { $0.hasPrefix("result.") }) {
                    mismatch("'\(path: path)' cannot be read \(verbatim: when.text): that completion may come without a result; guard it with exists(\(verbatim: path.description))",
                             at: path.span.start, certain: environment.resultSurelyAbsent)
                    // The later reads of this evaluation are not reached by a run without a result.
                    guarded.insert(PathGuards.resultRead)
                }
                return isGuarded(path) ? type.unwrapped : type
            }
        }
    }

    mutating func readResult(_ path: ExpressionPath, fields: [String: StaticType], owner: ResultOwner, exists: Bool) -> StaticType {
        var current = fields
        var type = StaticType.unknown
        for (index, key) in path.keys.enumerated() {
            if index > 0 {
                let parent = "result." + path.keys[..<index].joined(separator: ".")
                switch type.unwrapped {
                case .object(let nested):
                    current = nested
                case .unknown:
                    return .unknown
                default:
                    mismatch("'\(path: parent)' is \(verbatim: type.unwrapped.phrase), not an object, so '\(path: path)' cannot be read", at: path.span.start,
                             certain: !exists)
                    return .unknown
                }
            }
            guard let next = current[key] else {
                let missing = path.keys[...index].joined(separator: ".")
                let subject: String
                switch owner {
                case .step(let step): subject = "step '\(step)' has no result key '\(missing)'"
                case .nestedFlow(let step, let file):
                    subject = ("the nested flow '\(name: file)' of step '\(verbatim: step)' has no state key '\(verbatim: missing)'" as Message).text
                }
                let consequence = exists ? ", so 'exists(\(path))' is always false" : ""
                let suggestion = Suggestions.closest(to: key, in: current.keys.sorted())
                // The key starts after `result.` and the keys before it, each with its dot.
                let keyOffset = path.span.start + 7 + path.keys[..<index].reduce(0) { $0 + $1.unicodeScalars.count + 1 }
                mismatch(Message(verbatim: subject + consequence + (suggestion.map { "; did you mean '\($0)'?" } ?? "")), at: path.span.start,
                         replacement: suggestion.map { .init(offset: keyOffset, old: key, new: $0) }, certain: !exists)
                return .unknown
            }
            type = next
        }
        return type
    }
}

/// What `exists(…)` and comparisons with `null` prove about paths: the paths (`state.note`, `result.user.name`) that
/// are set and not null whenever an expression is true, or false.
enum PathGuards {
    /// A guard that says only "there is a result": a `result.…` path was read on every evaluation of an expression
    /// worked out before (a run without a result stops at that read), so a later read cannot be the first to fail
    /// for want of one. It is no path (`#` is in no name), so it proves nothing about null.
    static let resultRead = "result.#read"

    /// Whether `node` reads a `result.…` path on every evaluation (outside `exists`, the right side of `&&` and
    /// `||`, the branches of `? :` and `in` items).
    static func readsResult(_ node: ExpressionNode) -> Bool {
        Guards.mustReadPaths(node).contains { $0.hasPrefix("result.") }
    }

    /// The paths not null whenever `node` is true.
    static func whenTrue(_ node: ExpressionNode) -> Set<String> {
        switch node {
        case .exists(let path, _):
            return [path.description]
        case .binary(.notEqual, let lhs, let rhs, _):
            return nullComparison(lhs, rhs)
        case .binary(.equal, let lhs, let rhs, _):
            // Equal to a value that is not null: not null.
            return valueComparison(lhs, rhs)
        case .unary(.not, let operand, _):
            return whenFalse(operand)
        case .binary(.and, let lhs, let rhs, _):
            return whenTrue(lhs).union(whenTrue(rhs))
        case .binary(.or, let lhs, let rhs, _):
            return whenTrue(lhs).intersection(whenTrue(rhs))
        case .conditional(let condition, let then, let otherwise, _):
            // A branch that is the literal `false` is never the one that holds (`exists(p) ? p : false`).
            if case .literal(.bool(false), _) = otherwise { return whenTrue(condition).union(whenTrue(then)) }
            if case .literal(.bool(false), _) = then { return whenFalse(condition).union(whenTrue(otherwise)) }
            return whenTrue(condition).union(whenTrue(then)).intersection(whenFalse(condition).union(whenTrue(otherwise)))
        default:
            return []
        }
    }

    /// The paths not null whenever `node` is false.
    static func whenFalse(_ node: ExpressionNode) -> Set<String> {
        switch node {
        case .binary(.equal, let lhs, let rhs, _):
            return nullComparison(lhs, rhs)
        case .binary(.notEqual, let lhs, let rhs, _):
            // Not unequal to a value that is not null: not null.
            return valueComparison(lhs, rhs)
        case .unary(.not, let operand, _):
            return whenTrue(operand)
        case .binary(.or, let lhs, let rhs, _):
            return whenFalse(lhs).union(whenFalse(rhs))
        case .binary(.and, let lhs, let rhs, _):
            return whenFalse(lhs).intersection(whenFalse(rhs))
        case .conditional(let condition, let then, let otherwise, _):
            // A branch that is the literal `true` is never the one that fails (`exists(p) ? !p : true`).
            if case .literal(.bool(true), _) = otherwise { return whenTrue(condition).union(whenFalse(then)) }
            if case .literal(.bool(true), _) = then { return whenFalse(condition).union(whenFalse(otherwise)) }
            return whenTrue(condition).union(whenFalse(then)).intersection(whenFalse(condition).union(whenFalse(otherwise)))
        default:
            return []
        }
    }

    /// The path of `p == v` or `v == p` where `v` is a literal other than `null`.
    private static func valueComparison(_ lhs: ExpressionNode, _ rhs: ExpressionNode) -> Set<String> {
        switch (lhs, rhs) {
        case (.path(let path), .literal(let value, _)), (.literal(let value, _), .path(let path)): return value == .null ? [] : [path.description]
        default: return []
        }
    }

    /// The `state.K` paths unset or null whenever `node` is true: `!exists(p)`, `p == null`, and `&&`, `||`, `!` of
    /// these.
    static func absentWhenTrue(_ node: ExpressionNode) -> Set<String> {
        switch node {
        case .binary(.equal, let lhs, let rhs, _):
            return nullComparison(lhs, rhs).filter { $0.hasPrefix("state.") }
        case .unary(.not, let operand, _):
            return absentWhenFalse(operand)
        case .binary(.and, let lhs, let rhs, _):
            return absentWhenTrue(lhs).union(absentWhenTrue(rhs))
        case .binary(.or, let lhs, let rhs, _):
            return absentWhenTrue(lhs).intersection(absentWhenTrue(rhs))
        default:
            return []
        }
    }

    /// The `state.K` paths unset or null whenever `node` is false: `exists(p)`, `p != null`, and `&&`, `||`, `!` of
    /// these.
    static func absentWhenFalse(_ node: ExpressionNode) -> Set<String> {
        switch node {
        case .exists(let path, _):
            return path.root == .state ? [path.description] : []
        case .binary(.notEqual, let lhs, let rhs, _):
            return nullComparison(lhs, rhs).filter { $0.hasPrefix("state.") }
        case .unary(.not, let operand, _):
            return absentWhenTrue(operand)
        case .binary(.or, let lhs, let rhs, _):
            return absentWhenFalse(lhs).union(absentWhenFalse(rhs))
        case .binary(.and, let lhs, let rhs, _):
            return absentWhenFalse(lhs).intersection(absentWhenFalse(rhs))
        default:
            return []
        }
    }

    /// The path of `p == null` or `null == p` (either side).
    private static func nullComparison(_ lhs: ExpressionNode, _ rhs: ExpressionNode) -> Set<String> {
        switch (lhs, rhs) {
        case (.path(let path), .literal(.null, _)), (.literal(.null, _), .path(let path)): return [path.description]
        default: return []
        }
    }
}

/// What the editor asks of the type check.
package enum ExpressionTypes {
    /// The static type of the expression `source`, as a declaration spells it (`int`, `string?`), read at `step`
    /// (its declared result; none for `"*"` and `flow` steps, nor without a step): what the editor's hover shows.
    /// Nil when it does not parse.
    package static func typeDescription(of source: ExpressionSource, state: [Field], step: Step?) -> String? {
        guard case .success(let expression) = ExpressionParser.parse(source) else { return nil }
        let result: ResultContext = step.map { $0.kind == .flow || $0.name.text == "*" ? .unknown : .declared(by: $0) } ?? .unknown
        return TypeInference.infer(expression, in: TypeEnvironment(state: state, result: result)).type.description
    }
}
