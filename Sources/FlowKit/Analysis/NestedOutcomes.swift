/// What a nested flow's final state holds for each way it can finish: the data flow of `maybe_unset` run on the
/// nested flow, from its `start` with the keys its parent passes, met at its reachable finish steps by outcome.
extension Flow {
    /// The nested entries that this flow's entries into step `name` (a `flow` step) start its nested flow at.
    func nestedEntries(into name: String) -> [String] {
        entries.compactMap { $0.step.text == name ? $0.nestedEntry?.text : nil }
    }

    /// The outcomes of its finish steps.
    var outcomes: Set<String> { Set(steps.lazy.filter { $0.kind == .finish }.map(\.outcomeName)) }
}

extension Step {
    /// The outcome a finish step ends its flow with: its `outcome`, else its name.
    var outcomeName: String { outcome?.text ?? name.text }
}

enum NestedOutcomes {
    /// What a nested flow does as a `flow` step starts it (docs/format.md, "Behind a certain run error").
    struct AsStarted: Sendable, Equatable {
        /// The keys no run of it sets (non-optional ones always fail to read; optional ones always read `null`).
        var neverSet: Set<String>
        /// The outcomes of the finish steps its runs reach.
        var outcomes: Set<String>
    }

    /// The most rounds of the fixed point in `asStarted`; past them, nothing is judged never set.
    static let roundLimit = 8

    /// What `child` does when a `flow` step passing `passed` starts it at its `start`, or at one of `entries` (the
    /// nested entries of the parent's entries into the step), with nothing else set: no host gives a nested flow
    /// state. A key is **never set** when it is not passed, no path parameter of those entries binds it, and no
    /// assignment a run of it can make writes it: one of a step its runs reach, of an option they may take, that
    /// does not always fail and comes after none that always fails in its `set`, judged with the keys never set
    /// unset (or `null`). Runs reach steps over the child's graph without the moves no run makes, judged the same
    /// way (its own nested flows' outcomes not judged). Both are worked out together, as a greatest fixed point: a
    /// key is kept while every assignment of it that runs reach fails, so `level: state.level` never writes `level`,
    /// nor does a step behind a read of it (a run that first writes such a key would have read them all unset on
    /// its way, so its moves are among those kept). Nil when the child's `start` names no step.
    static func asStarted(_ child: Flow, passed: Set<String>, entries: [String],
                          parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>) -> AsStarted? {
        var roots = [child.start]
        var bound = passed
        for name in Set(entries).sorted() {
            guard let entry = child.entries.first(where: { $0.name.text == name }) else { continue }
            roots.append(entry.step)
            bound.formUnion(EntryPath.parameters(entry.path))
        }
        let written = NeverTaken(flow: child, parse: parse)
        let alwaysHolding = NeverTaken.alwaysHolding(child, parse: parse)
        var candidates = Set(child.state.filter { !bound.contains($0.name.text) }.map(\.name.text))
        for round in 0...roundLimit {
            // Past the limit, nothing is judged never set.
            if round == roundLimit { candidates = [] }
            let checked = FlowTypeChecker.checkFindingFailures(child, nestedState: { _ in nil }, parse: parse, neverTaken: written, neverSet: candidates)
            let extended = written.addingRunErrors(of: child, alwaysFailing: checked.alwaysFailing, neverStarting: checked.neverStarting,
                                                   failingEvents: checked.failingEvents, alwaysHolding: alwaysHolding, neverHolding: checked.neverHolding)
            guard let reached = reach(child, from: roots, neverTaken: extended) else { return nil }
            var outcomes: Set<String> = []
            for id in reached where child.steps[id].kind == .finish { outcomes.insert(child.steps[id].outcomeName) }
            if candidates.isEmpty { return AsStarted(neverSet: [], outcomes: outcomes) }
            // The assignments runs may make, in order, each `set` up to the first that always fails.
            var environment = TypeEnvironment(state: child.state)
            environment.neverSet = candidates
            var writes: Set<String> = []
            func run(_ set: [Assignment]) {
                for assignment in set {
                    guard case .success(let expression) = parse(assignment.expression),
                          !TypeInference.infer(expression, in: environment).problems.contains(where: \.alwaysFails) else { break }
                    writes.insert(assignment.key.text)
                }
            }
            var owners: [(id: Int?, step: Step)] = reached.sorted().map { ($0, child.steps[$0]) }
            if let any = child.anyStep, !reached.isEmpty { owners.insert((nil, any), at: 0) }
            for (id, step) in owners where step.kind != .finish {
                // (A step's own `set` runs on a `flow` step's completions and on a step with `result`'s, those with a
                // result.)
                if let id, step.kind == .flow || step.result != nil, !extended.setAlwaysFails(id), !extended.neverCompletes(id) { run(step.set) }
                StepGraph.forEachTargetList(of: step) { list, targets in
                    for (index, target) in targets.enumerated() where extended.reason(NeverTaken.Option(step: id, list: list, option: index))?.runsSet ?? true {
                        run(target.set)
                    }
                }
            }
            let kept = candidates.subtracting(writes)
            if kept == candidates { return AsStarted(neverSet: candidates, outcomes: outcomes) }
            candidates = kept
        }
        return nil
    }

    /// The steps (by index) of `child` runs reach from `roots` over its graph without the moves `neverTaken` says no
    /// run makes; nil when a root names no step.
    static func reach(_ child: Flow, from roots: [Name], neverTaken: NeverTaken) -> Set<Int>? {
        var reached: Set<Int> = []
        for root in roots {
            // The flow as if it began at `root` with no entries of its own.
            var rooted = child
            rooted.start = root
            rooted.entries = []
            let graph = FlowGraph(flow: rooted, neverTaken: neverTaken)
            guard graph.startID != nil else { return nil }
            for (id, reachable) in graph.reachable.enumerated() where reachable { reached.insert(id) }
        }
        return reached
    }

    /// For each outcome of a reachable finish step of `child`, the non-optional state keys set on every path to
    /// every such finish step with that outcome, when a run begins at `start` with `given` set.
    /// `entries`: the nested entries (of `child`) a run may start it at instead, with their path parameters set
    /// (and nothing given: a nested entry demands no input), and then, after a restart, at `start` with them.
    static func keys(of child: Flow, given: Set<String>, entries: [String] = [], parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>,
                     bitBudget: Int = MaybeUnsetRule.bitBudget) -> [String: Set<String>] {
        let graph = StepGraph(flow: StepSuggestions(flow: child).repaired(child))
        guard let start = graph.startID else { return [:] }
        var keyIndex: [String: Int] = [:]
        var keyNames: [String] = []
        for field in child.state where !field.type.optional && keyIndex[field.name.text] == nil {
            keyIndex[field.name.text] = keyNames.count
            keyNames.append(field.name.text)
        }
        func tracked(_ names: some Sequence<String>) -> [Int] {
            Array(Set(names.compactMap { keyIndex[$0] })).sorted()
        }
        var gen = [[Int]](repeating: [], count: graph.graph.nodeCount)
        for (id, step) in child.steps.enumerated() {
            if let node = graph.setNode(of: id) { gen[node] = tracked(step.set.map(\.key.text)) }
        }
        // The guards of a target list, worked out once for all its options.
        var listGuards: (owner: String, guards: [(failed: Set<String>, holds: Set<String>)])?
        for option in graph.options {
            let owner: String
            switch option.owner {
            case .step(let id): owner = "step \(id) \(option.listIndex)"
            case .slot(let slot): owner = "slot \(slot)"
            }
            if listGuards?.owner != owner { listGuards = (owner, Guards.options(option.list, parse: parse)) }
            let holds = listGuards!.guards[option.index].holds
            gen[option.node] = tracked(holds.union(option.list[option.index].set.map(\.key.text)))
        }
        let finishes = child.steps.indices.filter { child.steps[$0].kind == .finish }
        func outcome(_ id: Int) -> String { child.steps[id].outcome?.text ?? child.steps[id].name.text }
        var result: [String: Set<String>] = [:]
        var roots = [DataFlow.Root(node: start, keys: tracked(given))]
        for name in Set(entries).sorted() {
            guard let entry = child.entries.first(where: { $0.name.text == name }), let id = graph.ids[entry.step.text] else { continue }
            let keys = tracked(EntryPath.parameters(entry.path))
            roots.append(DataFlow.Root(node: id, keys: keys))
            roots.append(DataFlow.Root(node: start, keys: keys))
        }
        DataFlow.mustSetInChunks(in: graph.graph, keyCount: keyNames.count, gen: gen, roots: roots, bitBudget: bitBudget) { chunk, must in
            // Within a chunk, an outcome keeps the keys set before every finish step with it; chunks hold disjoint
            // keys, so the outcome's keys are the union of what each chunk keeps.
            var chunkResult: [String: Set<String>] = [:]
            for id in finishes where must.isReachable(id) {
                let set = Set(chunk.filter { must.isSet($0 - chunk.lowerBound, before: id) }.map { keyNames[$0] })
                let name = outcome(id)
                chunkResult[name] = chunkResult[name].map { $0.intersection(set) } ?? set
            }
            for (name, set) in chunkResult { result[name, default: []].formUnion(set) }
        }
        return result
    }
}

extension Guards {
    /// For each option of a target list: the state keys its `if` may assume set (earlier options' `!exists`
    /// failed) and the keys set when it is taken (its own `if` held as well), with the values of bool keys those
    /// `if`s show (`valueFacts`). With `paths`, the full paths (`result.token`, `state.note`) that `exists` and
    /// `!= null` guards prove instead.
    static func options(_ list: [Target], parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>, paths: Bool = false)
        -> [(failed: Set<String>, holds: Set<String>)] {
        var failed: Set<String> = []
        var result: [(failed: Set<String>, holds: Set<String>)] = []
        for target in list {
            var holds = failed
            let before = failed
            if let condition = target.condition, case .success(let expression) = parse(condition) {
                holds.formUnion(paths ? PathGuards.whenTrue(expression.root) : whenTrue(expression.root))
                failed.formUnion(paths ? PathGuards.whenFalse(expression.root) : whenFalse(expression.root))
                // The bool keys' values an `if` that held, or failed, shows (the options see one state).
                if !paths {
                    holds.formUnion(valueFacts(expression.root, true))
                    failed.formUnion(valueFacts(expression.root, false))
                }
            }
            result.append((before, holds))
        }
        return result
    }

    /// The `result.…` paths read by `node` outside `exists(…)` that no enclosing guard (or one of `guarded`) proves
    /// set and not null.
    static func resultReads(_ node: ExpressionNode, guarded: Set<String>) -> [ExpressionPath] {
        var found: [ExpressionPath] = []
        func covered(_ path: ExpressionPath, _ guarded: Set<String>) -> Bool {
            let text = path.description
            return guarded.contains { $0 == text || ($0.hasPrefix(text) && $0.dropFirst(text.count).first == ".") }
        }
        func walk(_ node: ExpressionNode, _ guarded: Set<String>) {
            switch node {
            case .path(let path):
                if path.root == .result, !path.keys.isEmpty, !covered(ExpressionPath(root: .result, keys: [path.keys[0]], span: path.span), guarded) {
                    found.append(path)
                }
            case .exists, .literal:
                break
            case .binary(.and, let lhs, let rhs, _):
                walk(lhs, guarded)
                walk(rhs, guarded.union(PathGuards.whenTrue(lhs)))
            case .binary(.or, let lhs, let rhs, _):
                walk(lhs, guarded)
                walk(rhs, guarded.union(PathGuards.whenFalse(lhs)))
            case .conditional(let condition, let then, let otherwise, _):
                walk(condition, guarded)
                walk(then, guarded.union(PathGuards.whenTrue(condition)))
                walk(otherwise, guarded.union(PathGuards.whenFalse(condition)))
            default:
                for child in node.children { walk(child, guarded) }
            }
        }
        walk(node, guarded)
        return found
    }
}
