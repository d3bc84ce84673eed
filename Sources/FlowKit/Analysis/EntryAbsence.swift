/// The `state.K` paths known unset or null where a step begins (docs/format.md, "Known across steps"): those every
/// move that pops nothing into the step leaves so. They hold at every showing of a step no run pops back to; which
/// steps those are is the caller's to work out (`poppable`), and the steps that are not are passed back as `popped`
/// (nothing is known where they begin, nor along their moves).
struct EntryAbsence: Sendable, Equatable {
    /// The most path operations (set sizes summed over the moves worked out) before the fixed point gives up.
    static let workLimit = 1 << 20
    /// The most rounds of working out the model again without the steps a run may pop back to.
    static let rounds = 4

    /// Per step (by index in `Flow.steps`), the paths, for the steps where there are some.
    private(set) var paths: [Int: Set<String>] = [:]

    /// Nothing known anywhere.
    static let none = EntryAbsence()

    private init() {}

    var isEmpty: Bool { paths.isEmpty }

    /// The paths known unset or null where step `id` begins.
    func at(_ id: Int) -> Set<String> { paths[id] ?? [] }

    /// The paths of `flow`'s steps, over the moves `neverTaken` does not rule out; the steps in `popped` are known
    /// nothing of.
    init(flow: Flow, neverTaken: NeverTaken, popped: Set<Int> = [], parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>) {
        let steps = flow.steps
        var ids: [String: Int] = [:]
        for (id, step) in steps.enumerated() where ids[step.name.text] == nil { ids[step.name.text] = id }
        guard let start = ids[flow.start.text] else { return }
        let derived = Set(flow.events.lazy.filter { $0.expression != nil }.map(\.name.text))
        // The paths each list's options know: per option, what the earlier `if`s failing and its own holding show
        // (known unset or null, and proved not null), worked out once per list.
        var guardsMemo: [[Target]: [(absent: Set<String>, proved: Set<String>)]] = [:]
        func guards(_ targets: [Target]) -> [(absent: Set<String>, proved: Set<String>)] {
            if let known = guardsMemo[targets] { return known }
            var failedAbsent: Set<String> = []
            var failedProved: Set<String> = []
            var result: [(absent: Set<String>, proved: Set<String>)] = []
            for target in targets {
                guard let source = target.condition, case .success(let expression) = parse(source) else {
                    result.append((failedAbsent, failedProved))
                    continue
                }
                result.append((failedAbsent.union(PathGuards.absentWhenTrue(expression.root)), failedProved.union(PathGuards.whenTrue(expression.root))))
                failedAbsent.formUnion(PathGuards.absentWhenFalse(expression.root))
                failedProved.formUnion(PathGuards.whenFalse(expression.root))
            }
            guardsMemo[targets] = result
            return result
        }
        var known: [Set<String>?] = Array(repeating: nil, count: steps.count)
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
        meet(start, [])
        for entry in flow.entries { if let id = ids[entry.step.text] { meet(id, []) } }
        for id in popped where id < steps.count { meet(id, []) }
        var work = 0
        var head = 0
        while head < queue.count {
            let id = queue[head]
            head += 1
            queued[id] = false
            let step = steps[id]
            guard step.kind != .finish, let here = known[id] else { continue }
            // (A step known nothing of leaves nothing known along a move but what the move shows itself.)
            let setRuns = step.kind == .flow || step.result != nil
            let written = setRuns ? Set(step.set.map { "state." + $0.key.text }) : []
            let nulled = setRuns ? Self.nulled(step.set, parse: parse) : []
            func leave(_ targets: [Target], owner: Int?, list: Int, event: String?) {
                let sure = step.kind == .flow || (step.result != nil && (event == nil || derived.contains(event!)))
                var afterSet = Self.removing(written.subtracting(sure ? [] : nulled), from: here)
                if sure { afterSet.formUnion(nulled) }
                let known = guards(targets)
                for (index, target) in targets.enumerated() {
                    guard case .forward(let name) = target.move, let to = ids[name.text],
                          neverTaken.reason(NeverTaken.Option(step: owner, list: list, option: index)) == nil else { continue }
                    var paths = afterSet.union(known[index].absent).subtracting(known[index].proved)
                    paths = Self.removing(Set(target.set.map { "state." + $0.key.text }), from: paths).union(Self.nulled(target.set, parse: parse))
                    work += paths.count + 1
                    meet(to, paths)
                }
            }
            StepGraph.forEachTargetList(of: step) { list, targets in
                leave(targets, owner: id, list: list, event: list < step.on.count ? step.on[list].event.text : nil)
            }
            if let any = flow.anyStep {
                StepGraph.forEachTargetList(of: any) { list, targets in
                    let event = list < any.on.count ? any.on[list].event.text : nil
                    let overridden = event.map { step.handler(for: $0) != nil } ?? (step.next != nil)
                    if !overridden { leave(targets, owner: nil, list: list, event: event) }
                }
            }
            work += here.count + 1
            if work > Self.workLimit { return }
        }
        for (id, found) in known.enumerated() {
            if let found, !found.isEmpty { paths[id] = found }
        }
    }

    /// `paths` without those of `keys` (`state.K` paths) and those under them.
    static func removing(_ keys: Set<String>, from paths: Set<String>) -> Set<String> {
        guard !keys.isEmpty, !paths.isEmpty else { return paths }
        return paths.filter { path in !keys.contains(path) && !keys.contains { path.hasPrefix($0 + ".") } }
    }

    /// The `state.K` paths of the keys `set` stores a literal `null` in (its last write of them).
    static func nulled(_ set: [Assignment], parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>) -> Set<String> {
        var nulled: Set<String> = []
        for assignment in set {
            if case .success(let expression) = parse(assignment.expression), case .literal(.null, _) = expression.root {
                nulled.insert("state." + assignment.key.text)
            } else {
                nulled.remove("state." + assignment.key.text)
            }
        }
        return nulled
    }

    /// Whether a run may pop back to step `id` of `flow`: some move leaves it forward to a step that is not a finish
    /// step, in the model of `neverTaken` (with `failingEvents` and `alwaysHolding`, the derived events that always
    /// fail or always hold where the step evaluates them).
    static func poppable(_ id: Int, of flow: Flow, neverTaken: NeverTaken, failingEvents: FailingEvents, alwaysHolding: Set<String>,
                         order: DerivedEventOrder, ids: [String: Int]) -> Bool {
        let step = flow.steps[id]
        guard step.kind != .finish, !neverTaken.neverCompletes(id) else { return false }
        func forward(_ target: Target) -> Bool {
            guard case .forward(let name) = target.move, let to = ids[name.text] else { return false }
            return flow.steps[to].kind != .finish
        }
        var own = false
        StepGraph.forEachTargetList(of: step) { list, targets in
            for (index, target) in targets.enumerated() where forward(target) {
                if neverTaken.reason(NeverTaken.Option(step: id, list: list, option: index)) == nil { own = true }
            }
        }
        if own { return true }
        guard let any = flow.anyStep else { return false }
        // `"*"`'s result moves at this step: none where the `set` always fails, nor past a derived event that always
        // fails or always holds here.
        let derived = Set(order.events.map(\.name.text))
        var stopped: Set<String>?
        if step.kind != .flow {
            let evaluated = order.evaluated(at: step).map(\.name.text)
            // (An event that always holds is raised: the handlers of those after it, and `next`, are not tried.)
            if let first = evaluated.firstIndex(where: { failingEvents.fails($0, at: id) || alwaysHolding.contains($0) }) {
                stopped = Set(evaluated[(failingEvents.fails(evaluated[first], at: id) ? first : first + 1)...])
            }
        }
        var shared = false
        StepGraph.forEachTargetList(of: any) { list, targets in
            let event = list < any.on.count ? any.on[list].event.text : nil
            if let event, step.handler(for: event) != nil { return }
            if event == nil && step.next != nil { return }
            let resultMove = step.kind == .flow || event == nil || derived.contains(event!)
            if resultMove && neverTaken.setAlwaysFails(id) { return }
            if step.kind == .flow, let event, !neverTaken.canFinish(id, with: event) { return }
            if step.kind != .flow, let stopped, event.map({ stopped.contains($0) }) ?? true { return }
            for (index, target) in targets.enumerated() where forward(target) {
                if neverTaken.reason(NeverTaken.Option(step: nil, list: list, option: index)) == nil { shared = true }
            }
        }
        return shared
    }
}
