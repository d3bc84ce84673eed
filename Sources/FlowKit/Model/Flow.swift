/// A name written in a flow file (a step, event, state key, outcome or entry) and where it was written.
public struct Name: Hashable, Sendable, CustomStringConvertible {
    /// The name's text.
    public var text: String
    /// Where the name was written.
    public var position: SourcePosition

    /// Creates a positioned name.
    public init(_ text: String, at position: SourcePosition) {
        self.text = text
        self.position = position
    }

    public var description: String { text }
}

/// The source text of an expression: a string written in an expression slot, or a YAML/JSON literal there.
public struct ExpressionSource: Hashable, Sendable {
    /// The expression's text (for a literal, the literal as written).
    public var text: String
    /// Where the value starts in the file.
    public var position: SourcePosition
    /// The literal's kind when the slot held a boolean, number or null rather than a string.
    package var literal: Scalar.Kind?
    /// Whether the text was written quoted (so it starts one column after `position`).
    public var quoted: Bool
    /// The text as written, when it had escapes or spanned lines (see `RawScalar`).
    package var raw: RawScalar?

    /// Creates an expression source.
    package init(text: String, position: SourcePosition, literal: Scalar.Kind? = nil, quoted: Bool = false, raw: RawScalar? = nil) {
        self.text = text
        self.position = position
        self.literal = literal
        self.quoted = quoted
        self.raw = raw
    }

    /// The file position of the character at `offset` (in Unicode scalars) inside the expression, exact however
    /// the text was written (plain, quoted, with escapes, over several lines; docs/format.md, "Positions inside
    /// quoted text"); the start of the value when it cannot be worked out (`isExact(ofOffset:)` says so).
    public func position(ofOffset offset: Int) -> SourcePosition {
        exactPosition(ofOffset: offset) ?? position
    }

    /// Whether `position(ofOffset:)` is the exact position of the character at `offset`, not the value's start.
    package func isExact(ofOffset offset: Int) -> Bool { exactPosition(ofOffset: offset) != nil }

    /// What a finding at `offset` adds to its message when its position is the value's start rather than the
    /// character's (docs/format.md, "Positions inside quoted text"): empty when the position is exact.
    package func unmappedNote(ofOffset offset: Int) -> String {
        offset == 0 || isExact(ofOffset: offset) ? ""
            : " (shown at the start of the value: the expression's text at character \(offset + 1) does not map back to the file)"
    }

    private func exactPosition(ofOffset offset: Int) -> SourcePosition? {
        if literal != nil { return offset == 0 ? position : nil }
        if let raw { return raw.position(ofOffset: offset, in: text) }
        // Without the text as written, the value was written on one line as it is (the readers keep it otherwise).
        let prefix = text.unicodeScalars.prefix(offset)
        if prefix.contains("\n") || prefix.contains("\r") { return nil }
        return SourcePosition(line: position.line, column: position.column + (quoted ? 1 : 0) + prefix.count)
    }
}

/// A declared type: `int`, `number`, `string`, `bool`, an enum, or (in results) a nested shape; optionally `?`.
public struct TypeRef: Hashable, Sendable, CustomStringConvertible {
    /// The underlying type.
    public indirect enum Base: Hashable, Sendable {
        case int, number, string, bool
        /// A list of allowed strings.
        case enumeration([String])
        /// A nested shape (results only).
        case object([Field])
    }

    /// The underlying type.
    public var base: Base
    /// Whether the value may be unset or null.
    public var optional: Bool
    /// Where the type was written.
    public var position: SourcePosition

    /// Creates a type reference.
    public init(base: Base, optional: Bool, position: SourcePosition) {
        self.base = base
        self.optional = optional
        self.position = position
    }

    public var description: String {
        let text: String
        switch base {
        case .int: text = "int"
        case .number: text = "number"
        case .string: text = "string"
        case .bool: text = "bool"
        case .enumeration(let values): text = "[" + values.joined(separator: ", ") + "]"
        case .object(let fields): text = "{ " + fields.map { "\($0.name.text): \($0.type)" }.joined(separator: ", ") + " }"
        }
        return optional ? text + "?" : text
    }
}

/// A key and its declared type, in `state` or a step's `result`.
public struct Field: Hashable, Sendable {
    /// The key.
    public var name: Name
    /// Its type.
    public var type: TypeRef

    /// Creates a field.
    public init(name: Name, type: TypeRef) {
        self.name = name
        self.type = type
    }
}

/// One state update: a key and the expression that computes it.
public struct Assignment: Hashable, Sendable {
    /// The state key written.
    public var key: Name
    /// The value's expression.
    public var expression: ExpressionSource

    /// Creates an assignment.
    public init(key: Name, expression: ExpressionSource) {
        self.key = key
        self.expression = expression
    }
}

/// One option of a transition: where to go, under which condition, with which state updates.
public struct Target: Hashable, Sendable {
    /// The navigation a target performs.
    public enum Move: Hashable, Sendable {
        /// Push the step on the history and show it.
        case forward(Name)
        /// Pop the history back to the latest visit of the step.
        case back(Name)
        /// Pop one step.
        case backOne
        /// Clear history and state and go to `start`.
        case restart
    }

    /// The navigation.
    public var move: Move
    /// Where the target was written.
    public var position: SourcePosition
    /// The `if` condition, when there is one.
    public var condition: ExpressionSource?
    /// The `set` updates applied when taken.
    public var set: [Assignment]

    /// Creates a target.
    public init(move: Move, condition: ExpressionSource? = nil, set: [Assignment] = [], position: SourcePosition) {
        self.move = move
        self.position = position
        self.condition = condition
        self.set = set
    }

    /// The step a forward or `back: X` target names.
    public var stepName: Name? {
        switch move {
        case .forward(let name), .back(let name): return name
        case .backOne, .restart: return nil
        }
    }
}

/// A handler: an event and the targets tried in order when it is raised.
public struct Handler: Hashable, Sendable {
    /// The event handled.
    public var event: Name
    /// The guarded target list.
    public var targets: [Target]

    /// Creates a handler.
    public init(event: Name, targets: [Target]) {
        self.event = event
        self.targets = targets
    }
}

/// What a step is.
public enum StepKind: String, Hashable, Sendable, CaseIterable {
    /// A screen shown to the user (the default).
    case screen
    /// Work such as a network call.
    case action
    /// A nested flow.
    case flow
    /// The end of the flow.
    case finish
}

/// A written reason to silence rules on one step (`lint: { allow: [...], reason: "..." }`).
public struct Suppression: Hashable, Sendable {
    /// The rule identifiers allowed on the step.
    public var rules: [Name]
    /// Why; required.
    public var reason: String?
    /// Where the `lint` key was written.
    public var position: SourcePosition

    /// Creates a suppression.
    public init(rules: [Name], reason: String?, position: SourcePosition) {
        self.rules = rules
        self.reason = reason
        self.position = position
    }
}

/// One step of a flow, or the `"*"` step whose handlers apply to every step.
///
/// A value type whose fields live in one shared, copy-on-write box: the analyses pass steps around a lot, and
/// copying a step is then one reference count rather than one per field.
public struct Step: Hashable, Sendable {
    /// The step's fields.
    private struct Fields: Hashable, Sendable {
        var name: Name
        var kind: StepKind
        var title: String?
        var description: String?
        var result: [Field]?
        var set: [Assignment]
        var on: [Handler]
        var next: [Target]?
        var outcome: Name?
        var flowPath: String?
        var flowPathPosition: SourcePosition?
        var input: [Assignment]
        var suppression: Suppression?
    }

    /// The box the fields live in; replaced by a copy before a write when it is shared.
    private final class Storage: @unchecked Sendable {
        /// Read on every step access in the analyses' and the engine's hot loops. Writes go only through `unique`,
        /// which owns the box alone, so no access can overlap another: the run-time exclusivity check is left out
        /// here (what `-enforce-exclusivity=unchecked` did for the whole module, which an unsafe flag cannot do in
        /// a package others depend on).
        @exclusivity(unchecked) var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private var storage: Storage

    /// The fields, for writing: the box is copied first when another step shares it.
    private var unique: Fields {
        get { storage.fields }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
            yield &storage.fields
        }
    }

    /// The step's name (the key it was written under).
    public var name: Name {
        get { storage.fields.name }
        _modify { yield &unique.name }
    }
    /// What it is.
    public var kind: StepKind {
        get { storage.fields.kind }
        _modify { yield &unique.kind }
    }
    /// A label for diagrams.
    public var title: String? {
        get { storage.fields.title }
        _modify { yield &unique.title }
    }
    /// Free text for people.
    public var description: String? {
        get { storage.fields.description }
        _modify { yield &unique.description }
    }
    /// The declared shape of the step's result.
    public var result: [Field]? {
        get { storage.fields.result }
        _modify { yield &unique.result }
    }
    /// The reducer: state keys from expressions, run when the step completes with a result.
    public var set: [Assignment] {
        get { storage.fields.set }
        _modify { yield &unique.set }
    }
    /// Handlers by event, in file order.
    public var on: [Handler] {
        get { storage.fields.on }
        _modify { yield &unique.on }
    }
    /// The target list taken when no handled event is raised.
    public var next: [Target]? {
        get { storage.fields.next }
        _modify { yield &unique.next }
    }
    /// On a finish step: the flow's outcome (default: the step's name).
    public var outcome: Name? {
        get { storage.fields.outcome }
        _modify { yield &unique.outcome }
    }
    /// On a flow step: the nested flow file, relative to this file.
    public var flowPath: String? {
        get { storage.fields.flowPath }
        _modify { yield &unique.flowPath }
    }
    /// Where `flow` was written.
    public var flowPathPosition: SourcePosition? {
        get { storage.fields.flowPathPosition }
        _modify { yield &unique.flowPathPosition }
    }
    /// On a flow step: the nested flow's initial state.
    public var input: [Assignment] {
        get { storage.fields.input }
        _modify { yield &unique.input }
    }
    /// Rules silenced on this step.
    public var suppression: Suppression? {
        get { storage.fields.suppression }
        _modify { yield &unique.suppression }
    }

    /// Creates a step.
    public init(name: Name, kind: StepKind = .screen, title: String? = nil, description: String? = nil, result: [Field]? = nil,
                set: [Assignment] = [], on: [Handler] = [], next: [Target]? = nil, outcome: Name? = nil,
                flowPath: String? = nil, flowPathPosition: SourcePosition? = nil, input: [Assignment] = [], suppression: Suppression? = nil) {
        storage = Storage(Fields(name: name, kind: kind, title: title, description: description, result: result, set: set, on: on, next: next,
                                 outcome: outcome, flowPath: flowPath, flowPathPosition: flowPathPosition, input: input, suppression: suppression))
    }

    public static func == (lhs: Step, rhs: Step) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    /// Whether the step has any transition of its own.
    public var hasTransitions: Bool { !on.isEmpty || next != nil }

    /// The handler for `event`, when the step has one.
    public func handler(for event: String) -> Handler? { on.first { $0.event.text == event } }
}

/// A declared event: raised by a step itself, or derived from an expression.
public struct EventDeclaration: Hashable, Sendable {
    /// The event's name.
    public var name: Name
    /// The expression that raises it, for a derived event.
    public var expression: ExpressionSource?

    /// Creates an event declaration.
    public init(name: Name, expression: ExpressionSource?) {
        self.name = name
        self.expression = expression
    }
}

/// A deep link into the flow.
public struct Entry: Hashable, Sendable {
    /// The entry's name.
    public var name: Name
    /// The step the flow starts at.
    public var step: Name
    /// The link's path, with `{key}` parameters.
    public var path: String
    /// Where the path was written.
    public var pathPosition: SourcePosition
    /// The entry of the `flow` step's nested flow this entry reaches into, when it does.
    public var nestedEntry: Name?

    /// Creates an entry.
    public init(name: Name, step: Name, path: String, pathPosition: SourcePosition, nestedEntry: Name? = nil) {
        self.name = name
        self.step = step
        self.path = path
        self.pathPosition = pathPosition
        self.nestedEntry = nestedEntry
    }
}

/// A flow definition as written in one file: the model every analysis, the engine and the renderers work on.
public struct Flow: Hashable, Sendable {
    /// The file the flow was read from, as given.
    public var file: String
    /// The format version (`flowkit: 1`).
    public var version: Int
    /// The flow's name.
    public var name: Name
    /// A label for diagrams.
    public var title: String?
    /// Free text for people.
    public var description: String?
    /// The first step.
    public var start: Name
    /// Declared state keys, in file order.
    public var state: [Field]
    /// The state keys a run that begins at `start` is given (`inputs`), in file order.
    public var inputs: [Name]
    /// Declared events, in declaration order.
    public var events: [EventDeclaration]
    /// Deep links.
    public var entries: [Entry]
    /// The steps in file order, without `"*"`.
    public var steps: [Step]
    /// The `"*"` step, when there is one.
    public var anyStep: Step?
    /// FNV-1a 64, as 16 hex digits, of a normal form of what a run depends on (names, kinds, types, expressions,
    /// targets, nested flows; not titles, descriptions, comments or layout): a saved run is restored only against a
    /// flow with its fingerprint (docs/format.md, "Saving and restoring a run").
    public var fingerprint: String { FlowFingerprint.of(self) }

    /// Creates a flow.
    public init(file: String, version: Int = 1, name: Name, title: String? = nil, description: String? = nil, start: Name,
                state: [Field] = [], inputs: [Name] = [], events: [EventDeclaration] = [], entries: [Entry] = [],
                steps: [Step] = [], anyStep: Step? = nil) {
        self.file = file
        self.inputs = inputs
        self.version = version
        self.name = name
        self.title = title
        self.description = description
        self.start = start
        self.state = state
        self.events = events
        self.entries = entries
        self.steps = steps
        self.anyStep = anyStep
    }

    /// The step named `name`, when there is one.
    public func step(named name: String) -> Step? { steps.first { $0.name.text == name } }

    /// The inputs a run that begins at `start` must be given: listed in `inputs`, declared and not optional.
    public var requiredInputs: [String] {
        let types = state.typesByName
        var seen: Set<String> = []
        return inputs.map(\.text).filter { types[$0].map { !$0.optional } ?? false && seen.insert($0).inserted }
    }
}

extension Flow {
    /// `"*"` (when there is one), then the steps in file order, read in place: the rules walk every step of
    /// every file this way, and a joined array would copy the step list each time.
    var anyStepThenSteps: AnyStepThenSteps { AnyStepThenSteps(anyStep: anyStep, steps: steps) }
}

/// `"*"`, then a flow's steps (``Flow/anyStepThenSteps``).
struct AnyStepThenSteps: Sequence {
    let anyStep: Step?
    let steps: [Step]

    /// Yields `"*"` first, then each step.
    struct Iterator: IteratorProtocol {
        var pending: Step?
        var rest: IndexingIterator<[Step]>

        mutating func next() -> Step? {
            if let step = pending {
                pending = nil
                return step
            }
            return rest.next()
        }
    }

    func makeIterator() -> Iterator { Iterator(pending: anyStep, rest: steps.makeIterator()) }
    var underestimatedCount: Int { steps.count + (anyStep == nil ? 0 : 1) }
}

extension Flow {
    /// The declared state types by key (the first declaration of a key).
    var stateTypes: [String: TypeRef] { state.typesByName }
}

extension Array where Element == Field {
    /// Each field's type by its name (the first field of a name, where a name is written twice).
    var typesByName: [String: TypeRef] {
        Dictionary(map { ($0.name.text, $0.type) }, uniquingKeysWith: { first, _ in first })
    }
}
