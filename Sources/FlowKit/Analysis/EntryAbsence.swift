import Foundation

/// What is known where a step begins (docs/format.md, "Known across steps"): the `state.K` paths unset or null, and
/// the bool and text values of keys, that every move that pops nothing into the step leaves so. They hold at every
/// showing of a step no run pops back to with other state; which steps those are is the caller's to work out
/// (`Moves.poppable`, `Moves.keeps`), and the steps that are not are passed back as `popped` (nothing is known where
/// they begin, nor along their moves).
struct EntryAbsence: Sendable, Equatable {
    /// The most path operations (set sizes summed over the moves worked out) before the fixed point gives up.
    static let workLimit = 1 << 20
    /// The most rounds of working out the model again without the steps a run may pop back to.
    static let rounds = 4
    /// The most steps a round judges by the moves from them (`Moves.keeps`).
    static let localRuns = 64

    /// Per step (by index in `Flow.steps`), the facts, for the steps where there are some: `state.K` paths known
    /// unset or null, and `fact(_:_:)`'s `state.K=V` for a key known to hold a bool or a text.
    private(set) var paths: [Int: Set<String>] = [:]
    /// With `roots`: the steps the moves from them reach (by index).
    private(set) var reached: [Int] = []

    /// Each step's index by name (the first of a repeated name), as moves name them; `ids` for the initialiser.
    static func ids(of flow: Flow) -> [String: Int] {
        var ids: [String: Int] = [:]
        for (id, step) in flow.steps.enumerated() where ids[step.name.text] == nil { ids[step.name.text] = id }
        return ids
    }

    /// A target list: its owner (a step's index, -1 for `"*"`) and its index among the owner's lists.
    struct ListKey: Hashable {
        let owner: Int
        let list: Int
    }

    /// Nothing known anywhere.
    static let none = EntryAbsence()

    private init() {}

    var isEmpty: Bool { paths.isEmpty }

    /// The paths known unset or null where step `id` begins.
    func at(_ id: Int) -> Set<String> {
        guard let found = paths[id] else { return [] }
        return found.contains { $0.contains("=") } ? found.filter { !$0.contains("=") } : found
    }

    /// Every fact known where step `id` begins (unset or null paths, and values).
    func facts(at id: Int) -> Set<String> { paths[id] ?? [] }

    /// The fact that `path` holds `value`: `state.ok=true`, `state.tier='gold` (the text follows the quote as it
    /// is); values of other kinds are never facts, and `decided` ignores them.
    static func fact(_ path: String, _ value: Value) -> String {
        switch value {
        case .bool(let flag): return path + "=" + (flag ? "true" : "false")
        case .string(let text): return path + "='" + text
        default: return path + "=?" + value.jsonText
        }
    }

    /// The values of `state.K` keys known when `node`, a condition, evaluated to `truth` without a run error: a bool
    /// key (`state.ok`, `!state.ok`), a key compared with a bool or text literal (`state.tier == 'gold'` true,
    /// `state.tier != 'gold'` false), and `&&` (true) and `||` (false) of these.
    static func values(_ node: ExpressionNode, _ truth: Bool) -> Set<String> {
        func literal(_ node: ExpressionNode) -> Value? {
            switch node {
            case .literal(.bool(let flag), _): return .bool(flag)
            case .literal(.string(let text), _): return .string(text)
            default: return nil
            }
        }
        switch node {
        case .path(let path) where path.root == .state && path.keys.count == 1:
            return [fact(path.description, .bool(truth))]
        case .unary(.not, let operand, _):
            return values(operand, !truth)
        case .binary(.and, let lhs, let rhs, _) where truth:
            return values(lhs, true).union(values(rhs, true))
        case .binary(.or, let lhs, let rhs, _) where !truth:
            return values(lhs, false).union(values(rhs, false))
        case .binary(let op, let lhs, let rhs, _) where (op == .equal && truth) || (op == .notEqual && !truth):
            if case .path(let path) = lhs, path.root == .state, path.keys.count == 1, let value = literal(rhs) { return [fact(path.description, value)] }
            if case .path(let path) = rhs, path.root == .state, path.keys.count == 1, let value = literal(lhs) { return [fact(path.description, value)] }
            return []
        default:
            return []
        }
    }

    /// The facts a `set` leaves when it surely runs: the keys it stores a literal `null` in are unset or null, a
    /// bool or text literal their value (the last write of each key).
    static func written(_ set: [Assignment], parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>) -> Set<String> {
        var facts: [String: String] = [:]
        for assignment in set {
            let path = "state." + assignment.key.text
            guard case .success(let expression) = parse(assignment.expression) else {
                facts[path] = nil
                continue
            }
            switch expression.root {
            case .literal(.null, _): facts[path] = path
            case .literal(.bool(let flag), _): facts[path] = fact(path, .bool(flag))
            case .literal(.string(let text), _): facts[path] = fact(path, .string(text))
            default: facts[path] = nil
            }
        }
        return Set(facts.values)
    }

    /// `node` with what `facts` know put in: a path of a known value is that value, one known unset or null is
    /// `null`, and `exists(…)` of either is decided. Its value, when the result is a constant condition, is the
    /// value `node` has whenever it evaluates where the facts hold.
    static func decided(_ node: ExpressionNode, facts: Set<String>) -> Bool? {
        guard !facts.isEmpty else { return nil }
        var values: [String: Value] = [:]
        var absent: Set<String> = []
        for fact in facts {
            if let equals = fact.firstIndex(of: "=") {
                let path = String(fact[..<equals])
                let text = fact[fact.index(after: equals)...]
                if text == "true" { values[path] = .bool(true) } else if text == "false" { values[path] = .bool(false) } else if text.first == "'" {
                    values[path] = .string(String(text.dropFirst()))
                }
            } else {
                absent.insert(fact)
            }
        }
        func put(_ node: ExpressionNode) -> ExpressionNode {
            switch node {
            case .path(let path):
                if let value = values[path.description] { return .literal(value, path.span) }
                if absent.contains(path.description) { return .literal(.null, path.span) }
                return node
            case .exists(let path, let span):
                if values[path.description] != nil { return .literal(.bool(true), span) }
                if absent.contains(path.description) { return .literal(.bool(false), span) }
                return node
            case .literal: return node
            case .unary(let op, let operand, let span): return .unary(op, put(operand), span)
            case .binary(let op, let lhs, let rhs, let span): return .binary(op, put(lhs), put(rhs), span)
            case .conditional(let condition, let then, let otherwise, let span): return .conditional(put(condition), put(then), put(otherwise), span)
            case .membership(let value, let items, let span): return .membership(put(value), items.map(put), span)
            }
        }
        return ConstantCondition.value(of: put(node))
    }

    /// The paths of `flow`'s steps, over the moves `neverTaken` does not rule out; the steps in `popped` are known
    /// nothing of.
    /// `outcomes`: the outcomes a `flow` step's nested flow can finish with, when known (its `"*"` handlers of other
    /// events are never used there).
    /// `roots`, when given, are the only places runs begin, with what is known there (a run of the moves from a
    /// step: `reached` then lists the steps they reach). `ids`: `ids(of: flow)`, when the caller has it.
    init(flow: Flow, neverTaken: NeverTaken, popped: Set<Int> = [], parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>,
         outcomes: (Step) -> Set<String>? = { _ in nil }, roots: [Int: Set<String>]? = nil, ids given: [String: Int]? = nil) {
        let steps = flow.steps
        let ids = given ?? Self.ids(of: flow)
        guard let start = ids[flow.start.text] else { return }
        let derived = Set(flow.events.lazy.filter { $0.expression != nil }.map(\.name.text))
        // Values are used only to decide derived events: only those of the keys their conditions read are kept.
        var eventPaths: Set<String> = []
        for event in flow.events {
            guard let source = event.expression, case .success(let expression) = parse(source) else { continue }
            for path in expression.paths where path.root == .state && !path.keys.isEmpty { eventPaths.insert("state." + path.keys[0]) }
        }
        func values(_ node: ExpressionNode, _ truth: Bool) -> Set<String> {
            eventPaths.isEmpty ? [] : Self.values(node, truth).filter { fact in eventPaths.contains(String(fact[..<(fact.firstIndex(of: "=") ?? fact.endIndex)])) }
        }
        // The paths each list's options know: per option, what the earlier `if`s failing and its own holding show
        // (known unset or null, and proved not null), worked out once per list.
        // (Keyed by the list's owner and index: hashing the lists themselves would cost more than working them out.)
        var guardsMemo: [ListKey: [(absent: Set<String>, proved: Set<String>)]] = [:]
        func guards(_ targets: [Target], _ key: ListKey) -> [(absent: Set<String>, proved: Set<String>)] {
            if targets.allSatisfy({ $0.condition == nil }) { return Array(repeating: ([], []), count: targets.count) }
            if let known = guardsMemo[key] { return known }
            var failedAbsent: Set<String> = []
            var failedProved: Set<String> = []
            var result: [(absent: Set<String>, proved: Set<String>)] = []
            for target in targets {
                guard let source = target.condition, case .success(let expression) = parse(source) else {
                    result.append((failedAbsent, failedProved))
                    continue
                }
                result.append((failedAbsent.union(PathGuards.absentWhenTrue(expression.root)).union(values(expression.root, true)),
                               failedProved.union(PathGuards.whenTrue(expression.root))))
                failedAbsent.formUnion(PathGuards.absentWhenFalse(expression.root))
                failedAbsent.formUnion(values(expression.root, false))
                failedProved.formUnion(PathGuards.whenFalse(expression.root))
            }
            guardsMemo[key] = result
            return result
        }
        // The derived events in order, and what each shows held and not held.
        let order = DerivedEventOrder(flow)
        var shown: [String: (held: Set<String>, failed: Set<String>)] = [:]
        var conditions: [String: FlowExpression] = [:]
        for event in order.events {
            guard let source = event.expression, case .success(let expression) = parse(source) else { continue }
            conditions[event.name.text] = expression
            shown[event.name.text] = (PathGuards.absentWhenTrue(expression.root).union(values(expression.root, true)),
                                      PathGuards.absentWhenFalse(expression.root).union(values(expression.root, false)))
        }
        // Without a move that shows a fact (an `if` or a derived event that shows one, a `set` of a literal),
        // nothing is known anywhere: the flow's moves need not be followed.
        if roots == nil && shown.values.allSatisfy({ $0.held.isEmpty && $0.failed.isEmpty }) {
            var source = false
            for step in flow.anyStepThenSteps where !source {
                if !Self.written(step.set, parse: parse).isEmpty { source = true }
                StepGraph.forEachTargetList(of: step) { _, targets in
                    for target in targets where !source {
                        if !target.set.isEmpty && !Self.written(target.set, parse: parse).isEmpty { source = true }
                        guard let condition = target.condition, case .success(let expression) = parse(condition) else { continue }
                        if !PathGuards.absentWhenTrue(expression.root).isEmpty || !PathGuards.absentWhenFalse(expression.root).isEmpty
                            || !values(expression.root, true).isEmpty || !values(expression.root, false).isEmpty { source = true }
                    }
                }
            }
            if !source { return }
        }
        var known: [Set<String>?] = Array(repeating: nil, count: steps.count)
        var stepInfo: [(written: Set<String>, nulled: Set<String>, evaluated: [String])?] = Array(repeating: nil, count: steps.count)
        var queued = Array(repeating: false, count: steps.count)
        var queue: [Int] = []
        func meet(_ id: Int, _ paths: Set<String>) {
            if let existing = known[id] {
                guard !existing.isEmpty, !existing.isSubset(of: paths) else { return }
                known[id] = existing.intersection(paths)
            } else {
                known[id] = paths
            }
            if !queued[id] {
                queued[id] = true
                queue.append(id)
            }
        }
        if let roots {
            for (id, facts) in roots where id < steps.count { meet(id, facts) }
        } else {
            meet(start, [])
            for entry in flow.entries { if let id = ids[entry.step.text] { meet(id, []) } }
            for id in popped where id < steps.count { meet(id, []) }
        }
        var work = 0
        var head = 0
        while head < queue.count {
            let id = queue[head]
            head += 1
            queued[id] = false
            let step = steps[id]
            guard step.kind != .finish, let here = known[id] else { continue }
            // (A step known nothing of leaves nothing known along a move but what the move shows itself.)
            // What the step's `set` writes and leaves known, and the derived events it evaluates in order (none at a
            // `flow` step): worked out once per step.
            let info: (written: Set<String>, nulled: Set<String>, evaluated: [String])
            if let known = stepInfo[id] {
                info = known
            } else {
                let setRuns = (step.kind == .flow || step.result != nil) && !step.set.isEmpty
                info = (setRuns ? Set(step.set.map { "state." + $0.key.text }) : [], setRuns ? Self.written(step.set, parse: parse) : [],
                        order.evaluated(at: step).map(\.name.text))
                stepInfo[id] = info
            }
            let (written, nulled, evaluated) = info
            func leave(_ targets: [Target], owner: Int?, list: Int, event: String?) {
                let sure = step.kind == .flow || (step.result != nil && (event == nil || derived.contains(event!)))
                // (A write it may make or not leaves the key known only as it was, unless it writes that.)
                var afterSet = sure ? Self.removing(written, from: here).union(nulled) : Self.removing(written, from: here).union(here.intersection(nulled))
                // On a move without an explicit event, the derived events evaluated before the one taken failed
                // (all of them, for `next`), and the one taken held. Where what is known decides one, the moves it
                // rules out are not made: past one that always holds, and by one never raised.
                if step.kind != .flow && (event == nil || derived.contains(event!)) {
                    let before = afterSet
                    for name in evaluated {
                        let decided = before.isEmpty ? nil : conditions[name].flatMap { Self.decided($0.root, facts: afterSet) }
                        guard let facts = shown[name] else { continue }
                        if name == event {
                            if decided == false { return }
                            afterSet.formUnion(facts.held)
                            break
                        }
                        if decided == true { return }
                        afterSet.formUnion(facts.failed)
                    }
                }
                let known = guards(targets, ListKey(owner: owner ?? -1, list: list))
                for (index, target) in targets.enumerated() {
                    guard case .forward(let name) = target.move, let to = ids[name.text],
                          neverTaken.reason(NeverTaken.Option(step: owner, list: list, option: index)) == nil else { continue }
                    var paths = afterSet.union(known[index].absent).subtracting(known[index].proved)
                    if !target.set.isEmpty {
                        paths = Self.removing(Set(target.set.map { "state." + $0.key.text }), from: paths).union(Self.written(target.set, parse: parse))
                    }
                    work += paths.count + 1
                    // Facts that contradict each other (a key unset or null and holding a value, or two values) show
                    // a move no run makes.
                    if Self.contradicts(paths) { continue }
                    meet(to, paths)
                }
            }
            StepGraph.forEachTargetList(of: step) { list, targets in
                leave(targets, owner: id, list: list, event: list < step.on.count ? step.on[list].event.text : nil)
            }
            if let any = flow.anyStep {
                let finishes = step.kind == .flow ? outcomes(step) : nil
                StepGraph.forEachTargetList(of: any) { list, targets in
                    let event = list < any.on.count ? any.on[list].event.text : nil
                    let overridden = event.map { step.handler(for: $0) != nil } ?? (step.next != nil)
                    // (A `flow` step uses a `"*"` handler only for an outcome of that name.)
                    if let event, let finishes, !finishes.contains(event) { return }
                    if !overridden { leave(targets, owner: nil, list: list, event: event) }
                }
            }
            work += here.count + 1
            if work > Self.workLimit { return }
        }
        for (id, found) in known.enumerated() {
            guard let found else { continue }
            if roots != nil { reached.append(id) }
            if !found.isEmpty { paths[id] = found }
        }
    }

    /// Per step (by index), the derived events the facts decide where the step evaluates them (after its own `set`,
    /// which a step with `result` runs first on those moves): those that always hold there (the events after them,
    /// and `next`, are never tried), and those never raised there; the events after one that holds are not judged.
    func decidedEvents(_ flow: Flow, parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>)
        -> (holding: [Int: Set<String>], neverRaised: [Int: Set<String>]) {
        var holding: [Int: Set<String>] = [:]
        var neverRaised: [Int: Set<String>] = [:]
        guard !paths.isEmpty else { return ([:], [:]) }
        let order = DerivedEventOrder(flow)
        var conditions: [String: FlowExpression] = [:]
        for event in order.events {
            if let source = event.expression, case .success(let expression) = parse(source) { conditions[event.name.text] = expression }
        }
        for (id, known) in paths {
            let step = flow.steps[id]
            let evaluated = order.evaluated(at: step)
            guard !evaluated.isEmpty else { continue }
            var facts = known
            if step.result != nil && !step.set.isEmpty {
                facts = Self.removing(Set(step.set.map { "state." + $0.key.text }), from: facts).union(Self.written(step.set, parse: parse))
            }
            for event in evaluated {
                guard let condition = conditions[event.name.text] else { break }
                switch Self.decided(condition.root, facts: facts) {
                case true?:
                    holding[id, default: []].insert(event.name.text)
                case false?:
                    neverRaised[id, default: []].insert(event.name.text)
                case nil:
                    break
                }
                if holding[id]?.contains(event.name.text) == true { break }
                // (The events after it are evaluated only where it did not hold.)
                facts.formUnion(PathGuards.absentWhenFalse(condition.root).union(Self.values(condition.root, false)))
            }
        }
        return (holding, neverRaised)
    }

    /// Whether `facts` cannot all hold: a path known unset or null and known to hold a value, or two values.
    static func contradicts(_ facts: Set<String>) -> Bool {
        guard facts.count > 1 else { return false }
        var valued: [Substring: Substring] = [:]
        for fact in facts {
            guard let equals = fact.firstIndex(of: "=") else { continue }
            let path = fact[..<equals]
            let value = fact[equals...]
            if let other = valued[path], other != value { return true }
            valued[path] = value
        }
        return !valued.isEmpty && valued.keys.contains { facts.contains(String($0)) }
    }

    /// `paths` without those of `keys` (`state.K` paths), those under them, and their values.
    static func removing(_ keys: Set<String>, from paths: Set<String>) -> Set<String> {
        guard !keys.isEmpty, !paths.isEmpty else { return paths }
        return paths.filter { path in
            let head = path.firstIndex(of: "=").map { String(path[..<$0]) } ?? path
            return !keys.contains(head) && !keys.contains { head.hasPrefix($0 + ".") }
        }
    }

    /// The `state.K` paths of the keys `set` stores a literal `null` in (its last write of them).
    static func nulled(_ set: [Assignment], parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>) -> Set<String> {
        written(set, parse: parse).filter { !$0.contains("=") }
    }

    /// The model a run's moves are judged in: the options never taken, the derived events that always fail or
    /// always hold at steps, and the flow's step ids.
    struct Moves {
        let flow: Flow
        let neverTaken: NeverTaken
        let failingEvents: FailingEvents
        let alwaysHolding: Set<String>
        var alwaysHoldingAt: [Int: Set<String>] = [:]
        let order: DerivedEventOrder
        let ids: [String: Int]

        /// The options of step `id` a run may take (its own, and the `"*"` ones it uses there), with their owner
        /// (`nil` for `"*"`), in `body`.
        func forEachOption(of id: Int, _ body: (_ owner: Int?, _ target: Target) -> Void) {
            let step = flow.steps[id]
            guard step.kind != .finish, !neverTaken.neverCompletes(id) else { return }
            StepGraph.forEachTargetList(of: step) { list, targets in
                for (index, target) in targets.enumerated() where neverTaken.reason(NeverTaken.Option(step: id, list: list, option: index)) == nil {
                    body(id, target)
                }
            }
            guard let any = flow.anyStep else { return }
            // `"*"`'s result moves at this step: none where the `set` always fails, nor past a derived event that
            // always fails or always holds here.
            let derived = Set(order.events.map(\.name.text))
            var stopped: Set<String>?
            if step.kind != .flow {
                let evaluated = order.evaluated(at: step).map(\.name.text)
                // (An event that always holds is raised: the handlers of those after it, and `next`, are not tried.)
                if let first = evaluated.firstIndex(where: { failingEvents.fails($0, at: id) || alwaysHolding.contains($0) || alwaysHoldingAt[id]?.contains($0) == true }) {
                    stopped = Set(evaluated[(failingEvents.fails(evaluated[first], at: id) ? first : first + 1)...])
                }
            }
            StepGraph.forEachTargetList(of: any) { list, targets in
                let event = list < any.on.count ? any.on[list].event.text : nil
                if let event, step.handler(for: event) != nil { return }
                if event == nil && step.next != nil { return }
                let resultMove = step.kind == .flow || event == nil || derived.contains(event!)
                if resultMove && neverTaken.setAlwaysFails(id) { return }
                if step.kind == .flow, let event, !neverTaken.canFinish(id, with: event) { return }
                if step.kind != .flow, let stopped, event.map({ stopped.contains($0) }) ?? true { return }
                for (index, target) in targets.enumerated() where neverTaken.reason(NeverTaken.Option(step: nil, list: list, option: index)) == nil {
                    body(nil, target)
                }
            }
        }

        /// The steps a forward move of step `id` may show that are not finish steps.
        func forward(from id: Int) -> [Int] {
            var found: [Int] = []
            forEachOption(of: id) { _, target in
                guard case .forward(let name) = target.move, let to = ids[name.text], flow.steps[to].kind != .finish else { return }
                found.append(to)
            }
            return found
        }

        /// Whether a run may pop back to step `id`: some move leaves it forward to a step that is not a finish step.
        func poppable(_ id: Int) -> Bool { !forward(from: id).isEmpty }

        /// Whether what is known at step `id` (`facts`) holds wherever a run may pop back to it: along every move a
        /// run may make from it while it stays on the history (forward moves, from what is known at it), what is
        /// known where each step reached begins includes `facts`, and no `set` a move of such a step may run before
        /// popping (the step's own, a back option's) writes their keys. `local` works out the moves from a step.
        func keeps(_ facts: Set<String>, above id: Int, local: (Int, Set<String>) -> EntryAbsence) -> Bool {
            let keys = Set(facts.map { fact -> String in
                let path = fact.firstIndex(of: "=").map { String(fact[..<$0]) } ?? fact
                return String(path.dropFirst(6).prefix { $0 != "." })
            })
            let run = local(id, facts)
            for next in run.reached {
                if !facts.isSubset(of: run.facts(at: next)) { return false }
                let step = flow.steps[next]
                if (step.kind == .flow || step.result != nil) && step.set.contains(where: { keys.contains($0.key.text) }) { return false }
                var writes = false
                forEachOption(of: next) { _, target in
                    switch target.move {
                    case .back, .backOne: if target.set.contains(where: { keys.contains($0.key.text) }) { writes = true }
                    default: break
                    }
                }
                if writes { return false }
            }
            return true
    }
    }
}
