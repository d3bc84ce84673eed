/// A finding of the flow-wide type check, before it becomes a rule's diagnostic.
struct TypeFinding: Hashable, Sendable {
    /// Which rule reports it.
    package let kind: TypeProblem.Kind
    /// Where in the file.
    package let position: SourcePosition
    /// The step it is about, when there is one.
    package let step: String?
    /// What is wrong.
    package let message: String
    /// What it is about, for baselines, when it has a name.
    package var subject: String? = nil
    /// Its safe fix, when it has one.
    package var fix: Fix? = nil
}

/// Type-checks every expression and state write of a flow: derived events, `set` and `input` of steps, and the
/// `if` and `set` of targets. Each expression is inferred once for its slot; a derived event is inferred once with
/// an unknown result and once more for each step that handles it in its own `on` and declares a `result`. Expressions
/// that do not parse are skipped (the `expression` rule reports them).
enum FlowTypeChecker {
    /// The most checks of derived events and `"*"` targets, each against a distinct result shape (about a second).
    package static let sharedCheckLimit = 1 << 18

    /// The findings for `flow`; `nestedState` gives the declared state of the nested flow a `flow` step runs, nil when
    /// it cannot be loaded (its `input` and `result` are then not checked against it).
    /// `parse` turns expression sources into expressions (a lint run passes one that remembers them).
    /// `sharedCheckLimit` bounds the checks of derived events and `"*"` targets at each result shape (see docs/format.md).
    /// `reachable` says which steps (by index) a run can reach: the others are not checked, nor derived events and
    /// `"*"` lists at them, since no run evaluates their expressions (docs/format.md, "Only where runs go"); nil
    /// checks every step.
    package static func check(_ flow: Flow, nestedState: (Step) -> [Field]?, nestedInputs: (Step) -> [String] = { _ in [] },
                             parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError> = ExpressionParser.parse,
                             sharedCheckLimit: Int = FlowTypeChecker.sharedCheckLimit, reachable: [Bool]? = nil,
                             neverTaken: NeverTaken = .none) -> [TypeFinding] {
        checkFindingFailures(flow, nestedState: nestedState, nestedInputs: nestedInputs, parse: parse, sharedCheckLimit: sharedCheckLimit,
                             reachable: reachable, neverTaken: neverTaken).findings
    }

    /// `check`, with the expressions that always fail where a run evaluates them (docs/format.md, "Behind a certain
    /// run error"); `neverSet`: the non-optional keys no run sets (a nested flow's, as a `flow` step starts it), whose
    /// reads on every evaluation always fail; `nestedNeverSet`: per `flow` step (by index), those of its nested flow,
    /// whose `result.…` reads on every evaluation always fail; `entryAbsent`: the paths known unset or null where
    /// steps begin (docs/format.md, "Known across steps").
    static func checkFindingFailures(_ flow: Flow, nestedState: (Step) -> [Field]?, nestedInputs: (Step) -> [String] = { _ in [] },
                                     parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError> = ExpressionParser.parse,
                                     sharedCheckLimit: Int = FlowTypeChecker.sharedCheckLimit, reachable: [Bool]? = nil,
                                     neverTaken: NeverTaken = .none, neverSet: Set<String> = [], nestedNeverSet: [Int: Set<String>] = [:],
                                     entryAbsent: EntryAbsence = .none)
        -> (findings: [TypeFinding], alwaysFailing: Set<ExpressionSource>, neverStarting: Set<String>, failingEvents: FailingEvents,
            failurePoints: [ExpressionSource: Int], neverHolding: Set<ExpressionSource>) {
        withoutActuallyEscaping(parse) { parse in
            var walker = Walker(flow: flow, parser: parse, reachable: reachable, neverSet: neverSet)
            walker.nestedNeverSet = nestedNeverSet
            walker.entryAbsent = entryAbsent
            walker.neverTaken = neverTaken
            walker.sharedCheckLimit = sharedCheckLimit
            walker.run(nestedState: nestedState, nestedInputs: nestedInputs)
            return (walker.findings, walker.alwaysFailing, walker.neverStarting,
                    FailingEvents(everywhere: walker.eventsFailingEverywhere, at: walker.eventsFailingAt, neverHoldingAt: walker.eventsNeverHoldingAt,
                                  stops: walker.eventStops),
                    walker.alwaysFailingPoints, walker.neverHolding)
        }
    }
}

/// The derived events whose expression always fails (docs/format.md, "Behind a certain run error"): everywhere, and
/// at each step (by index in `Flow.steps`) with the result it has.
struct FailingEvents: Sendable, Equatable {
    var everywhere: Set<String> = []
    var at: [Int: Set<String>] = [:]
    /// Per step (by index), the derived events whose condition holds only where its evaluation fails: never raised
    /// there (the events after them, and `next`, may be).
    var neverHoldingAt: [Int: Set<String>] = [:]
    /// Per step (by index), the first derived event (by its index in `Flow.events`) that always fails there, and the
    /// offset in its expression from which no evaluation there goes on: the events after it are not evaluated there,
    /// nor the part of it past that offset.
    var stops: [Int: Stop] = [:]

    /// Where a step's evaluation of derived events always stops.
    struct Stop: Sendable, Equatable {
        let event: Int
        let offset: Int
    }

    var isEmpty: Bool { everywhere.isEmpty && at.isEmpty && neverHoldingAt.isEmpty }

    /// Whether step `id` never evaluates the part at `offset` of the expression of event `event` (by index in
    /// `Flow.events`): an event before it always fails there, or it does before that part.
    func isBehind(event: Int, at id: Int, offset: Int) -> Bool {
        guard let stop = stops[id] else { return false }
        return event > stop.event || (event == stop.event && offset >= stop.offset)
    }

    /// Whether `event` always fails when step `id` evaluates it.
    func fails(_ event: String, at id: Int) -> Bool { everywhere.contains(event) || at[id]?.contains(event) == true }
}

/// What `result` holds at a step, as far as grouping steps for a shared check goes: no result, an unknown one, or
/// a shape (the owner aside, which only names the step in messages).
private enum ResultShape: Hashable {
    case absent
    case unknown
    /// A shape; `always` when every completion has a result (a `flow` step).
    case fields([String: StaticType], always: Bool)

    init(_ step: Step, _ result: ResultContext) {
        switch result {
        case .fields(let fields, _), .fieldsUnlessAbsent(let fields, _, _):
            self = step.kind != .flow && step.result == nil ? .absent : .fields(fields, always: step.kind == .flow)
        case .absent:
            self = .absent
        case .unknown:
            self = step.kind != .flow && step.result == nil ? .absent : .unknown
        }
    }
}

private struct Walker {
    package let flow: Flow
    let base: TypeEnvironment
    var findings: [TypeFinding] = []
    /// While `merging`: the findings of the groups checked so far, each with its group's size.
    var buffer: [(TypeFinding, Int)]?
    var groupSize = 1
    private var seen: Set<TypeFinding> = []

    let parser: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>

    /// Which steps a run can reach (all when nil): only they are checked.
    let reachable: [Bool]?
    /// Per `flow` step (by index), the keys of its nested flow no run of it sets (its result never has them).
    var nestedNeverSet: [Int: Set<String>] = [:]
    /// The options no run takes: the parts of them no run evaluates are not checked (docs/format.md, "Options never
    /// taken").
    var neverTaken: NeverTaken = .none
    /// The paths known unset or null where steps begin (docs/format.md, "Known across steps").
    var entryAbsent: EntryAbsence = .none

    init(flow: Flow, parser: @escaping (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>, reachable: [Bool]?,
         neverSet: Set<String> = []) {
        self.flow = flow
        self.reachable = reachable
        var base = TypeEnvironment(state: flow.state)
        base.neverSet = neverSet
        self.base = base
        self.parser = parser
    }

    mutating func add(_ kind: TypeProblem.Kind, at position: SourcePosition, step: String?, subject: String? = nil, fix: Fix? = nil, _ message: Message) {
        let message = message.text
        if buffer != nil {
            buffer!.append((TypeFinding(kind: kind, position: position, step: step, message: message, subject: subject, fix: fix), groupSize))
            return
        }
        let finding = TypeFinding(kind: kind, position: position, step: nil, message: message)
        guard seen.insert(finding).inserted else { return }
        findings.append(TypeFinding(kind: kind, position: position, step: step, message: message, subject: subject, fix: fix))
    }

    /// Checks the same expressions for several groups of steps (`body` is called with each group) and reports each
    /// problem once: one finding per position and kind, the first group's, saying how many more steps share it.
    mutating func merging(_ groups: [[Int]], _ body: (inout Walker, [Int]) -> Void) {
        buffer = []
        for group in groups {
            groupSize = group.count
            body(&self, group)
        }
        let collected = buffer!
        buffer = nil
        groupSize = 1
        var merged: [String: (finding: TypeFinding, steps: Int, messages: Set<String>)] = [:]
        for (finding, size) in collected {
            let key = "\(finding.position.line):\(finding.position.column):\(finding.kind.rawValue)"
            if var existing = merged[key] {
                if existing.messages.insert(finding.message).inserted { existing.steps += size }
                merged[key] = existing
            } else {
                merged[key] = (finding, size, [finding.message])
            }
        }
        for entry in merged.values.sorted(by: { ($0.finding.position, $0.finding.kind.rawValue) < ($1.finding.position, $1.finding.kind.rawValue) }) {
            let more = entry.steps - 1
            let suffix = more > 0 ? " (and at \(more) more step\(more == 1 ? "" : "s"))" : ""
            add(entry.finding.kind, at: entry.finding.position, step: entry.finding.step, subject: entry.finding.subject,
                fix: entry.finding.fix, Message(verbatim: entry.finding.message + suffix))
        }
    }

    /// The expressions that always fail (docs/format.md, "Behind a certain run error"): every check of each failed
    /// (an expression written once and used in several places, a YAML alias, fails only when it fails in each).
    var checkedSources: [ExpressionSource: Bool] = [:]
    var alwaysFailing: Set<ExpressionSource> { Set(checkedSources.lazy.filter(\.value).map(\.key)) }

    /// Records a check of `source` at one place: whether it always fails there.
    mutating func record(_ source: ExpressionSource, fails: Bool, by point: Int = Int.max) {
        checkedSources[source] = (checkedSources[source] ?? true) && fails
        if fails { failurePoints[source] = max(failurePoints[source] ?? 0, point) }
    }
    /// Per expression that failed at some check: the offset from which no check that failed evaluated it (see
    /// `TypeProblem.failsBy`), the latest over the checks.
    var failurePoints: [ExpressionSource: Int] = [:]
    /// The always failing expressions' failure points.
    var alwaysFailingPoints: [ExpressionSource: Int] {
        failurePoints.filter { checkedSources[$0.key] == true }
    }
    /// The derived events whose expression always fails wherever it is evaluated, and, per step (by index), those
    /// that always fail with the result that step has.
    var eventsFailingEverywhere: Set<String> = []
    var eventsFailingAt: [Int: Set<String>] = [:]
    /// Per step (by index), the derived events whose condition holds only where its evaluation fails
    /// (`TypeInference.holdsOnlyByFailing`): never raised there.
    var eventsNeverHoldingAt: [Int: Set<String>] = [:]
    /// Per step (by index), where its evaluation of derived events always stops (`FailingEvents.stops`).
    var eventStops: [Int: FailingEvents.Stop] = [:]
    /// The `if`s that hold only where their evaluation fails, at every place a run tries them.
    var holdingChecks: [ExpressionSource: Bool] = [:]
    var neverHolding: Set<ExpressionSource> { Set(holdingChecks.lazy.filter(\.value).map(\.key)) }
    /// The `flow` steps whose `input` always fails (a required input not passed, a key the nested flow does not
    /// declare, an expression that always fails): their nested flow never starts.
    var neverStarting: Set<String> = []

    /// The problems come in the order a run meets them: after one that always fails, no run gets to the others
    /// (docs/format.md, "Behind a certain run error"), and they are not reported.
    /// Returns whether one of them always fails.
    @discardableResult
    mutating func add(_ problems: [TypeProblem], in source: ExpressionSource, step: String?, recording: Bool = true) -> Bool {
        var failedHere = false
        var point = Int.max
        defer { if recording { record(source, fails: failedHere, by: point) } }
        for problem in problems {
            if failedHere { break }
            if problem.alwaysFails {
                failedHere = true
                point = problem.failsBy
            }
            guard problem.reported else { continue }
            // A replacement inside the expression, where the file's text of it is exactly the expression's.
            let fix = problem.replacement.flatMap { replacement in
                source.isExact(ofOffset: replacement.offset) ? Fix(at: source.position(ofOffset: replacement.offset), replacing: replacement.old, with: replacement.new) : nil
            }
            add(problem.kind, at: source.position(ofOffset: problem.offset), step: step, subject: problem.subject, fix: fix,
                Message(verbatim: problem.message + source.unmappedNote(ofOffset: problem.offset)))
        }
        return failedHere
    }

    func parse(_ source: ExpressionSource) -> FlowExpression? {
        if case .success(let expression) = parser(source) { return expression }
        return nil
    }

    /// The most (`"*"` handler or derived event) × (distinct result shape) checks (about a second); past it, the
    /// rest are checked once with an unknown result, and one `type_mismatch` finding at `start` says so, so that a
    /// hostile flow's check stays near-linear and a clean lint still means what it says.
    var sharedCheckLimit = FlowTypeChecker.sharedCheckLimit
    /// Whether some derived event or `"*"` handler went past `sharedCheckLimit`.
    var pastSharedLimit = false
    var sharedShapes = 0

    /// Per derived event, the paths its condition proves set and not null: a handler of it runs only when it was
    /// raised, so its targets may read them (docs/format.md, `maybe_null`).
    var eventGuards: [String: Set<String>] = [:]

    mutating func run(nestedState: (Step) -> [Field]?, nestedInputs: (Step) -> [String]) {
        let derived = Set(flow.events.lazy.filter { $0.expression != nil }.map(\.name.text))
        for event in flow.events where eventGuards[event.name.text] == nil {
            guard let source = event.expression, let expression = parse(source) else { continue }
            let proved = PathGuards.whenTrue(expression.root)
            if !proved.isEmpty { eventGuards[event.name.text] = proved }
        }
        var results: [ResultContext] = []
        results.reserveCapacity(flow.steps.count)
        for (id, step) in flow.steps.enumerated() {
            var nested: [Field]?
            var result = ResultContext.declared(by: step)
            if step.kind == .flow {
                nested = nestedState(step)
                result = nested.map { .nestedFlow(state: $0, step: step.name.text, file: step.flowPath ?? "") } ?? .unknown
            }
            results.append(result)
            guard isReachable(id) else { continue }
            checkStep(step, id: id, result: result, nested: nested, derived: derived, requiredInputs: nestedInputs)
        }
        checkEvents(results: results)
        if let anyStep = flow.anyStep { checkShared(anyStep, results: results, derived: derived) }
        if pastSharedLimit {
            add(.typeMismatch, at: flow.start.position, step: nil,
                "the flow is too large for this check: its derived events and '*' handlers times its \(sharedShapes) result shapes "
                + "are more than \(sharedCheckLimit) checks, so those past the limit were not checked against each step's result; split the flow")
        }
    }

    /// Whether a run can reach step `id`.
    func isReachable(_ id: Int) -> Bool { reachable?[id] ?? true }

    /// What `result` holds for the targets of a step's moves by `event` (nil: `next`, or a derived event), given
    /// what it holds when the step completes with a result (see docs/format.md, "Running a flow").
    func context(of step: Step, result: ResultContext, event: String?, derived: Set<String>) -> ResultContext {
        let name = step.name.text
        if step.kind == .flow { return result }
        guard step.result != nil else {
            return .absent(reason: .noResult(step: name))
        }
        guard let event, !derived.contains(event), case .fields(let fields, let owner) = result else { return result }
        return .fieldsUnlessAbsent(fields, owner: owner, when: ResultCompletion(step: name, event: event))
    }

    /// Derived events: once with an unknown result, then at every step that evaluates it (it or `"*"` handles the
    /// event; never `flow` or `finish` steps) against that step's result, or its absence. Steps with the same result
    /// shape are checked together, and each problem is reported once, naming the first step and how many more.
    mutating func checkEvents(results: [ResultContext]) {
        let starEvents = Set((flow.anyStep?.on ?? []).map(\.event.text))
        var handlers: [String: [Int]] = [:]
        for (id, step) in flow.steps.enumerated() where step.kind != .flow && step.kind != .finish && isReachable(id) && !neverTaken.setAlwaysFails(id) {
            // The first handler of an event counts. A step's few handlers are told apart by comparing names; a set
            // (which allocates for each step) only for a step with many.
            var handled: Set<String> = []
            for (index, handler) in step.on.enumerated() where !starEvents.contains(handler.event.text) {
                let event = handler.event.text
                let first = step.on.count <= 8 ? !step.on[..<index].contains { $0.event.text == event } : handled.insert(event).inserted
                if first { handlers[event, default: []].append(id) }
            }
        }
        // Every step's result shape is grouped only when a derived event that "*" handles is checked at all of them.
        var everyStep: [Int] = []
        let groupsOfAll: [[Int]]
        if flow.events.contains(where: { $0.expression != nil && starEvents.contains($0.name.text) }) {
            everyStep = flow.steps.indices.filter { flow.steps[$0].kind != .flow && flow.steps[$0].kind != .finish && isReachable($0)
                && !neverTaken.setAlwaysFails($0) }
            groupsOfAll = groups(everyStep, results: results, absent: eventAbsent)
        } else {
            groupsOfAll = []
        }
        let budget = sharedCheckLimit / max(groupsOfAll.count, 1)
        for (index, event) in flow.events.enumerated() {
            guard let source = event.expression, let expression = parse(source) else { continue }
            // The steps that evaluate it: not those where an event before it always fails (docs/format.md, "Behind a
            // certain run error").
            let star = starEvents.contains(event.name.text)
            var live = star ? everyStep : handlers[event.name.text] ?? []
            if !eventStops.isEmpty { live.removeAll { eventStops[$0] != nil } }
            // An event no reachable step evaluates is not checked at all: no run evaluates it.
            guard reachable == nil || !live.isEmpty else { continue }
            let what = "the expression of event '\(event.name.text)'"
            let general = TypeInference.checkCondition(expression, in: base, what: what)
            if add(general, in: source, step: nil) {
                eventsFailingEverywhere.insert(event.name.text)
                let offset = general.first(where: \.alwaysFails)?.failsBy ?? Int.max
                for id in live { eventStops[id] = FailingEvents.Stop(event: index, offset: offset) }
            }
            let stepGroups: [[Int]]
            if !star {
                stepGroups = groups(live, results: results, absent: eventAbsent)
            } else if index < budget {
                stepGroups = live.count == everyStep.count ? groupsOfAll : groups(live, results: results, absent: eventAbsent)
            } else {
                stepGroups = []
                pastSharedLimit = true
                sharedShapes = max(sharedShapes, groupsOfAll.count)
            }
            merging(stepGroups) { walker, group in
                let first = walker.flow.steps[group[0]].name.text
                let result = walker.context(of: walker.flow.steps[group[0]], result: results[group[0]], event: nil, derived: [])
                var environment = walker.base.with(result: result)
                environment.knownAbsent = walker.eventAbsent(group[0])
                let problems = TypeInference.checkCondition(expression, in: environment, what: what)
                // (Failing with the result the group's steps have, and what is known unset or null there: the event
                // fails wherever they evaluate it.)
                if let failure = problems.first(where: \.alwaysFails) {
                    for id in group {
                        walker.eventsFailingAt[id, default: []].insert(event.name.text)
                        if walker.eventStops[id] == nil { walker.eventStops[id] = FailingEvents.Stop(event: index, offset: failure.failsBy) }
                    }
                } else if TypeInference.holdsOnlyByFailing(expression, in: environment) {
                    for id in group { walker.eventsNeverHoldingAt[id, default: []].insert(event.name.text) }
                }
                walker.add(problems.filter { !general.contains($0) }.map { problem in
                    guard problem.kind == .typeMismatch else { return problem }
                    let message = problem.message.contains("step '\(first)'") ? problem.message : "when step '\(first)' completes, \(problem.message)"
                    var renamed = TypeProblem(kind: problem.kind, offset: problem.offset, message: Message(verbatim: message), subject: problem.subject)
                    renamed.alwaysFails = problem.alwaysFails
                    return renamed
                }, in: source, step: first)
            }
        }
    }

    /// The paths known unset or null where step `id` evaluates derived events (docs/format.md, "Known across
    /// steps"): after its `set`, which a step with `result` runs first on those moves.
    func eventAbsent(_ id: Int) -> Set<String> {
        let step = flow.steps[id]
        let entry = entryAbsent.at(id)
        guard step.result != nil, !step.set.isEmpty else { return entry }
        let written = Set(step.set.map { "state." + $0.key.text })
        return EntryAbsence.removing(written, from: entry).union(EntryAbsence.nulled(step.set, parse: parser))
    }

    /// Steps grouped by what `result` holds there (its shape, or its absence), and by `absent` (what is known unset
    /// or null there) when given, in file order of each group's first step.
    func groups(_ ids: [Int], results: [ResultContext], absent: ((Int) -> Set<String>)? = nil) -> [[Int]] {
        struct Key: Hashable {
            let shape: ResultShape
            let absent: Set<String>
        }
        var index: [Key: Int] = [:]
        var groups: [[Int]] = []
        for id in ids {
            let shape = Key(shape: ResultShape(flow.steps[id], results[id]), absent: absent?(id) ?? [])
            if let existing = index[shape] {
                groups[existing].append(id)
            } else {
                index[shape] = groups.count
                groups.append([id])
            }
        }
        return groups
    }

    /// The targets of `"*"`: each handler at every step that uses it (no finish step, not overridden), with the
    /// result that step has on that move; steps with the same result shape are checked together.
    mutating func checkShared(_ anyStep: Step, results: [ResultContext], derived: Set<String>) {
        // Lists with no `if` and no `set` (the usual ones) have nothing to check: when all of "*"'s are such, and
        // there are too few of them to reach the limit of shared checks whatever the steps' shapes, nothing below
        // would find or record anything.
        let listCount = anyStep.on.count + (anyStep.next == nil ? 0 : 1)
        if anyStep.on.allSatisfy({ Self.checksNothing($0.targets) }) && Self.checksNothing(anyStep.next ?? [])
            && listCount <= sharedCheckLimit / max(flow.steps.count, 1) {
            return
        }
        var overriders: [String: Set<Int>] = [:]
        var nextOverriders: Set<Int> = []
        for (id, step) in flow.steps.enumerated() {
            for handler in step.on { overriders[handler.event.text, default: []].insert(id) }
            if step.next != nil { nextOverriders.insert(id) }
        }
        let live = flow.steps.indices.filter { flow.steps[$0].kind != .finish && isReachable($0) }
        let all = groups(live, results: results)
        let budget = sharedCheckLimit / max(all.count, 1)
        let groupOf = Dictionary(uniqueKeysWithValues: all.flatMap { group in group.map { ($0, group) } })
        let lists: [(event: String?, targets: [Target])] = anyStep.on.map { ($0.event.text, $0.targets) } + (anyStep.next.map { [(nil, $0)] } ?? [])
        for (index, (event, targets)) in lists.enumerated() {
            let skipped = event.map { overriders[$0] ?? [] } ?? nextOverriders
            var users: [Int] = []
            if index < budget {
                for group in all {
                    if let first = group.first(where: { !skipped.contains($0) }) { users.append(first) }
                }
            } else {
                pastSharedLimit = true
                sharedShapes = max(sharedShapes, all.count)
            }
            let handler = event.map { "the '*' handler for '\($0)'" } ?? "the '*' 'next'"
            // A list no reachable step uses is not checked (no run evaluates it); past the limit, it is checked
            // once with nothing known of `result`.
            let never: (Int) -> NeverTaken.Reason? = { [neverTaken] in neverTaken.reason(NeverTaken.Option(step: nil, list: index, option: $0)) }
            if users.isEmpty && (reachable == nil || index >= budget) {
                checkTargets(targets, step: "*", environment: base, what: "the 'if' of \(handler)", never: never)
            }
            merging(users.map { groupOf[$0] ?? [$0] }) { walker, group in
                let id = group.first { !skipped.contains($0) } ?? group[0]
                walker.groupSize = group.filter { !skipped.contains($0) }.count
                let step = walker.flow.steps[id]
                let result = walker.context(of: step, result: results[id], event: event, derived: derived)
                // At a `flow` step the handler runs for an outcome of that name, not for the derived event.
                let proved = step.kind == .flow ? [] : event.flatMap { walker.eventGuards[$0] } ?? []
                walker.checkTargets(targets, step: "*", environment: walker.base.with(result: result),
                                    what: "the 'if' of \(handler) at step '\(step.name.text)'", guarded: proved, never: never)
            }
        }
    }

    mutating func checkStep(_ step: Step, id: Int, result: ResultContext, nested: [Field]?, derived: Set<String>,
                            requiredInputs: (Step) -> [String]) {
        let name = step.name.text
        var base = self.base
        if let keys = nestedNeverSet[id] { base.resultNeverSet = keys }
        let entry = entryAbsent.at(id)
        base.knownAbsent = entry
        // A `set` runs only with a result; a step without `result` never runs it (`set_without_result` says so),
        // but what it writes is still checked, with nothing known of `result`; a `null` it would meet is not (no run
        // evaluates it, so `maybe_null` would warn of a run error no run can have).
        // What the `set` proves not null for the options tried after it on the same move (one cause, one finding):
        // its `result.…` paths, and its `state.K` paths whose K it does not write.
        var afterSet: Set<String> = []
        let setRuns = step.kind == .flow || step.result != nil
        // The keys the `set` stores a literal `null` in (its last write of them): null for the options tried after it.
        let nullAfterSet = setRuns ? EntryAbsence.nulled(step.set, parse: parser) : []
        // A `flow` step whose nested flow never starts or never finishes never completes: no run evaluates its `set`
        // (docs/format.md, "Behind a certain run error").
        if !step.set.isEmpty && !neverTaken.neverCompletes(id) {
            let proved = assignments(step.set, step: name, environment: base.with(result: result), evaluated: setRuns)
            if setRuns {
                let written = Set(step.set.map { "state." + $0.key.text })
                afterSet = proved.filter { path in !written.contains { path == $0 || path.hasPrefix($0 + ".") } }
            }
        }
        if step.kind == .flow {
            checkInput(step, nested: nested, required: nested == nil ? [] : requiredInputs(step), absent: entry)
        }
        // What is known unset or null after the `set` surely ran (it stored `null` in some keys; the others it writes
        // are no longer known), and after it may have run (an explicit event's move).
        let written = setRuns ? Set(step.set.map { "state." + $0.key.text }) : []
        let absentAfterSet = EntryAbsence.removing(written, from: entry).union(nullAfterSet)
        let absentMaybeAfterSet = EntryAbsence.removing(written.subtracting(nullAfterSet), from: entry)
        // A completion by an explicit event that may come without a result surely does when the `set`, which runs
        // with one, always fails here (docs/format.md, "Behind a certain run error").
        let setFailsHere = setRuns && step.kind != .flow && step.set.contains { checkedSources[$0.expression] == true }
        // A list with no `if` and no `set` (the usual one) has nothing to check: no environment is made for it.
        for (list, handler) in step.on.enumerated() where !Self.checksNothing(handler.targets) {
            var environment = base.with(result: context(of: step, result: result, event: handler.event.text, derived: derived))
            let proved = step.kind == .flow ? [] : eventGuards[handler.event.text] ?? []
            // The `set` ran before these options on every move of a `flow` step, and on a derived event's.
            let setRan = step.kind == .flow || derived.contains(handler.event.text)
            let ranSet = setRan ? afterSet : []
            // On an explicit event's move, the `set` ran when there is a result: the `result.…` paths it proved are
            // not null there (without a result, reading one is another run error, which they do not rule out).
            if !setRan && setRuns { environment.resultNotNull = afterSet.filter { $0.hasPrefix("result.") } }
            environment.knownAbsent = setRan ? absentAfterSet : absentMaybeAfterSet
            if !setRan && setFailsHere { environment.resultSurelyAbsent = true }
            checkTargets(handler.targets, step: name, environment: environment, what: "the 'if' of step '\(name)'", guarded: proved.union(ranSet),
                         never: { [neverTaken] in neverTaken.reason(NeverTaken.Option(step: id, list: list, option: $0)) })
        }
        if let next = step.next, !Self.checksNothing(next) {
            var environment = base.with(result: context(of: step, result: result, event: nil, derived: derived))
            environment.knownAbsent = absentAfterSet
            let list = step.on.count
            checkTargets(next, step: name, environment: environment, what: "the 'if' of step '\(name)'", guarded: afterSet,
                         never: { [neverTaken] in neverTaken.reason(NeverTaken.Option(step: id, list: list, option: $0)) })
        }
    }

    /// Whether a target list has nothing for the type check: no option has an `if` or a `set`.
    static func checksNothing(_ targets: [Target]) -> Bool { targets.allSatisfy { $0.condition == nil && $0.set.isEmpty } }

    /// A target list: each option's `if` (with what earlier options' failed `if`s prove) and `set` (with what its
    /// own `if` proves too). `what` names the `if`s in messages; it is worked out only for a list that has one.
    /// `guarded`: the paths proved set and not null before any option is tried (a derived event's condition).
    /// `never`: why an option (by its index) is never taken, if it is: the parts of it no run evaluates are not
    /// checked (its `set`; its `if` when it is never tried).
    mutating func checkTargets(_ targets: [Target], step: String, environment: TypeEnvironment, what: @autoclosure () -> String,
                               guarded: Set<String> = [], never: (Int) -> NeverTaken.Reason? = { _ in nil }) {
        var failed = guarded
        var slot: String?
        // The paths known unset or null: before the options, then as the earlier options' `if`s failed.
        var absentFailed = environment.knownAbsent
        var environment = environment
        for (index, target) in targets.enumerated() {
            var holds = failed
            let reason = never(index)
            let tried = reason?.isTried ?? true
            environment.knownAbsent = absentFailed.subtracting(failed)
            var absentHolds = absentFailed
            if let source = target.condition, let expression = parse(source) {
                if slot == nil { slot = what() }
                if tried {
                    // What its evaluation needed not null is not null after it, held or not (one cause, one finding).
                    var proved = failed
                    add(TypeInference.checkCondition(expression, in: environment, what: slot!, guarded: &proved), in: source, step: step)
                    holdingChecks[source] = (holdingChecks[source] ?? true) && TypeInference.holdsOnlyByFailing(expression, in: environment, guarded: failed)
                    holds.formUnion(proved)
                    failed.formUnion(proved)
                }
                absentHolds.formUnion(PathGuards.absentWhenTrue(expression.root))
                absentFailed.formUnion(PathGuards.absentWhenFalse(expression.root))
                holds.formUnion(PathGuards.whenTrue(expression.root))
                failed.formUnion(PathGuards.whenFalse(expression.root))
                // One cause, one finding: after an `if` that reads the result, a run without one has stopped.
                if PathGuards.readsResult(expression.root) {
                    holds.insert(PathGuards.resultRead)
                    failed.insert(PathGuards.resultRead)
                }
            }
            environment.knownAbsent = absentHolds.subtracting(holds)
            if reason?.runsSet ?? true { assignments(target.set, step: step, environment: environment, guarded: holds) }
        }
    }

    /// A problem of an expression no run evaluates: it stops no run.
    static func evaluatedByNoRun(_ problem: TypeProblem) -> TypeProblem {
        var problem = problem
        problem.alwaysFails = false
        return problem
    }

    /// Checks a `set`'s assignments in order; returns the paths proved not null once they have all run (a run
    /// where one was null stopped at it).
    @discardableResult
    package mutating func assignments(_ list: [Assignment], step: String, environment: TypeEnvironment, guarded given: Set<String> = [],
                                      evaluated: Bool = true) -> Set<String> {
        var guarded = given
        // Assignments are worked out in order, each stored value checked: after one that always fails, no run gets to
        // the others (docs/format.md, "Behind a certain run error").
        var stopped = false
        for assignment in list {
            if stopped { break }
            let key = assignment.key.text
            let expression = parse(assignment.expression)
            // Assignments are worked out in order: after one that reads the result, a run without one has stopped.
            defer { if let expression, PathGuards.readsResult(expression.root) { guarded.insert(PathGuards.resultRead) } }
            if let type = base.state[key] {
                if let expression {
                    let problems = TypeInference.checkAssignment(expression, to: type, in: environment, what: "step '\(step)' sets '\(key)'",
                                                                 guarded: &guarded)
                    stopped = add(evaluated ? problems : problems.filter { $0.kind != .maybeNull }.map(Self.evaluatedByNoRun), in: assignment.expression, step: step)
                }
                continue
            }
            let suggestion = base.stateKeys.closest(to: key)
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            // A fix only where the same `set` does not write the suggested key already.
            let fix = suggestion.flatMap { name in list.contains { $0.key.text == name } ? nil : Fix(at: assignment.key.position, replacing: key, with: name) }
            // (Its value is worked out first: its problems come before the write's.)
            if let expression {
                let problems = TypeInference.infer(expression, in: environment, guarded: guarded).problems
                stopped = add(evaluated ? problems : problems.filter { $0.kind != .maybeNull }.map(Self.evaluatedByNoRun), in: assignment.expression,
                              step: step, recording: false)
            }
            if !stopped {
                add(.undeclaredState, at: assignment.key.position, step: step, subject: key, fix: fix,
                    "step '\(name: step)' sets '\(name: key)', which 'state' does not declare\(verbatim: hint)")
            }
            // The write of a key `state` does not declare always fails.
            record(assignment.expression, fails: evaluated)
            if evaluated { stopped = true }
        }
        return guarded
    }

    /// A `flow` step's `input`: evaluated against the parent's state before the step has a result; each key must be
    /// declared in the nested flow's state and take the value's type.
    mutating func checkInput(_ step: Step, nested: [Field]?, required: [String], absent: Set<String>) {
        let name = step.name.text
        var environment = base.with(result: .absent(reason: .inputBeforeResult(step: name)))
        environment.knownAbsent = absent
        let child = nested.map { TypeEnvironment(state: $0) }
        let file = step.flowPath ?? ""
        let passed = Set(step.input.map(\.key.text))
        // A run begun at an entry that starts the nested flow at a nested entry gives it no input (docs/format.md,
        // "Entries into nested flows"): then nothing here keeps it from starting.
        let enteredDeep = flow.entries.contains { $0.step.text == name && $0.nestedEntry != nil }
        defer { if enteredDeep { neverStarting.remove(name) } }
        // One finding names them all (the engine stops at the first, in the nested flow's `inputs` order).
        let missing = required.filter { !passed.contains($0) }
        if !missing.isEmpty {
            let names = Message.listed(missing, atMost: 8).text
            add(.typeMismatch, at: step.flowPathPosition ?? step.name.position, step: name,
                missing.count == 1 ? "step '\(name: name)' does not pass \(verbatim: names) in its 'input', and nested flow '\(name: file)' requires that input"
                    : "step '\(name: name)' does not pass \(verbatim: names) in its 'input', and nested flow '\(name: file)' requires those inputs")
            neverStarting.insert(name)
        }
        for assignment in step.input {
            let key = assignment.key.text
            let expression = parse(assignment.expression)
            if let child, let type = child.state[key] {
                if let expression {
                    let problems = TypeInference.checkAssignment(expression, to: type, in: environment, what: "step '\(name)' passes '\(key)'")
                    if add(problems, in: assignment.expression, step: name) { neverStarting.insert(name) }
                }
                continue
            }
            if let child {
                let hint = child.stateKeys.closest(to: key).map { "; did you mean '\($0)'?" } ?? ""
                add(.typeMismatch, at: assignment.key.position, step: name,
                    "step '\(name: name)' passes '\(name: key)', which the state of nested flow '\(name: file)' does not declare\(verbatim: hint)")
                neverStarting.insert(name)
            }
            if let expression {
                if add(TypeInference.infer(expression, in: environment).problems, in: assignment.expression, step: name) { neverStarting.insert(name) }
            }
        }
    }
}
