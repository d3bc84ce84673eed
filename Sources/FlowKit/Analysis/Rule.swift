import Foundation

/// What a rule is, for people and tools: the single source of `flowkit rules`, `flowkit explain`, SARIF rule
/// metadata, the README's rule table and the examples test.
package struct RuleDescription: Sendable {
    /// The snake_case identifier, part of flowkit's interface.
    package let identifier: RuleID
    /// A short human name.
    package let name: String
    /// One sentence: what the rule finds.
    package let summary: String
    /// Why it matters and how to fix it.
    package let rationale: String
    /// The severity of its findings.
    package let severity: Severity
    /// Flow files on which the rule fires; `↓` marks each position a finding must point at.
    package let triggeringExamples: [String]
    /// Flow files on which the rule stays silent.
    package let nonTriggeringExamples: [String]

    /// Creates a description.
    package init(identifier: RuleID, name: String, summary: String, rationale: String, severity: Severity,
                triggeringExamples: [String], nonTriggeringExamples: [String]) {
        self.identifier = identifier
        self.name = name
        self.summary = summary
        self.rationale = rationale
        self.severity = severity
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
    }
}

/// What a rule needs from a lint context beyond the loaded document, so that the linter builds it before the rule
/// runs instead of the rule finding it missing and saying nothing.
package struct RuleNeeds: OptionSet, Sendable {
    package let rawValue: Int

    /// Creates a set of needs.
    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The flow's graphs (reachability, the step graph of the data-flow rules).
    package static let graph = RuleNeeds(rawValue: 1 << 0)
    /// The nested flows: without a workspace to read them from, the rule does not run.
    package static let workspace = RuleNeeds(rawValue: 1 << 1)
}

/// A lint rule: its description, what it needs, and the check that produces its findings from a lint context.
package protocol Rule: Sendable {
    /// The rule's description.
    static var description: RuleDescription { get }
    /// What the rule needs besides the document and its flow model; the linter provides it or does not run the rule.
    static var needs: RuleNeeds { get }
    /// The rule's findings in `context`.
    static func check(_ context: LintContext) -> [Diagnostic]
}

/// Everything a rule may look at for one file: the loaded document, the flow and its graph.
package struct LintContext: Sendable {
    /// The loaded document.
    package let document: LoadedDocument
    /// The flow model, when the document is a flow with its required keys.
    package let flow: Flow?
    /// The flow's graph, when there is a flow.
    let graph: FlowGraph?
    /// Whether the flow's structure is sound enough for graph rules: no `syntax` or `schema` errors.
    package let isWellFormed: Bool
    /// The nested flows this lint run may read, when it follows them.
    package let workspace: LintWorkspace?

    /// The flow as the data-flow rules' graph (built from `analysisFlow`) with the options never taken as written,
    /// when `reachabilityInput` is there.
    let writtenStepGraph: StepGraph?
    /// The flow with each forward target and entry step that names no step but has a suggestion repaired to the
    /// suggested step (`StepSuggestions.repaired`): what the reachability rules analyse, so one typo gives one finding.
    let analysisFlow: Flow?
    /// Work that several rules share, done once.
    let memo: LintMemo
    /// The options no run takes (docs/format.md, "Options never taken"), decided for a well-formed flow when the
    /// graphs are built: what `unreachable_option` reports and the graph rules follow.
    let writtenNeverTaken: NeverTaken

    /// What the rules that foresee run errors see (docs/format.md, "Behind a certain run error"): the options never
    /// taken, with those a run error that happens on every evaluation keeps from being taken; the step graph and the
    /// steps a run reaches without their moves; and the flow-wide type check over them. Worked out once, when a rule
    /// first asks.
    struct RunView: Sendable {
        let neverTaken: NeverTaken
        let stepGraph: StepGraph?
        let reachable: [Bool]?
        let typeFindings: [TypeFinding]
        /// Per expression some of which no run evaluates: the offset from which none does (after the point where it
        /// always fails; 0 for an assignment after one that always fails in its `set`).
        var behind: [ExpressionSource: Int] = [:]
        /// Where steps' evaluations of derived events always stop (`FailingEvents.stops`).
        var eventStops: [Int: FailingEvents.Stop] = [:]

        /// Whether step `id` never evaluates the part at `offset` of the expression of the derived event `event` (by
        /// index in `Flow.events`): an event before it always fails there, or it does before that part.
        func isBehind(event: Int, at id: Int, offset: Int) -> Bool {
            guard !eventStops.isEmpty else { return false }
            return FailingEvents(stops: eventStops).isBehind(event: event, at: id, offset: offset)
        }

        /// Whether no run evaluates the part of `source` at `offset` (docs/format.md, "Behind a certain run error").
        func isBehind(_ source: ExpressionSource, offset: Int) -> Bool {
            guard !behind.isEmpty, let from = behind[source] else { return false }
            return offset >= from
        }
    }

    var runView: RunView {
        memo.runView { computeRunView() }
    }

    /// The options no run takes, for the rules that foresee run errors.
    var neverTaken: NeverTaken { runView.neverTaken }
    /// The data-flow rules' graph, without the moves no run makes.
    var stepGraph: StepGraph? { writtenStepGraph == nil ? nil : runView.stepGraph }

    private func computeRunView() -> RunView {
        let written = RunView(neverTaken: writtenNeverTaken, stepGraph: writtenStepGraph, reachable: reachabilityInput?.graph.reachable, typeFindings: [])
        guard isWellFormed, let flow else { return written }
        // What each `flow` step's nested flow does as the step starts it (docs/format.md, "Behind a certain run
        // error"): the keys it never sets (so the step's `result.…` reads of them always fail) and the outcomes it
        // can finish with (with none, the step never completes either).
        var neverFinishing: Set<String> = []
        var finishing: [String: Set<String>] = [:]
        var nestedNeverSet: [Int: Set<String>] = [:]
        var nested: [[String]: (started: NestedOutcomes.AsStarted?, required: Set<String>, outcomes: Int)?] = [:]
        for (id, step) in flow.steps.enumerated() where step.kind == .flow && step.flowPath != nil {
            let passed = Set(step.input.map(\.key.text))
            // The nested entries of this flow's entries into the step start it there.
            let entries = flow.nestedEntries(into: step.name.text)
            let key = [step.flowPath!] + passed.sorted() + ["\u{1}"] + Set(entries).sorted()
            if nested[key] == nil {
                nested[key] = .some(nestedFlow(of: step).map { child in
                    (NestedOutcomes.asStarted(child, passed: passed, entries: entries, parse: memo.parse),
                     Set(child.state.filter { !$0.type.optional }.map(\.name.text)),
                     child.outcomes.count)
                })
            }
            guard let known = nested[key]!, let started = known.started else { continue }
            // (Its final state never has them: a read of a non-optional one always fails, an optional one reads null.)
            if !started.neverSet.isEmpty { nestedNeverSet[id] = started.neverSet }
            if started.outcomes.isEmpty {
                neverFinishing.insert(step.name.text)
            } else if started.outcomes.count < known.outcomes {
                finishing[step.name.text] = started.outcomes
            }
        }
        func check(_ view: RunView, _ absence: EntryAbsence) -> (findings: [TypeFinding], alwaysFailing: Set<ExpressionSource>, neverStarting: Set<String>,
                                                               failingEvents: FailingEvents, failurePoints: [ExpressionSource: Int],
                                                               neverHolding: Set<ExpressionSource>) {
            FlowTypeChecker.checkFindingFailures(flow, nestedState: { nestedFlow(of: $0)?.state },
                                                 nestedInputs: { nestedFlow(of: $0)?.requiredInputs ?? [] }, parse: memo.parse,
                                                 reachable: view.reachable, neverTaken: view.neverTaken, nestedNeverSet: nestedNeverSet,
                                                 entryAbsent: absence)
        }
        let alwaysHolding = NeverTaken.alwaysHolding(flow, parse: memo.parse)
        // What is known unset or null where steps begin (docs/format.md, "Known across steps"), used at the steps no
        // run pops back to in the model it gives: worked out again without the others until none is left (at most
        // `EntryAbsence.rounds` rounds; past them, nothing is known across steps).
        let ids = EntryAbsence.ids(of: flow)
        var absence = EntryAbsence(flow: flow, neverTaken: writtenNeverTaken, parse: memo.parse, outcomes: { nestedOutcomes(of: $0) }, ids: ids)
        var first = check(written, absence)
        // The derived events what is known where steps begin decides there: those that always hold, and those
        // never raised (docs/format.md, "Known across steps").
        var decidedEvents = absence.decidedEvents(flow, parse: memo.parse)
        func extending(_ first: (findings: [TypeFinding], alwaysFailing: Set<ExpressionSource>, neverStarting: Set<String>, failingEvents: FailingEvents,
                                 failurePoints: [ExpressionSource: Int], neverHolding: Set<ExpressionSource>)) -> NeverTaken {
            var failingEvents = first.failingEvents
            for (id, events) in decidedEvents.neverRaised { failingEvents.neverHoldingAt[id, default: []].formUnion(events) }
            return writtenNeverTaken.addingRunErrors(of: flow, alwaysFailing: first.alwaysFailing, neverStarting: first.neverStarting.union(neverFinishing),
                                                     failingEvents: failingEvents, alwaysHolding: alwaysHolding, alwaysHoldingAt: decidedEvents.holding,
                                                     finishing: finishing, neverHolding: first.neverHolding)
        }
        var extended = extending(first)
        if !absence.isEmpty {
            let order = DerivedEventOrder(flow)
            var popped: Set<Int> = []
            // The moves `absence` was worked out over.
            var model = writtenNeverTaken
            var rounds = 1
            while !absence.isEmpty {
                let moves = EntryAbsence.Moves(flow: flow, neverTaken: extended, failingEvents: first.failingEvents, alwaysHolding: alwaysHolding,
                                               alwaysHoldingAt: decidedEvents.holding, order: order, ids: ids)
                // (At most `EntryAbsence.localRuns` steps are judged so a round; the others count as popped back to.)
                var runs = 0
                let found = absence.paths.keys.sorted().filter { id in
                    guard moves.poppable(id) else { return false }
                    runs += 1
                    return runs > EntryAbsence.localRuns || !moves.keeps(absence.facts(at: id), above: id) { root, facts in
                        EntryAbsence(flow: flow, neverTaken: extended, parse: memo.parse, outcomes: { nestedOutcomes(of: $0) }, roots: [root: facts],
                                     ids: ids)
                    }
                }
                popped.formUnion(found)
                // Worked out again over the moves this model makes (each model's moves are a run's possible ones),
                // without the steps a run may pop back to; nothing to do when neither changed.
                if found.isEmpty && extended == model { break }
                let next = rounds >= EntryAbsence.rounds ? .none
                    : EntryAbsence(flow: flow, neverTaken: extended, popped: popped, parse: memo.parse, outcomes: { nestedOutcomes(of: $0) }, ids: ids)
                model = extended
                if found.isEmpty && next == absence { break }
                rounds += 1
                absence = next
                decidedEvents = absence.decidedEvents(flow, parse: memo.parse)
                first = check(written, absence)
                extended = extending(first)
            }
        }
        let behind = Self.behind(flow, failurePoints: first.failurePoints)
        guard extended != writtenNeverTaken else {
            return RunView(neverTaken: written.neverTaken, stepGraph: written.stepGraph, reachable: written.reachable, typeFindings: first.findings,
                           behind: behind, eventStops: first.failingEvents.stops)
        }
        let stepGraph = writtenStepGraph == nil ? nil : analysisFlow.map { StepGraph(flow: $0, neverTaken: extended) }
        let reachable = reachabilityInput.map { input in FlowGraph(flow: flow, suggestions: input.graph.suggestions, neverTaken: extended).reachable }
        let view = RunView(neverTaken: extended, stepGraph: stepGraph, reachable: reachable, typeFindings: [])
        return RunView(neverTaken: extended, stepGraph: stepGraph, reachable: reachable, typeFindings: check(view, absence).findings, behind: behind,
                       eventStops: first.failingEvents.stops)
    }

    /// The parts of `flow`'s expressions no run evaluates (docs/format.md, "Behind a certain run error"): what follows
    /// the point where an expression always fails, and the assignments after one that always fails in a `set` (an
    /// expression written once and used in several places, a YAML alias, only by the first).
    static func behind(_ flow: Flow, failurePoints: [ExpressionSource: Int]) -> [ExpressionSource: Int] {
        guard !failurePoints.isEmpty else { return [:] }
        var behind = failurePoints
        var uses: [ExpressionSource: Int] = [:]
        var sets: [[Assignment]] = []
        for step in flow.anyStepThenSteps {
            sets.append(step.set)
            sets.append(step.input)
            StepGraph.forEachTargetList(of: step) { _, list in
                for target in list {
                    sets.append(target.set)
                    if let condition = target.condition { uses[condition, default: 0] += 1 }
                }
            }
        }
        for event in flow.events { if let source = event.expression { uses[source, default: 0] += 1 } }
        for set in sets { for assignment in set { uses[assignment.expression, default: 0] += 1 } }
        for set in sets where set.count > 1 {
            guard let first = set.firstIndex(where: { failurePoints[$0.expression] != nil }) else { continue }
            for assignment in set[(first + 1)...] where uses[assignment.expression] == 1 { behind[assignment.expression] = 0 }
        }
        return behind
    }

    /// Builds the context (and, unless `graphs` is false, the graphs) for a loaded document; nested flows are
    /// followed through `workspace`. Without graphs, only rules that need none may run.
    package init(document: LoadedDocument, workspace: LintWorkspace? = nil, graphs: Bool = true) {
        self.document = document
        self.flow = document.flow
        self.isWellFormed = document.isWellFormed
        self.workspace = workspace
        let memo = LintMemo()
        self.memo = memo
        guard let flow = document.flow, graphs else {
            (graph, writtenStepGraph, analysisFlow, writtenNeverTaken) = (nil, nil, nil, .none)
            return
        }
        let neverTaken = NeverTaken(flow: flow, parse: memo.parse, judge: document.isWellFormed)
        self.writtenNeverTaken = neverTaken
        let needsSteps = document.isWellFormed && flow.steps.contains { $0.name.text == flow.start.text }
        let flowGraph: FlowGraph
        if needsSteps && flow.steps.count >= Linter.parallelThreshold {
            // The step graph is built from the flow as written, beside the flow graph, and built again from the
            // repaired flow only when the flow graph found names to repair (a flow with undefined steps).
            let (built, written) = Parallel.both({ FlowGraph(flow: flow, neverTaken: neverTaken) }, { StepGraph(flow: flow, neverTaken: neverTaken) })
            flowGraph = built
            writtenStepGraph = built.suggestions.byName.isEmpty ? written : StepGraph(flow: built.suggestions.repaired(flow), neverTaken: neverTaken)
        } else {
            flowGraph = FlowGraph(flow: flow, neverTaken: neverTaken)
            writtenStepGraph = needsSteps ? StepGraph(flow: flowGraph.suggestions.repaired(flow), neverTaken: neverTaken) : nil
        }
        graph = flowGraph
        analysisFlow = flowGraph.suggestions.repaired(flow)
    }

    /// The flow and graph for rules that need reachability: only for well-formed flows whose `start` exists. The
    /// flow is the one they analyse: forward targets and entry steps that name no step but have a suggestion name
    /// the suggested step (the graph keeps such a target as a way out for dead ends and closed groups).
    var reachabilityInput: (flow: Flow, graph: FlowGraph)? {
        guard isWellFormed, let flow = analysisFlow, let graph, graph.startID != nil else { return nil }
        return (flow, graph)
    }

    /// A finding of `rule` in this file, with the rule's severity; `subject` names what it is about (see
    /// `Diagnostic.subject`).
    /// Which steps (by index) a run can reach, when the flow's graph knows (a well-formed flow whose `start` names a
    /// step): the rules that foresee run errors report nothing about the others (docs/format.md, "Only where runs
    /// go"). Nil when not known: then every step counts.
    /// The moves no run makes because of a run error that happens on every evaluation are not followed (docs/format.md,
    /// "Behind a certain run error").
    var reachableSteps: [Bool]? { reachabilityInput == nil ? nil : runView.reachable }

    /// Whether a run can reach the step named `name`: true for `"*"`, for a name that is no step's, and when the
    /// graph does not know.
    func isReachable(step name: String) -> Bool {
        reachability()(name)
    }

    /// `isReachable(step:)` for many steps: the run view asked once.
    func reachability() -> (String) -> Bool {
        guard let graph = reachabilityInput?.graph, let reachable = runView.reachable else { return { _ in true } }
        let ids = graph.ids
        return { name in ids[name].map { reachable[Int($0)] } ?? true }
    }

    package func finding(_ rule: any Rule.Type, at position: SourcePosition, step: String? = nil, subject: String? = nil,
                        fix: Fix? = nil, _ message: Message) -> Diagnostic {
        var diagnostic = Diagnostic(file: document.file, position: position, severity: rule.description.severity,
                                    rule: rule.description.identifier, step: step, message: message.text, subject: subject)
        diagnostic.fix = fix
        return diagnostic
    }

    /// The well-formed flow that `step` (a `flow` step) runs, from the lint run's workspace when it has one, else
    /// loaded relative to this flow's file (inside its directory); nil when it does not load. Loaded once per
    /// context and reference.
    func nestedFlow(of step: Step) -> Flow? {
        guard let flow, let reference = step.flowPath else { return nil }
        return memo.nested(reference) {
            if let workspace {
                guard case .loaded(let document, _) = workspace.nested(reference, from: flow.file) else { return nil }
                return document.isWellFormed ? document.flow : nil
            }
            let root = URL(fileURLWithPath: flow.file).deletingLastPathComponent().path
            guard let file = try? FileFlowResolver.locate(reference, from: flow.file, root: root),
                  let document = try? FlowLoader.load(path: file), document.isWellFormed else { return nil }
            return document.flow
        }
    }

    /// The outcomes of the finish steps of the nested flow `step` (a `flow` step) runs, nil when it does not load.
    func nestedOutcomes(of step: Step) -> Set<String>? {
        nestedFlow(of: step)?.outcomes
    }

    /// The loader's findings for `rule`.
    package func loaderFindings(_ rule: any Rule.Type) -> [Diagnostic] {
        document.diagnostics.filter { $0.rule == rule.description.identifier }
    }
}

/// Work that several rules of one lint context share, done once whichever rule asks first (rules may run in
/// parallel).
final class LintMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var parsed: [ExpressionSource: Result<FlowExpression, ExpressionParseError>] = [:]
    private let typeLock = NSLock()

    /// `ExpressionParser.parse(source)`, parsed once per source.
    func parse(_ source: ExpressionSource) -> Result<FlowExpression, ExpressionParseError> {
        lock.lock()
        let known = parsed[source]
        lock.unlock()
        if let known { return known }
        let result = ExpressionParser.parse(source)
        lock.lock()
        parsed[source] = result
        lock.unlock()
        return result
    }

    private let nestedLock = NSLock()
    private var nestedFlows: [String: Flow?] = [:]

    /// The nested flow behind `reference`, loaded by `load` once.
    func nested(_ reference: String, _ load: () -> Flow?) -> Flow? {
        nestedLock.lock()
        defer { nestedLock.unlock() }
        if let known = nestedFlows[reference] { return known }
        let loaded = load()
        nestedFlows[reference] = .some(loaded)
        return loaded
    }

    private var view: LintContext.RunView?

    /// What the rules that foresee run errors see: `compute()` runs once, and other callers wait for it.
    func runView(_ compute: () -> LintContext.RunView) -> LintContext.RunView {
        typeLock.lock()
        defer { typeLock.unlock() }
        if let view { return view }
        let computed = compute()
        view = computed
        return computed
    }
}

/// Quoting helpers for messages.
enum Quote {
    /// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
    package static func list(_ names: [String]) -> String {
        let quoted = names.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " and " + quoted.last!
    }
}
