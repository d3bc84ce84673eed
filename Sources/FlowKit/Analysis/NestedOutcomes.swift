/// What a nested flow's final state holds for each way it can finish: the data flow of `maybe_unset` run on the
/// nested flow, from its `start` with the keys its parent passes, met at its reachable finish steps by outcome.
enum NestedOutcomes {
    /// The non-optional keys of `child` that no run of it sets when a `flow` step passing `passed` starts it
    /// (docs/format.md, "Behind a certain run error"): not passed, bound by no path parameter of its entries, and
    /// written by no assignment that can write (one that does not always fail, with these keys' reads failing, and
    /// that no assignment before it in its `set` keeps from running). Worked out as a greatest fixed point: a key
    /// is kept while every assignment of it fails, so `level: state.level` never writes `level`.
    static func neverSet(in child: Flow, passed: Set<String>, parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>) -> Set<String> {
        var bound = passed
        for entry in child.entries { bound.formUnion(EntryPath.parameters(entry.path)) }
        var candidates = Set(child.state.filter { !$0.type.optional && !bound.contains($0.name.text) }.map(\.name.text))
        guard !candidates.isEmpty else { return [] }
        var sets: [[Assignment]] = []
        for step in child.anyStepThenSteps {
            if !step.set.isEmpty { sets.append(step.set) }
            StepGraph.forEachTargetList(of: step) { _, list in
                for target in list where !target.set.isEmpty { sets.append(target.set) }
            }
        }
        var environment = TypeEnvironment(state: child.state)
        // Each round drops the keys some assignment can write; at most one round per key.
        while true {
            environment.neverSet = candidates
            var written: Set<String> = []
            for set in sets {
                for assignment in set {
                    guard case .success(let expression) = parse(assignment.expression) else { break }
                    if TypeInference.infer(expression, in: environment).problems.contains(where: \.alwaysFails) { break }
                    if candidates.contains(assignment.key.text) { written.insert(assignment.key.text) }
                }
            }
            guard !written.isEmpty else { return candidates }
            candidates.subtract(written)
            if candidates.isEmpty { return [] }
        }
    }

    /// The outcomes `child` can finish with when a `flow` step passing `passed` starts it (docs/format.md, "Behind a
    /// certain run error"): those of the finish steps its graph reaches from its `start` and entries, without the
    /// moves no run makes, its expressions judged with the keys it never sets (`neverSet`) failing to read, its own
    /// nested flows' outcomes not judged. Nil when its `start` names no step.
    static func finishing(_ child: Flow, passed: Set<String>, parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>) -> Set<String>? {
        let written = NeverTaken(flow: child, parse: parse)
        let never = neverSet(in: child, passed: passed, parse: parse)
        let checked = FlowTypeChecker.checkFindingFailures(child, nestedState: { _ in nil }, parse: parse, neverTaken: written, neverSet: never)
        let extended = written.addingRunErrors(of: child, alwaysFailing: checked.alwaysFailing, neverStarting: checked.neverStarting,
                                               failingEvents: checked.failingEvents, alwaysHolding: NeverTaken.alwaysHolding(child, parse: parse))
        let graph = FlowGraph(flow: child, neverTaken: extended)
        guard graph.startID != nil else { return nil }
        var outcomes: Set<String> = []
        for (id, step) in child.steps.enumerated() where graph.isFinish[id] && graph.reachable[id] {
            outcomes.insert(step.outcome?.text ?? step.name.text)
        }
        return outcomes
    }

    /// For each outcome of a reachable finish step of `child`, the non-optional state keys set on every path to
    /// every such finish step with that outcome, when a run begins at `start` with `given` set.
    static func keys(of child: Flow, given: Set<String>, parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>,
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
        let roots = [DataFlow.Root(node: start, keys: tracked(given))]
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
