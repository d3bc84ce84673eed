import Foundation
import FlowKit

/// A run that shows a finding right (docs/format.md, "Witnesses"): where it starts and its moves. Run by the
/// engine, it stops with the run error the finding foresees, at the finding's place.
package struct Witness: Sendable, Equatable {
    /// Where the run starts.
    package var start: ScenarioGenerator.Start
    /// Its completions, the last one the move that fails.
    package var moves: [ScenarioGenerator.Move]
    /// The state keys its start gives that the flow's host does not (a fixture: the flow's own runs stop on
    /// another run error before the finding's place unless they are set), in order; empty for most.
    package var fixture: [String] = []
}

/// Why a finding has no witness.
package struct NoWitness: Sendable, Equatable, CustomStringConvertible {
    /// What stopped the search, or that it tried every run state it found.
    package enum Bound: Sendable, Equatable {
        /// It tried every run state of its model.
        case model
        /// Its budget of run states ran out.
        case budget(Int)
        /// Its text or time limit stopped it (what it said).
        case cut(String)
        /// The file cannot be loaded or run (why).
        case cannotRun(String)
    }

    /// What stopped the search.
    package var bound: Bound
    /// Whether some run reached the finding's step (nil when the finding has no step, or the file cannot run).
    package var stepReached: Bool?
    /// The finding's step, when it has one.
    package var step: String?
    /// Whether the search gave keys its runs read unset (a fixture) too.
    package var withFixture = false
    /// Whether runs met a run error that could be this finding's and another's about something else, which
    /// shows neither.
    package var ambiguous = false
    /// When runs reached the finding's step but every move the searches tried there stopped with a run error:
    /// the first few of those errors (distinct places, in the order met), none of them this finding's.
    package var stoppedFirst: [RunError] = []
    /// When no run reached the finding's step: the steps nearest it (fewest forward moves) that runs reached, when
    /// every move the searches tried at each of them stopped with a run error, and the first few of those errors.
    package var stoppedBefore: StoppedBefore?

    /// The steps nearest an unreached finding's step, and the run errors every move tried at them stopped with.
    package struct StoppedBefore: Sendable, Equatable {
        package var steps: [String]
        package var errors: [RunError]
    }

    /// Run errors in a note: where, and the engine's message, escaped as a finding's is as a last guard.
    static func describe(_ errors: [RunError]) -> String {
        errors.map { error in
            (error.position.map { "at \($0.line):\($0.column), " } ?? "")
                + (Identifier.needsEscape(error.message) ? Identifier.display(error.message, limit: .max, quoting: false) : error.message)
        }.joined(separator: "; ")
    }

    /// The note: why, in a sentence.
    package var description: String {
        var parts: [String] = []
        if ambiguous {
            parts.append("runs stop with a run error that could be this finding's or another's about something else (two nulls in one expression, two outcomes of one step), which shows neither")
        } else if let step, let reached = stepReached {
            if reached, !stoppedFirst.isEmpty {
                parts.append(Message("runs reach step '\(name: step)', but every move the search tried there stops first with another run error: ").text
                             + Self.describe(stoppedFirst))
            } else if !reached, let stoppedBefore {
                let nearest: Message = "no run the search made reaches step '\(name: step)': the runs that get nearest to it, at "
                    + Message.listed(stoppedBefore.steps, atMost: 3) + ", stop there first with another run error: "
                parts.append(nearest.text + Self.describe(stoppedBefore.errors))
            } else {
                parts.append(reached ? Message("runs reach step '\(name: step)', but none the search made stops there with this run error").text
                                     : Message("no run the search made reaches step '\(name: step)'").text)
            }
        }
        switch bound {
        case .model:
            parts.append("the search tried every run state of its model (results and host state made of the values the flow's expressions use, "
                         + "histories of at most \(ScenarioGenerator.maxHistory) steps\(withFixture ? ", and the keys its runs read unset given" : ""))")
        case .budget(let budget): parts.append("the search's budget of \(budget) run states ran out; a longer search may find one")
        case .cut(let why): parts.append(why + "; a longer search may find one")
        case .cannotRun(let why): parts.append(why)
        }
        return parts.joined(separator: "; ")
    }
}

/// What the search says of a finding: its witness, or why it has none.
package enum WitnessOutcome: Sendable, Equatable {
    /// A run that shows it.
    case found(Witness)
    /// None was found, and why.
    case none(NoWitness)

    /// The witness, when there is one.
    package var witness: Witness? {
        if case .found(let witness) = self { return witness }
        return nil
    }
}

/// Searches witnesses for the findings of the rules that foresee run errors (docs/format.md, "Witnesses"), over
/// runs of the engine made as `generate scenarios` makes them.
package struct WitnessSearch: Sendable {
    /// The rules that foresee run errors, with the kinds of run error each foresees.
    package static let foreseen: [RuleID: Set<RunError.Kind>] = [
        .maybeUnset: [.unsetState, .resultAbsent, .missingResultKey],
        .maybeNull: [.nullValue, .typeError],
        // (A type error with `null`, a value no kind of the slot takes, is a null value's run error.)
        .typeMismatch: [.typeError, .nullValue, .resultAbsent, .missingResultKey, .missingInput],
        .backTarget: [.backAtFirstStep, .backNotOnHistory],
        .unhandledOutcome: [.unhandledOutcome],
        .undeclaredState: [.undeclaredState],
        .nonExhaustiveGuards: [.noOptionHolds],
    ]

    /// Whether findings of `rule` get a witness.
    package static func witnesses(_ rule: RuleID) -> Bool { foreseen[rule] != nil }

    /// The most run states searched for one file.
    package var budget: Int
    /// The most time spent on one file.
    package var seconds: Double

    /// A search with its bounds.
    package init(budget: Int = 20_000, seconds: Double = 10) {
        self.budget = budget
        self.seconds = seconds
    }

    /// The witnesses of `findings` (those of `flow.flow.file` whose rule foresees run errors), searched over runs
    /// of `flow` from its starts; then, for what those runs could not show, from the same starts with the keys
    /// they read unset given (a fixture).
    package func search(_ findings: [Diagnostic], flow: CompiledFlow, resolver: FlowResolver?) -> [Diagnostic: WitnessOutcome] {
        let model = flow.flow
        let wanted = findings.filter { Self.witnesses($0.rule) && $0.file == model.file }
        guard !wanted.isEmpty else { return [:] }
        var generator = ScenarioGenerator(budget: budget)
        generator.broad = true
        let literals = ScenarioGenerator.literals(in: flow, resolver: resolver)
        let places = Places(model)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        var witnesses: [Diagnostic: Witness] = [:]
        // Keys the runs read unset: the run errors of reads that may stop runs before a finding's place.
        var unsetReads: [String] = []
        // What the searches did: the steps they reached, whether one stopped at its budget, why one was cut.
        var reached: Set<String> = []
        var exhaustedBudget = false
        var cut: String?
        var withFixture = false
        var ambiguous: Set<Diagnostic> = []
        // Per step of the flow (by name): whether some move tried there went on without a run error, and the
        // first few run errors (distinct places) moves tried there stopped with.
        var leftCleanly: Set<String> = []
        var stoppedAt: [String: [RunError]] = [:]
        // One search: its witnesses are made as it ends, and its run states let go, so that searches never hold
        // more than one search's states.
        func search(_ starts: [(ScenarioGenerator.Start, RunStart)], fixture: [String], priority: ((FlowRun) -> Int)? = nil,
                    generator: ScenarioGenerator = generator) {
            var found: [Diagnostic: (node: Int?, start: Int)] = [:]
            // A run error that could be the error of findings about different things (two nulls in one
            // expression, two outcomes of one step) shows none of them: a witness must show its own finding's
            // error. Findings about one thing (a key nothing sets, and a read of it) share it.
            func met(_ error: RunError, node: Int?, start: Int) {
                // A finding at the error's very position is its own; the same-expression rule is for findings the
                // error does not point at.
                let all = wanted.filter { places.isFinding($0, shownBy: error) }
                let exact = all.filter { $0.position == error.position }
                var claims = exact.isEmpty ? all : exact
                // A null value's run error is `type_mismatch`'s only when no `maybe_null` finding claims it.
                if error.kind == .nullValue, claims.contains(where: { $0.rule == .maybeNull }) { claims.removeAll { $0.rule == .typeMismatch } }
                guard let first = claims.first, claims.count == 1 || (first.subject != nil && claims.allSatisfy({ $0.subject == first.subject })) else {
                    ambiguous.formUnion(claims)
                    return
                }
                for finding in claims where witnesses[finding] == nil && found[finding] == nil { found[finding] = (node, start) }
            }
            let exploration = generator.explore(flow: flow, resolver: resolver, literals: literals, starts: starts, deadline: deadline, priority: priority,
                                                done: { witnesses.count + found.count >= wanted.count },
                                                startFailed: { start, error in met(error, node: nil, start: start) }) { tried in
                let step = tried.move.step
                if !step.contains("/") {
                    if let error = tried.error {
                        if stoppedAt[step, default: []].count < 3, !stoppedAt[step, default: []].contains(where: { $0.position == error.position }) {
                            stoppedAt[step, default: []].append(error)
                        }
                    } else {
                        leftCleanly.insert(step)
                    }
                }
                guard let error = tried.error else { return false }
                if error.kind == .unsetState, error.file == model.file, let position = error.position {
                    for key in places.stateKeys(readAt: position) where !unsetReads.contains(key) { unsetReads.append(key) }
                }
                let before = found.count
                met(error, node: tried.index, start: tried.from)
                return found.count > before
            }
            for (finding, at) in found {
                let path = at.node.map { exploration.path(to: $0) } ?? (start: at.start, moves: [])
                var witness = Witness(start: starts[path.start].0, moves: path.moves)
                switch witness.start {
                case .state(let state), .entry(_, _, let state): witness.fixture = fixture.filter { state[$0] != nil }
                }
                witnesses[finding] = witness
            }
            reached.formUnion(exploration.reachedSteps)
            exhaustedBudget = exhaustedBudget || exploration.exhaustedBudget
            cut = cut ?? exploration.cut
        }
        // The host keys, and the optional keys the flow sets that its steps read: the host may give those too (lint's
        // runs start with the host's other state unknown; they are no host keys of `generate scenarios` only because
        // the flow sets them), and a value given at the start can be what a finding needs.
        var hostFields = ScenarioGenerator.hostKeys(model)
        var named = Set(hostFields.map(\.name.text))
        for field in model.state where field.type.optional && places.readers[field.name.text] != nil && named.insert(field.name.text).inserted {
            hostFields.append(field)
        }
        let starts = ScenarioGenerator.starts(flow, resolver: resolver, literals: literals, host: hostFields)
        search(starts, fixture: [])
        var lastStarts = starts
        var lastFixture: [String] = []
        let host = named
        // The keys runs read unset, then those `maybe_unset` findings say runs may read unset (the first search may
        // not get to them in a broad flow), each once.
        var given = unsetReads.filter { !host.contains($0) }
        let declared = Set(model.state.map(\.name.text))
        for finding in wanted where finding.rule == .maybeUnset {
            guard let key = finding.subject, declared.contains(key), !host.contains(key), !given.contains(key) else { continue }
            given.append(key)
        }
        // The other keys an expression with an unshown read reads: the host may give them (lint's runs start
        // with the host's other state unknown), and their values can be what makes the expression read the key
        // (`exists(state.count) && state.count > 1 ? state.mode : 'slow'` reads 'mode' only with 'count' given).
        // They are given as the host's, not as a fixture.
        var beside: [String] = []
        for finding in wanted where witnesses[finding] == nil && finding.step != nil && finding.step != "*" {
            // The expression's keys first, then those the step's other expressions read (an option's `if` guards
            // its `set`).
            let atStep = places.readers.filter { $0.value.contains(finding.step!) }.keys.sorted()
            for key in places.stateKeys(inExpressionAt: finding.position) + atStep where declared.contains(key) && !host.contains(key)
                && !given.contains(key) && !beside.contains(key) && key != finding.subject {
                beside.append(key)
            }
        }
        given += beside.prefix(8)
        if witnesses.count < wanted.count, cut == nil, !given.isEmpty {
            // Their plainest values, then each varied, merged into the first starts (the start's own values kept).
            let types = Dictionary(model.state.map { ($0.name.text, $0.type) }, uniquingKeysWith: { first, _ in first })
            // Each key may also be left out (as if optional), so that a finding about one of them is shown with
            // the others given.
            let fields = given.compactMap { key in types[key].map { type -> Field in
                var type = type
                type.optional = true
                return Field(name: Name(key, at: .start), type: type)
            } }
            var more: [(ScenarioGenerator.Start, RunStart)] = []
            // 16 of the first search's starts, spread over them (its starts vary the first key fastest: the first
            // 16 alone could all have the same value of the others).
            let spread = stride(from: 0, to: starts.count, by: max(1, (starts.count + 15) / 16)).map { starts[$0] }
            for (start, _) in spread {
                for values in ScenarioGenerator.results(fields, literals: literals, limit: 8 + fields.count, broad: true) {
                    switch start {
                    case .state(let state):
                        let merged = state.merging(values) { own, _ in own }
                        more.append((.state(merged), .start(state: merged)))
                    case .entry(let name, let params, let state):
                        let merged = state.merging(values.filter { params[$0.key] == nil }) { own, _ in own }
                        more.append((.entry(name, params: params, state: merged), .entry(name, params: params, state: merged)))
                    }
                }
            }
            (lastStarts, lastFixture, withFixture) = (more, fields.map(\.name.text).filter { !beside.contains($0) }, true)
            search(more, fixture: lastFixture)
        }
        // The fixture's starts without a key, for each key of `maybe_unset` findings left (at most 4 keys): the
        // fixture's values of the other keys can be what gets a run to the finding's step (a step behind
        // `state.tier == 'basic'` reading an unset 'name', where the fixture gives 'tier' only with 'name').
        var withoutKeys: [String] = []
        for finding in wanted where withFixture && finding.rule == .maybeUnset && witnesses[finding] == nil {
            if let key = finding.subject, lastFixture.contains(key), !withoutKeys.contains(key) { withoutKeys.append(key) }
        }
        for key in withoutKeys.prefix(4) where witnesses.count < wanted.count && cut == nil && ContinuousClock.now < deadline {
            guard wanted.contains(where: { $0.rule == .maybeUnset && $0.subject == key && witnesses[$0] == nil }) else { continue }
            var without: [(ScenarioGenerator.Start, RunStart)] = []
            for (start, _) in lastStarts {
                let trimmed: (ScenarioGenerator.Start, RunStart)
                switch start {
                case .state(var state):
                    state[key] = nil
                    trimmed = (.state(state), .start(state: state))
                case .entry(let name, let params, var state):
                    state[key] = nil
                    trimmed = (.entry(name, params: params, state: state), .entry(name, params: params, state: state))
                }
                // (A few hundred starts at most: compared one by one.)
                if !without.contains(where: { $0.0 == trimmed.0 }) { without.append(trimmed) }
            }
            search(without, fixture: lastFixture.filter { $0 != key })
        }
        // Directed searches, for what is left when a search stopped at its budget (a long flow's breadth can use it
        // up before its depth; a search that tried every run state it found reached all it can): the run states
        // nearest the finding's step first, by forward moves over the flow's graph, per step (those no search
        // reached first), at most 8 with the guided ones, a quarter of the budget each. Findings at `"*"` name no step a run is at.
        let file = CoverageRecorder.display(model.file)
        var directedGenerator = generator
        directedGenerator.budget = max(1, budget / 4)
        // Guided searches first, for findings whose rule names a path to them (`maybe_unset`'s and `back_target`'s
        // "not on the path …"): the run states whose steps so far are the path's first steps first, the furthest
        // along first, so that the search follows the path the finding names.
        var guided: [[String]] = []
        for finding in wanted where witnesses[finding] == nil && exhaustedBudget {
            guard let path = finding.path, path.count > 1, !guided.contains(path) else { continue }
            guided.append(path)
        }
        var searches = 0
        for path in guided.prefix(8) where witnesses.count < wanted.count && cut == nil && ContinuousClock.now < deadline {
            searches += 1
            search(lastStarts, fixture: lastFixture, priority: { run in
                guard let frame = run.frames.first, frame.history.count <= path.count else { return Int.max / 2 }
                for (index, id) in frame.history.enumerated() where frame.flow.name(id) != path[index] { return Int.max / 2 }
                return path.count - frame.history.count
            }, generator: directedGenerator)
        }
        // Steps no search reached first, then the others (a fixture's many starts can use the budget up before
        // its runs get back to a step the first search reached).
        // A finding about a key nothing sets names no step: its aims are the steps that read the key.
        func aims(_ finding: Diagnostic) -> [String] {
            if let step = finding.step { return step == "*" ? [] : [step] }
            guard finding.rule == .maybeUnset, let key = finding.subject else { return [] }
            return places.readers[key] ?? []
        }
        var directed: [String] = []
        for finding in wanted where witnesses[finding] == nil && exhaustedBudget {
            for step in aims(finding) where !directed.contains(step) { directed.append(step) }
        }
        directed = directed.filter { !reached.contains(file + "\n" + $0) } + directed.filter { reached.contains(file + "\n" + $0) }
        // From the first search's starts, and then, when there was a fixture, from its starts: a finding about a
        // key the fixture gives needs a run without it, one behind such a key's read a run with it.
        let startSets = withFixture ? [(starts, [String]()), (lastStarts, lastFixture)] : [(starts, [String]())]
        for step in directed where witnesses.count < wanted.count && cut == nil && ContinuousClock.now < deadline {
            let distance = Self.distances(to: step, in: model)
            for (from, fixture) in startSets where searches < 8 && ContinuousClock.now < deadline
                && wanted.contains(where: { witnesses[$0] == nil && aims($0).contains(step) }) {
                searches += 1
                search(from, fixture: fixture, priority: { run in
                    guard let frame = run.frames.first, let id = frame.history.last else { return Int.max / 2 }
                    return distance[frame.flow.name(id)] ?? Int.max / 2
                }, generator: directedGenerator)
            }
        }
        let bound: NoWitness.Bound = cut.map { .cut($0) } ?? (exhaustedBudget ? .budget(budget) : .model)
        var outcomes: [Diagnostic: WitnessOutcome] = [:]
        // Per unreached step (at most 64 worked out): the nearest reached steps and their run errors, when every
        // move tried at them stopped.
        var nearest: [String: NoWitness.StoppedBefore?] = [:]
        for finding in wanted {
            if let witness = witnesses[finding] {
                outcomes[finding] = .found(witness)
            } else {
                let step = finding.step == "*" ? nil : finding.step
                let stepReached = step.map { reached.contains(file + "\n" + $0) }
                // Reached, and never left: every move tried there stopped first with another run error.
                let stoppedFirst = step.flatMap { step in stepReached == true && !leftCleanly.contains(step) ? stoppedAt[step] : nil } ?? []
                var stoppedBefore: NoWitness.StoppedBefore?
                if stepReached == false, let step {
                    if nearest[step] == nil && nearest.count < 64 {
                        // The reached steps fewest forward moves from it, when every move tried at each stopped.
                        let distance = Self.distances(to: step, in: model)
                        let near = distance.filter { reached.contains(file + "\n" + $0.key) && $0.key != step }
                        let least = near.values.min()
                        let steps = model.steps.map(\.name.text).filter { least != nil && near[$0] == least }
                        nearest[step] = .some(steps.isEmpty || steps.contains(where: leftCleanly.contains) ? nil
                                              : NoWitness.StoppedBefore(steps: steps, errors: Array(steps.flatMap { stoppedAt[$0] ?? [] }.prefix(3))))
                    }
                    stoppedBefore = nearest[step] ?? nil
                }
                outcomes[finding] = .none(NoWitness(bound: bound, stepReached: stepReached, step: step,
                                                    withFixture: withFixture, ambiguous: ambiguous.contains(finding), stoppedFirst: stoppedFirst,
                                                    stoppedBefore: stoppedBefore))
            }
        }
        return outcomes
    }

    /// How many forward moves each step of `flow` is from `target` over its graph (every option's forward move,
    /// `restart` to `start`, `"*"`'s options at the steps that do not override them), guards ignored; steps that
    /// cannot get there are left out.
    static func distances(to target: String, in flow: Flow) -> [String: Int] {
        var predecessors: [String: [String]] = [:]
        for step in flow.steps where step.kind != .finish {
            var lists = step.optionLists.map(\.targets)
            if let any = flow.anyStep {
                lists += any.on.filter { step.handler(for: $0.event.text) == nil }.map(\.targets)
                if step.next == nil, let next = any.next { lists.append(next) }
            }
            for target in lists.joined() {
                switch target.move {
                case .forward(let name): predecessors[name.text, default: []].append(step.name.text)
                case .restart: predecessors[flow.start.text, default: []].append(step.name.text)
                default: break
                }
            }
        }
        var distance = [target: 0]
        var queue = [target]
        var head = 0
        while head < queue.count {
            let step = queue[head]
            head += 1
            for before in predecessors[step] ?? [] where distance[before] == nil {
                distance[before] = distance[step]! + 1
                queue.append(before)
            }
        }
        return distance
    }

    /// Where a flow's findings and run errors are, to tell whether a run error is a finding's.
    struct Places {
        let file: String
        /// The expressions of `"*"` and of derived events, by line (their findings name the first step that
        /// evaluates them).
        var shared: [Int: [ClosedRange<Int>]] = [:]
        /// Every expression's columns, by line.
        var spans: [Int: [ClosedRange<Int>]] = [:]
        /// The state keys read at each position (the start of a `state.k` path), sorted; worked out once.
        var stateReads: [SourcePosition: [String]] = [:]
        /// The positions of the `"*"` step's targets that a `back` move of each kind can fail at.
        var anyBackOne: Set<SourcePosition> = []
        var anyBackTo: Set<SourcePosition> = []
        /// The steps (not `"*"`) whose own expressions read each state key, in the flow's order.
        var readers: [String: [String]] = [:]
        /// Every expression's columns, by line, with the state keys it reads.
        var expressionKeys: [Int: [(span: ClosedRange<Int>, keys: [String])]] = [:]

        init(_ flow: Flow) {
            file = flow.file
            var step: String?
            func add(_ source: ExpressionSource, shared isShared: Bool) {
                var keys: [String] = []
                if case .success(let expression) = ExpressionParser.parse(source) {
                    for path in expression.paths where path.root == .state {
                        if let key = path.keys.first, !keys.contains(key) { keys.append(key) }
                        guard let key = path.keys.first else { continue }
                        if let step, !isShared, readers[key]?.last != step { readers[key, default: []].append(step) }
                        let at = source.position(ofOffset: path.span.start)
                        if !(stateReads[at]?.contains(key) ?? false) { stateReads[at, default: []].append(key) }
                    }
                }
                // From the opening quote to the closing one (a quoted value's position is its quote or its first
                // character, as the reader gives it), not into what follows.
                let start = source.position.column
                let span = max(1, start - 1)...(start + source.text.unicodeScalars.count)
                spans[source.position.line, default: []].append(span)
                expressionKeys[source.position.line, default: []].append((span, keys))
                if isShared { shared[source.position.line, default: []].append(span) }
            }
            for event in flow.events {
                if let expression = event.expression { add(expression, shared: true) }
            }
            for owner in flow.steps + (flow.anyStep.map { [$0] } ?? []) {
                let isShared = owner.name.text == "*"
                step = owner.name.text
                for assignment in owner.set + owner.input { add(assignment.expression, shared: isShared) }
                for (_, targets) in owner.optionLists {
                    for target in targets {
                        if let condition = target.condition { add(condition, shared: isShared) }
                        for assignment in target.set { add(assignment.expression, shared: isShared) }
                        guard isShared else { continue }
                        switch target.move {
                        case .backOne: anyBackOne.insert(target.position)
                        case .back: anyBackTo.insert(target.position)
                        default: break
                        }
                    }
                }
            }
        }

        /// Whether `error`, met by a run of this file's flow, is the run error `finding` foresees
        /// (docs/format.md, "Witnesses").
        func isFinding(_ finding: Diagnostic, shownBy error: RunError) -> Bool {
            guard let kinds = WitnessSearch.foreseen[finding.rule], kinds.contains(error.kind), let qualified = error.step else { return false }
            // A run error of a nested flow is about its own file, whose findings are witnessed when it is linted.
            if let file = error.file { guard file == self.file else { return false } } else if qualified.contains("/") { return false }
            let step = String(qualified.split(separator: "/").last ?? "")
            // An error that names what it is about (an unhandled outcome) is only the finding about that.
            if let about = error.subject, let subject = finding.subject, about != subject { return false }
            guard let position = error.position else {
                if finding.step == step { return true }
                switch error.kind {
                case .backAtFirstStep: return anyBackOne.contains(finding.position)
                case .backNotOnHistory: return anyBackTo.contains(finding.position)
                default: return false
                }
            }
            // A key nothing sets: one finding at its declaration, about the key; every read of it fails.
            if finding.rule == .maybeUnset, finding.step == nil, let key = finding.subject {
                return error.kind == .unsetState && stateKeys(readAt: position).contains(key)
            }
            // A `"*"` expression or back target is reported once, at the first step that uses it.
            let isShared = (shared[position.line]?.contains { $0.contains(position.column) } ?? false) || anyBackOne.contains(position) || anyBackTo.contains(position)
            guard isShared || finding.step == step else { return false }
            if finding.position == position { return true }
            // The same expression: a finding and its run error may point at different tokens of it (a null's
            // operand and its operator, a quoted value's quote and its first character); an unset key's read must
            // be of the finding's key.
            guard finding.position.line == position.line,
                  spans[position.line]?.contains(where: { $0.contains(position.column) && $0.contains(finding.position.column) }) == true else { return false }
            if error.kind == .unsetState, finding.rule == .maybeUnset, let key = finding.subject {
                return stateKeys(readAt: position).contains(key)
            }
            return true
        }

        /// The state keys whose `state.k` paths start at `position`.
        func stateKeys(readAt position: SourcePosition) -> [String] {
            stateReads[position] ?? []
        }

        /// The state keys the expression at `position` reads (every expression whose columns hold it).
        func stateKeys(inExpressionAt position: SourcePosition) -> [String] {
            var keys: [String] = []
            for (span, read) in expressionKeys[position.line] ?? [] where span.contains(position.column) {
                for key in read where !keys.contains(key) { keys.append(key) }
            }
            return keys
        }
    }
}
