import Foundation
import FlowKit

/// Writes scenarios that cover a flow's transitions (docs/format.md, "Generated scenarios"): a breadth-first search
/// over runs of the engine itself, from `start` and from every entry (nested ones too), with the host's keys varied,
/// trying at each step the events it takes, a
/// completion with nothing when it allows one, and results made of the values that matter to the flow's
/// expressions. Each scenario is the shortest run found to a transition not yet covered, carried on to the nearest
/// finish; its `expect` is what the engine did.
package struct ScenarioGenerator {
    /// One completion of a generated scenario.
    package struct Move: Sendable, Equatable {
        /// The step the run is at (qualified inside nested flows).
        package var step: String
        /// The explicit event, when there is one.
        package var event: String?
        /// The result, when there is one.
        package var result: [String: Value]?
    }

    /// Where a generated scenario starts.
    package enum Start: Sendable, Equatable {
        /// At `start` with these inputs.
        case state([String: Value])
        /// At an entry, with its path parameters and the state the host gives.
        case entry(String, params: [String: String], state: [String: Value])
    }

    /// A generated scenario: its moves and what the engine did.
    package struct GeneratedScenario: Sendable {
        /// Its name.
        package var name: String
        /// Where it starts.
        package var start: Start
        /// Its completions.
        package var moves: [Move]
        /// The run of it.
        package var result: ScenarioResult
        /// The transitions it covers that the scenarios before it did not (descriptions with file positions).
        package var covers: [String]
    }

    /// What the generator found.
    package struct Generated: Sendable {
        /// The scenarios, in the order they were chosen.
        package var scenarios: [GeneratedScenario]
        /// The transitions left uncovered, with why: `file:line:column: description: reason`.
        package var uncovered: [Message]
        /// How many run states the search visited.
        package var statesVisited: Int
        /// Why the search stopped before every item had a run, when a bound other than the budget stopped it (the
        /// state text it held).
        package var cut: String? = nil
    }

    /// The most state text (UTF-8 bytes, a text counted each time a run state holds it) the run states a search
    /// holds may have: past it the search stops and says so.
    package static let maxStateBytes = 256 << 20

    /// The most run states a search visits before it gives up on what it has not reached.
    package var budget: Int
    /// The most results tried at one step.
    package var maxResults: Int
    /// Whether results are made in the witness search's broad order (see `results`).
    package var broad = false

    /// A generator with a search budget.
    package init(budget: Int = 20_000, maxResults: Int = 48) {
        self.budget = budget
        self.maxResults = maxResults
    }

    // MARK: The search

    struct SearchNode {
        var run: FlowRun
        var parent: Int?
        var move: Move?
        var start: Int
    }

    /// Scenarios that cover the coverable transitions of `flow` (and the nested flows it runs) that `covered`
    /// (coverage of existing scenarios, to extend them) does not already cover.
    package func generate(flow: CompiledFlow, resolver: FlowResolver?, covered: Coverage? = nil) -> Generated {
        let literals = Self.literals(in: flow, resolver: resolver)
        let starts = Self.starts(flow, resolver: resolver, literals: literals)

        // The items to cover, by file and key, in file order.
        var recorder = CoverageRecorder(flow: flow, resolver: resolver)
        let baseline = covered ?? recorder.coverage
        var wanted: [(file: String, item: CoverageItem)] = []
        for file in recorder.coverage.files {
            let already = baseline.files.first { $0.file == file.file }
            for item in file.items where item.kind == .transition && item.coverable {
                if let done = already?.items.first(where: { $0.identity == item.identity }), done.hits > 0 { continue }
                wanted.append((file.file, item))
            }
        }
        let wantedKeys = Set(wanted.map { PlacedItem(file: $0.file, identity: $0.item.identity) })

        // Breadth-first over run states: the first node whose move takes an item witnesses it.
        var witness: [PlacedItem: Int] = [:]
        // Every option a run took, to blame what was never taken.
        var taken: Set<PlacedItem> = []
        let exploration = explore(flow: flow, resolver: resolver, literals: literals, starts: starts, done: { witness.count >= wantedKeys.count }) { tried in
            guard tried.error == nil else { return false }
            var keep = false
            for entry in tried.run.trace[tried.traceStart...] {
                guard let option = entry.taken else { continue }
                let key = PlacedItem(file: CoverageRecorder.display(option.file), identity: CoverageRecorder.transition(entry, option))
                taken.insert(key)
                guard wantedKeys.contains(key), witness[key] == nil else { continue }
                witness[key] = tried.index
                keep = true
            }
            return keep
        }
        let nodes = exploration.nodes
        let reachedSteps = exploration.reachedSteps
        let cut = exploration.cut

        // Greedy: the witness of the first item not yet covered, carried on to a finish, as long as items remain.
        var scenarios: [GeneratedScenario] = []
        var coveredKeys: Set<PlacedItem> = []
        var failed: [PlacedItem: Message] = [:]
        // The searches on to a finish share one budget, each taking at most a quarter of it, so that work stays
        // bounded however many items are witnessed.
        var finishBudget = budget
        var noFinish: Set<String> = []
        for (file, item) in wanted {
            let key = PlacedItem(file: file, identity: item.identity)
            guard !coveredKeys.contains(key), let witnessNode = witness[key] else { continue }
            var moves: [Move] = []
            var cursor: Int? = witnessNode
            while let at = cursor, let move = nodes[at].move {
                moves.append(move)
                cursor = nodes[at].parent
            }
            moves.reverse()
            guard let ending = finish(from: nodes[witnessNode].run, literals: literals, remaining: &finishBudget, noFinish: &noFinish) else {
                failed[key] = "a run takes it, but none found from there reaches a finish step within the budget"
                continue
            }
            moves += ending
            let start = starts[nodes[witnessNode].start]
            let result = Self.replay(start: start, moves: moves, flow: flow, resolver: resolver)
            guard result.passed, result.outcome != nil else {
                failed[key] = "its run could not be replayed: \(path: result.error ?? "it did not finish")"
                continue
            }
            var single = CoverageRecorder(flow: flow, resolver: resolver)
            single.record(result)
            var newlyCovered: [String] = []
            for coverageFile in single.coverage.files {
                for covered in coverageFile.items where covered.hits > 0 && covered.kind == .transition {
                    let coveredKey = PlacedItem(file: coverageFile.file, identity: covered.identity)
                    if wantedKeys.contains(coveredKey), coveredKeys.insert(coveredKey).inserted {
                        newlyCovered.append("\(coverageFile.file):\(covered.line):\(covered.column): \(covered.description)")
                    }
                }
            }
            recorder.record(result)
            scenarios.append(GeneratedScenario(name: "generated \(scenarios.count + 1): " + item.description, start: start.0, moves: moves,
                                               result: result, covers: newlyCovered))
        }
        var uncovered: [Message] = []
        let blame = Blame(flows: Self.flows(of: flow, resolver: resolver), reached: reachedSteps, taken: taken)
        for (file, item) in wanted where !coveredKeys.contains(PlacedItem(file: file, identity: item.identity)) {
            let key = PlacedItem(file: file, identity: item.identity)
            let owner = item.identity.step ?? ""
            // When the search stopped at a bound, a step it did not reach may lie past the states it left.
            let stopped: Message? = reachedSteps.contains(file + "\n" + owner) ? nil : cut.map { "no run reaches step '\(name: owner)': \(verbatim: $0)" }
            let reason: Message = failed[key] ?? stopped ?? blame.reason(for: item.identity, in: file)
                ?? (reachedSteps.contains(file + "\n" + owner)
                    ? "step '\(name: owner)' is reached, but no completion tried takes this option (results are made of the values the flow's expressions compare with)"
                    : (cut.map { "no run reaches step '\(name: owner)': \(verbatim: $0)" } ?? "no run reaches step '\(name: owner)' within the budget of \(budget) run states"))
            uncovered.append("\(path: file):\(item.line):\(item.column): \(path: item.description): \(reason)")
        }
        return Generated(scenarios: scenarios, uncovered: uncovered, statesVisited: nodes.count, cut: cut)
    }

    /// A move the search tried from a run state.
    struct Tried {
        /// The node it was tried from.
        let from: Int
        /// The move.
        let move: Move
        /// The run after the move (as far as it went, when it failed).
        let run: FlowRun
        /// Where the move's entries start in the run's trace.
        let traceStart: Int
        /// The run error the move stopped with, if any.
        let error: RunError?
        /// The index a node kept for this move gets.
        let index: Int
    }

    /// What a search over run states found.
    struct Exploration {
        /// Every run state kept, with the move that led to it.
        var nodes: [SearchNode] = []
        /// The steps runs reached, as `file\nstep` (every level's, a `flow` step's too while a run is inside it).
        var reachedSteps: Set<String> = []
        /// Why the search stopped, when the state text limit stopped it.
        var cut: String?
        /// Whether the search stopped at its budget.
        var exhaustedBudget = false

        /// The start and the moves that lead to `node`.
        func path(to node: Int) -> (start: Int, moves: [Move]) {
            var moves: [Move] = []
            var cursor: Int? = node
            while let at = cursor, let move = nodes[at].move {
                moves.append(move)
                cursor = nodes[at].parent
            }
            return (nodes[node].start, moves.reversed())
        }
    }

    /// The run states waiting to be searched: first in, first out; or, with a priority, the least first (ties
    /// first in), for a search directed at a place.
    struct Frontier {
        let priority: ((FlowRun) -> Int)?
        private var fifo: [Int] = []
        private var head = 0
        private var heap: [(key: Int, order: Int, node: Int)] = []
        private var pushed = 0

        init(priority: ((FlowRun) -> Int)?) {
            self.priority = priority
        }

        /// Whether nothing waits.
        var isEmpty: Bool { priority == nil ? head >= fifo.count : heap.isEmpty }

        mutating func push(_ node: Int, run: FlowRun) {
            guard let priority else {
                fifo.append(node)
                return
            }
            pushed += 1
            heap.append((priority(run), pushed, node))
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard (heap[child].key, heap[child].order) < (heap[parent].key, heap[parent].order) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        mutating func pop() -> Int? {
            guard priority != nil else {
                guard head < fifo.count else { return nil }
                head += 1
                return fifo[head - 1]
            }
            guard let top = heap.first else { return nil }
            heap.swapAt(0, heap.count - 1)
            heap.removeLast()
            var parent = 0
            while true {
                let (left, right) = (2 * parent + 1, 2 * parent + 2)
                var least = parent
                if left < heap.count, (heap[left].key, heap[left].order) < (heap[least].key, heap[least].order) { least = left }
                if right < heap.count, (heap[right].key, heap[right].order) < (heap[least].key, heap[least].order) { least = right }
                guard least != parent else { break }
                heap.swapAt(parent, least)
                parent = least
            }
            return top.node
        }
    }

    /// Breadth first over run states from `starts` (docs/format.md, "Generated scenarios"), until `done` says so
    /// or a bound stops it; with `priority`, the run state of least priority first instead (a search directed at a
    /// place). `tried` sees every move tried (the run after it, the run error it stopped with) and says whether to
    /// keep a node for it even when the run is not searched further (a witness of something); a start the engine
    /// refuses is passed to `startFailed` with its error.
    func explore(flow: CompiledFlow, resolver: FlowResolver?, literals: Literals, starts: [(Start, RunStart)], deadline: ContinuousClock.Instant? = nil,
                 priority: ((FlowRun) -> Int)? = nil,
                 done: () -> Bool, startFailed: (Int, RunError) -> Void = { _, _ in }, tried: (Tried) -> Bool) -> Exploration {
        var exploration = Exploration()
        var seen: Set<String> = []
        var queue = Frontier(priority: priority)
        // The state text the held run states hold; past `maxStateBytes` the search stops.
        var heldBytes = 0
        func hold(_ key: (key: String, bytes: Int, depth: Int)) -> Bool {
            guard key.depth <= Self.maxHistory, seen.insert(key.key).inserted else { return false }
            heldBytes += key.bytes
            return true
        }
        for (index, start) in starts.enumerated() {
            var run: FlowRun
            do {
                run = try FlowRun(flow: flow, start: start.1, resolver: resolver)
            } catch {
                startFailed(index, error)
                continue
            }
            run.forgetPast()
            if hold(Self.stateKey(run)) {
                exploration.nodes.append(SearchNode(run: run, parent: nil, move: nil, start: index))
                queue.push(exploration.nodes.count - 1, run: run)
            }
        }
        var checks = 0
        while !queue.isEmpty && !done() {
            if exploration.nodes.count >= budget {
                exploration.exhaustedBudget = true
                return exploration
            }
            if heldBytes > Self.maxStateBytes {
                exploration.cut = "the search stopped at \(exploration.nodes.count) run states: they held more than \(Self.maxStateBytes >> 20) MB of state text"
                return exploration
            }
            checks += 1
            if let deadline, checks % 64 == 0, ContinuousClock.now >= deadline {
                exploration.cut = "the search stopped at \(exploration.nodes.count) run states: its time ran out"
                return exploration
            }
            guard let index = queue.pop() else { break }
            let node = exploration.nodes[index]
            guard let current = node.run.currentStep, let definition = node.run.currentStepDefinition else { continue }
            // Every level's step is reached: a `flow` step too, while a run is inside its nested flow.
            for frame in node.run.frames {
                if let id = frame.history.last { exploration.reachedSteps.insert(CoverageRecorder.display(frame.flow.flow.file) + "\n" + frame.flow.name(id)) }
            }
            exploration.reachedSteps.insert(CoverageRecorder.display(definition.flow.file) + "\n" + definition.step.name.text)
            for move in moves(for: node.run, at: current, step: definition.step, in: definition.flow, literals: literals) {
                // The time limit holds within a run state's moves too (a step may take thousands of events).
                if let deadline, ContinuousClock.now >= deadline {
                    exploration.cut = "the search stopped at \(exploration.nodes.count) run states: its time ran out"
                    return exploration
                }
                var run = node.run
                let before = run.trace.count
                var failure: RunError?
                do {
                    try run.complete(event: move.event, result: move.result)
                } catch {
                    failure = error
                }
                var newNode: Int?
                if tried(Tried(from: index, move: move, run: run, traceStart: before, error: failure, index: exploration.nodes.count)) {
                    exploration.nodes.append(SearchNode(run: run, parent: index, move: move, start: node.start))
                    newNode = exploration.nodes.count - 1
                }
                guard failure == nil, run.outcome == nil, hold(Self.stateKey(run)) else { continue }
                run.forgetPast()
                if let witnessed = newNode { exploration.nodes[witnessed].run = run }
                if newNode == nil {
                    exploration.nodes.append(SearchNode(run: run, parent: index, move: move, start: node.start))
                    newNode = exploration.nodes.count - 1
                }
                queue.push(newNode!, run: run)
                if exploration.nodes.count >= budget { break }
            }
        }
        return exploration
    }

    /// The shortest continuation from `run` to a finished run, visiting at most a quarter of the budget and no
    /// more than `remaining` run states (which it lowers by what it visits). A search that fails adds the states
    /// it saw to `noFinish`, and a later one from any of them fails at once.
    private func finish(from run: FlowRun, literals: Literals, remaining: inout Int, noFinish: inout Set<String>) -> [Move]? {
        if run.outcome != nil { return [] }
        var run = run
        run.forgetPast()
        let startKey = Self.stateKey(run).key
        if noFinish.contains(startKey) { return nil }
        var nodes: [(run: FlowRun, parent: Int?, move: Move?)] = [(run, nil, nil)]
        var seen: Set<String> = [startKey]
        let limit = min(remaining, max(1, budget / 4))
        var heldBytes = 0
        defer {
            remaining -= min(remaining, nodes.count)
        }
        var head = 0
        while head < nodes.count && nodes.count < limit && heldBytes <= Self.maxStateBytes / 4 {
            let node = nodes[head]
            let index = head
            head += 1
            guard let current = node.run.currentStep, let definition = node.run.currentStepDefinition else { continue }
            for move in moves(for: node.run, at: current, step: definition.step, in: definition.flow, literals: literals) {
                var next = node.run
                do {
                    try next.complete(event: move.event, result: move.result)
                } catch {
                    continue
                }
                if next.outcome != nil {
                    var moves = [move]
                    var cursor: Int? = index
                    while let at = cursor, let earlier = nodes[at].move {
                        moves.append(earlier)
                        cursor = nodes[at].parent
                    }
                    return moves.reversed()
                }
                let key = Self.stateKey(next)
                guard key.depth <= Self.maxHistory, seen.insert(key.key).inserted else { continue }
                heldBytes += key.bytes
                next.forgetPast()
                nodes.append((next, index, move))
            }
        }
        noFinish.formUnion(seen)
        return nil
    }

    /// The completions tried at the step `run` is at: each explicit event it takes, nothing when it allows that,
    /// and results, whose strings include the texts the run's state holds (a guard may compare with them).
    private func moves(for run: FlowRun, at name: String, step: Step, in flow: Flow, literals: Literals) -> [Move] {
        var literals = literals
        if step.result != nil, let state = run.frames.last?.state {
            // In key order, so that the candidates (and the script) are the same on every run.
            for key in state.keys.sorted() {
                guard case .string(let text)? = state[key], literals.stateTexts.count < 16, text.utf8.count <= 1_024 else { continue }
                literals.addStateText(text)
            }
        }
        var moves: [Move] = []
        let results = step.result.map { Self.results($0, literals: literals, limit: maxResults, broad: broad) } ?? []
        if step.result != nil {
            for values in results { moves.append(Move(step: name, event: nil, result: values)) }
        } else if FlowInterface.completesBare(step, in: flow) {
            moves.append(Move(step: name, event: nil, result: nil))
        }
        for event in FlowInterface.explicitEvents(of: step, in: flow) {
            moves.append(Move(step: name, event: event, result: nil))
            // An event may come with the result (an action's `success` with its data, so that `set` runs): with
            // each result tried, as a guard after it may need any of them.
            for values in results { moves.append(Move(step: name, event: event, result: values)) }
        }
        return moves
    }

    /// The run of `moves` from `start`, as a script with these steps runs it: each move made at the step it names.
    static func replay(start: (Start, RunStart), moves: [Move], flow: CompiledFlow, resolver: FlowResolver?) -> ScenarioResult {
        func failed(_ message: String, _ run: FlowRun?) -> ScenarioResult {
            ScenarioResult(name: "", passed: false, failures: [ScenarioFailure(message: message, file: nil, position: .start)],
                           path: run?.path ?? [], outcome: run?.outcome, state: run?.state ?? [:], trace: run?.trace ?? [])
        }
        var run: FlowRun
        do {
            run = try FlowRun(flow: flow, start: start.1, resolver: resolver)
        } catch {
            return failed(error.message, nil)
        }
        for (index, move) in moves.enumerated() {
            guard run.currentStep == move.step else { return failed("move \(index + 1): the run is at '\(run.currentStep ?? "the end")', not '\(move.step)'", run) }
            do {
                try run.complete(event: move.event, result: move.result)
            } catch {
                return failed("move \(index + 1): \(error.message)", run)
            }
        }
        var result = ScenarioResult(name: "", passed: run.outcome != nil, failures: run.outcome == nil ? [ScenarioFailure(message: "the moves ended before the flow finished", file: nil, position: .start)] : [],
                                    path: run.path, outcome: run.outcome, state: run.state, trace: run.trace)
        if case .entry(let name, _, _) = start.0 { result.entry = name }
        return result
    }

    /// What identifies a run's situation: each level's flow, history and state (the trace and path left out), a
    /// text over 256 bytes by its length and the FNV-1a 64 hash of its first and last 128 bytes (so that the key
    /// costs the same however long the texts are); and the bytes of state text the run state holds.
    static func stateKey(_ run: FlowRun) -> (key: String, bytes: Int, depth: Int) {
        if let outcome = run.outcome { return ("finished " + outcome, 0, 0) }
        var bytes = 0
        func text(_ value: Value) -> String {
            switch value {
            case .string(let string):
                let count = string.utf8.count
                bytes += count
                guard count > 256 else { return value.description }
                let utf8 = string.utf8
                return "#\(count):" + FlowLoader.fingerprint(Array(utf8.prefix(128)) + Array(utf8.suffix(128)))
            case .object(let fields):
                return "{" + fields.keys.sorted().map { JSONText.string($0) + ":" + text(fields[$0]!) }.joined(separator: ",") + "}"
            default:
                return value.description
            }
        }
        var depth = 0
        var key = ""
        for frame in run.frames {
            depth += frame.history.count
            key += frame.flow.flow.file + "|" + frame.history.map(String.init).joined(separator: ",") + "|"
                + frame.state.keys.sorted().map { "\($0)=\(text(frame.state[$0]!))" }.joined(separator: ";") + "\n"
        }
        return (key, bytes, depth)
    }

    /// The most steps a run state's history (every level's) may hold for the search to go on from it.
    package static let maxHistory = 64

    // MARK: Values

    /// The literals the flow's expressions (and its nested flows') hold, in the order written, each once; and the
    /// texts a run's state holds, for results.
    struct Literals {
        var ints: [Int64] = []
        var numbers: [Double] = []
        var strings: [String] = []
        var stateTexts: [String] = []

        mutating func add(int: Int64) { if ints.count < 64 && !ints.contains(int) { ints.append(int) } }
        mutating func add(number: Double) { if numbers.count < 64 && !numbers.contains(number) { numbers.append(number) } }
        mutating func add(string: String) { if strings.count < 64 && !strings.contains(string) { strings.append(string) } }
        mutating func addStateText(_ text: String) { if !strings.contains(text) && !stateTexts.contains(text) { stateTexts.append(text) } }
    }

    static func literals(in flow: CompiledFlow, resolver: FlowResolver?) -> Literals {
        var literals = Literals()
        for (_, current) in flows(of: flow, resolver: resolver) {
            var texts = current.events.compactMap { $0.expression?.text }
            for step in current.steps + (current.anyStep.map { [$0] } ?? []) {
                texts += step.set.map(\.expression.text) + step.input.map(\.expression.text)
                for target in step.on.flatMap(\.targets) + (step.next ?? []) {
                    texts += (target.condition.map { [$0.text] } ?? []) + target.set.map(\.expression.text)
                }
            }
            for text in texts { scan(text, into: &literals) }
        }
        return literals
    }

    /// Adds the numbers (negative ones with their sign, and their neighbours) and quoted strings of an expression's
    /// text.
    private static func scan(_ text: String, into literals: inout Literals) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "'" || scalar == "\"" {
                var value = ""
                var end = index + 1
                while end < scalars.count && scalars[end] != scalar {
                    if scalars[end] == "\\" && end + 1 < scalars.count { end += 1 }
                    value.unicodeScalars.append(scalars[end])
                    end += 1
                }
                literals.add(string: value)
                index = end + 1
            } else if ("0"..."9").contains(scalar) && (index == 0 || !Self.isWordScalar(scalars[index - 1])) {
                var end = index
                while end < scalars.count && (("0"..."9").contains(scalars[end]) || scalars[end] == ".") { end += 1 }
                let token = String(String.UnicodeScalarView(scalars[index..<end]))
                // A unary minus before it (`> -3`, `(-3`, `-3` first) makes a negative literal: its value is tried, then
                // the number's.
                var before = index - 1
                while before >= 0 && scalars[before] == " " { before -= 1 }
                var operand = before - 1
                while operand >= 0 && scalars[operand] == " " { operand -= 1 }
                let negative = before >= 0 && scalars[before] == "-" && (operand < 0 || !(Self.isWordScalar(scalars[operand]) || scalars[operand] == ")" || scalars[operand] == "]"))
                if let int = Int64(token) {
                    if negative { literals.add(int: -int) }
                    literals.add(int: int)
                } else if let number = Double(token) {
                    if negative { literals.add(number: -number) }
                    literals.add(number: number)
                }
                index = end
            } else {
                index += 1
            }
        }
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "."
    }

    /// The values tried for a key of `type`, the first the plainest, as a person would choose them: the flow's
    /// literals first, then their neighbours, then round numbers; `"text"` only when the flow has no string
    /// literal. `unsetFirst`: an optional key's `null` (unset) comes first, not last.
    static func candidates(_ type: TypeRef, literals: Literals, unsetFirst: Bool = false, broad: Bool = false) -> [Value] {
        var values: [Value]
        func unique<T: Hashable>(_ items: [T]) -> [T] {
            var seen: Set<T> = []
            return items.filter { seen.insert($0).inserted }
        }
        switch type.base {
        case .int:
            let neighbours = literals.ints.flatMap { [$0 == .min ? $0 : $0 - 1, $0 == .max ? $0 : $0 + 1] }
            values = unique(literals.ints + neighbours + [0, 1, 10, 100, 1_000]).map { .int($0) }
        case .number:
            // An integer literal compares with numbers too (`state.total > 250`).
            let written = unique(literals.numbers + literals.ints.map(Double.init))
            let neighbours = written.flatMap { [$0 - 0.5, $0 + 0.5] }
            values = unique(written + neighbours + [0, 1, 10, 100]).filter(\.isFinite).map { .number($0) }
        case .string:
            values = unique((literals.strings.isEmpty ? ["text"] : literals.strings) + literals.stateTexts).map(Value.string)
        case .bool: values = [.bool(true), .bool(false)]
        case .enumeration(let cases): values = unique(cases).map(Value.string)
        case .object(let fields): values = results(fields, literals: literals, limit: 8, broad: broad).map(Value.object)
        }
        if type.optional {
            if unsetFirst { values.insert(.null, at: 0) } else if broad { values.insert(.null, at: min(1, values.count)) } else { values.append(.null) }
        }
        return values
    }

    /// Results for `fields`: the plainest one, then each key varied over its values with the others plain (so
    /// their number grows with the keys, not their product), at most `limit`. An optional key left null is left
    /// out. `broad` (the witness search's order) tries an optional key's `null` second and varies the keys in
    /// turn (each key's second value, then each key's third, …), so that no key's values crowd out another's.
    static func results(_ fields: [Field], literals: Literals, limit: Int, unsetFirst: Bool = false, broad: Bool = false) -> [[String: Value]] {
        let options = fields.map { candidates($0.type, literals: literals, unsetFirst: unsetFirst, broad: broad) }
        func make(_ choice: [Int]) -> [String: Value] {
            var values: [String: Value] = [:]
            for (index, field) in fields.enumerated() where !options[index].isEmpty {
                let value = options[index][choice[index]]
                if value != .null { values[field.name.text] = value }
            }
            return values
        }
        let plain = [Int](repeating: 0, count: fields.count)
        var results = [make(plain)]
        var seen: Set<[Int]> = [plain]
        func add(_ choice: [Int]) {
            if results.count < limit && seen.insert(choice).inserted { results.append(make(choice)) }
        }
        if broad {
            for alternative in 1..<max(options.map(\.count).max() ?? 1, 1) {
                for index in fields.indices where alternative < options[index].count {
                    var choice = plain
                    choice[index] = alternative
                    add(choice)
                }
            }
        } else {
            for index in fields.indices {
                for alternative in options[index].indices.dropFirst() {
                    var choice = plain
                    choice[index] = alternative
                    add(choice)
                }
            }
        }
        // Lockstep: every key at its i-th value (its last when it has fewer), for guards that need several keys
        // away from the plainest at once (`result.n > 99 && result.code == 'X7'`).
        let longest = options.map(\.count).max() ?? 0
        for step in 1..<max(longest, 1) {
            add(options.map { $0.isEmpty ? 0 : min(step, $0.count - 1) })
        }
        return results
    }

    /// The keys only the host gives (docs/format.md, "Generated scenarios"): the inputs (required ones not
    /// optional) and the optional state keys nothing in the flow sets, as fields.
    static func hostKeys(_ flow: Flow) -> [Field] {
        let types = Dictionary(flow.state.map { ($0.name.text, $0) }, uniquingKeysWith: { first, _ in first })
        let required = Set(flow.requiredInputs)
        var set: Set<String> = []
        for step in flow.steps + (flow.anyStep.map { [$0] } ?? []) {
            set.formUnion(step.set.map(\.key.text))
            for target in step.on.flatMap(\.targets) + (step.next ?? []) { set.formUnion(target.set.map(\.key.text)) }
        }
        var fields: [Field] = []
        var added: Set<String> = []
        for input in flow.inputs {
            guard let field = types[input.text], added.insert(input.text).inserted else { continue }
            var type = field.type
            type.optional = !required.contains(input.text)
            fields.append(Field(name: field.name, type: type))
        }
        for field in flow.state where field.type.optional && !set.contains(field.name.text) && added.insert(field.name.text).inserted {
            fields.append(field)
        }
        return fields
    }

    /// The starts searched: `start` with host states, then each entry (nested ones too) with its parameters and
    /// host states, each set varied as results vary.
    /// `host`: the keys the host gives (by default, `hostKeys`).
    static func starts(_ flow: CompiledFlow, resolver: FlowResolver?, literals: Literals, host given: [Field]? = nil) -> [(Start, RunStart)] {
        let host = given ?? hostKeys(flow.flow)
        var starts: [(Start, RunStart)] = []
        for state in results(host, literals: literals, limit: 48, unsetFirst: true) {
            starts.append((.state(state), .start(state: state)))
        }
        for entry in flow.flow.entries {
            // The parameters' types: the state keys they fill, the nested flow's for a nested entry.
            var owner = flow.flow
            if entry.nestedEntry != nil, let step = flow.flow.step(named: entry.step.text), let reference = step.flowPath,
               let child = try? resolver?.resolve(reference, from: flow.flow.file) {
                owner = child.flow
            }
            let parameters = EntryPath.parameters(entry.path)
            let fields = parameters.map { key -> Field in
                var type = owner.state.first { $0.name.text == key }?.type ?? TypeRef(base: .string, optional: false, position: .start)
                type.optional = false
                return Field(name: Name(key, at: .start), type: type)
            } + host.filter { !parameters.contains($0.name.text) }.map { field in
                // A run begun at an entry is given its path's parameters only: an input, required at `start`, may
                // be left out (docs/format.md, "Inputs").
                var field = field
                field.type.optional = true
                return field
            }
            for values in results(fields, literals: literals, limit: 16, unsetFirst: true) {
                var params: [String: String] = [:]
                var state: [String: Value] = [:]
                for (key, value) in values {
                    if parameters.contains(key) { params[key] = text(value) } else { state[key] = value }
                }
                starts.append((.entry(entry.name.text, params: params, state: state), .entry(entry.name.text, params: params, state: state)))
            }
        }
        return starts
    }

    /// The flow and the nested flows it runs, each once, with their names in coverage, in a fixed order (the flow,
    /// then depth first from its last `flow` step), so that what is read from them keeps the order written.
    static func flows(of flow: CompiledFlow, resolver: FlowResolver?) -> [(name: String, flow: Flow)] {
        var flows: [(name: String, flow: Flow)] = []
        var seen: Set<String> = []
        var queue = [flow.flow]
        while let current = queue.popLast() {
            let name = CoverageRecorder.display(current.file)
            guard seen.insert(name).inserted else { continue }
            flows.append((name, current))
            for step in current.steps where step.kind == .flow {
                if let reference = step.flowPath, let resolver, let child = try? resolver.resolve(reference, from: current.file) { queue.append(child.flow) }
            }
        }
        return flows
    }

    /// A value as a path parameter's text.
    static func text(_ value: Value) -> String {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .number(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null, .object: return "x"
        }
    }
}

/// Why an option no scenario covers was never taken, blaming the first thing that failed (docs/format.md,
/// "Generated scenarios"): the option itself at a step runs reach, or the first option in file order that leads to
/// its step (through steps no run reaches) and is never taken at a step runs reach; with the host keys its
/// condition reads.
struct Blame {
    /// An option: its step, target, list (`on EVENT`, `next`) and place in the list.
    typealias Option = (step: String, target: Target, list: String, index: Int)

    /// The flows by their names in coverage.
    let flows: [String: Flow]
    /// The name of the flow generated for: only its keys come from the host (a nested flow's come from its parent).
    let main: String
    /// The main flow's host keys.
    let host: Set<String>
    /// Steps runs reached, as `file\nstep`.
    let reached: Set<String>
    /// Options runs took.
    let taken: Set<PlacedItem>
    /// Per file, per step: the options that lead to it, with what they are as coverage items.
    let predecessors: [String: [String: [(option: Option, identity: CoverageIdentity)]]]
    /// Per file: the `flow` steps that run it, as (file, step), in file-name order.
    let parents: [String: [(file: String, step: String)]]

    /// `flows` as `ScenarioGenerator.flows(of:resolver:)` gives them, the generated-for flow first.
    init(flows: [(name: String, flow: Flow)], reached: Set<String>, taken: Set<PlacedItem>) {
        self.flows = Dictionary(flows.map { ($0.name, $0.flow) }, uniquingKeysWith: { first, _ in first })
        main = flows.first?.name ?? ""
        host = Set(flows.first.map { ScenarioGenerator.hostKeys($0.flow).map(\.name.text) } ?? [])
        self.reached = reached
        self.taken = taken
        predecessors = self.flows.mapValues(Self.predecessors)
        var parents: [String: [(file: String, step: String)]] = [:]
        for (name, parent) in flows.sorted(by: { $0.name < $1.name }) {
            let directory = FilePath.directory(of: parent.file)
            for step in parent.steps where step.kind == .flow {
                guard let reference = step.flowPath else { continue }
                parents[CoverageRecorder.display((directory.isEmpty ? "." : directory) + "/" + reference), default: []].append((name, step.name.text))
            }
        }
        self.parents = parents
    }

    /// The options of `flow` that lead to each step (its own and the `"*"` ones each step uses), with what they
    /// are as coverage items.
    static func predecessors(of flow: Flow) -> [String: [(option: Option, identity: CoverageIdentity)]] {
        var predecessors: [String: [(option: Option, identity: CoverageIdentity)]] = [:]
        for step in flow.steps where step.kind != .finish {
            var lists: [(CoverageIdentity.OptionList, Bool, [Target])] = step.on.map { (.on($0.event.text), false, $0.targets) }
            if let next = step.next { lists.append((.next, false, next)) }
            if let any = flow.anyStep {
                for handler in any.on where step.handler(for: handler.event.text) == nil {
                    lists.append((.on(handler.event.text), true, handler.targets))
                }
                if step.next == nil, let next = any.next { lists.append((.next, true, next)) }
            }
            for (list, viaStar, targets) in lists {
                for (index, option) in targets.enumerated() {
                    guard let to = option.stepName?.text else { continue }
                    predecessors[to, default: []].append(((step.name.text, option, list.text, index),
                                                          .transition(step: step.name.text, list: list, index: index, viaStar: viaStar)))
                }
            }
        }
        return predecessors
    }

    /// The reason for the option `identity` of `file`, nil when there is nothing to blame.
    func reason(for identity: CoverageIdentity, in file: String) -> Message? {
        guard let flow = flows[file], let option = Self.option(identity, in: flow) else { return nil }
        if reached.contains(file + "\n" + option.step) {
            guard let condition = option.target.condition else { return nil }
            return describe(option) + " is never taken at step '\(name: option.step)', which runs reach" + hostNote(condition, in: file)
        }
        return unreached(option.step, in: file, depth: 0).map { "no run reaches step '\(name: option.step)': \($0)" }
    }

    /// What keeps runs from step `target` of the flow in `file`: the first option in file order that leads to it
    /// (through steps no run reaches) and is never taken at a step runs reach; or, for a nested flow, what keeps
    /// runs from the `flow` steps that run it.
    func unreached(_ target: String, in file: String, depth: Int) -> Message? {
        let leading = predecessors[file] ?? [:]
        var queue = [target]
        var seen: Set<String> = [target]
        var blamed: [Option] = []
        while let step = queue.popLast() {
            for (option, identity) in leading[step] ?? [] {
                if reached.contains(file + "\n" + option.step) {
                    if !taken.contains(PlacedItem(file: file, identity: identity)) { blamed.append(option) }
                } else if seen.insert(option.step).inserted {
                    queue.append(option.step)
                }
            }
        }
        if let first = blamed.min(by: { $0.target.position < $1.target.position }) {
            return "\(describe(first)) is never taken at step '\(name: first.step)', which runs reach" + (first.target.condition.map { hostNote($0, in: file) } ?? "")
        }
        // A nested flow: what keeps runs from the `flow` steps that run it (not from steps of its own).
        guard depth < 8 else { return nil }
        for (parentFile, step) in parents[file] ?? [] where parentFile != file && !reached.contains(parentFile + "\n" + step) {
            if let why = unreached(step, in: parentFile, depth: depth + 1) {
                return "no run reaches step '\(name: step)' of \(path: parentFile), which runs it: " + why
            }
        }
        return nil
    }

    /// The option a transition is: its step, target, list and place.
    static func option(_ identity: CoverageIdentity, in flow: Flow) -> Option? {
        guard case .transition(let step, let list, let index, let viaStar) = identity,
              let owner = viaStar ? flow.anyStep : flow.step(named: step) else { return nil }
        let targets: [Target]?
        switch list {
        case .on(let event): targets = owner.handler(for: event)?.targets
        case .next: targets = owner.next
        }
        guard let targets, index < targets.count else { return nil }
        return (step, targets[index], list.text, index)
    }

    /// `option 'STEP --LIST [i]--> TARGET' (if CONDITION)`.
    func describe(_ option: Option) -> Message {
        "option '\(path: option.step) --\(path: option.list) [\(option.index)]--> \(path: NormalForm.move(option.target).replacingOccurrences(of: "'", with: ""))'"
            + (option.target.condition.map { " (if \(path: $0.text, limit: 120))" } ?? "")
    }

    /// `: it reads state 'k', which only the host can give, and no host state tried makes it hold`, when the
    /// condition, in the generated-for flow's `file`, reads host keys.
    func hostNote(_ condition: ExpressionSource, in file: String) -> Message {
        guard file == main, case .success(let parsed) = ExpressionParser.parse(condition) else { return "" }
        var read: [String] = []
        func walk(_ node: ExpressionNode) {
            switch node {
            case .literal: break
            case .path(let path), .exists(let path, _):
                if path.root.rawValue == "state", let key = path.keys.first, host.contains(key), !read.contains(key) { read.append(key) }
            case .unary(_, let operand, _): walk(operand)
            case .binary(_, let lhs, let rhs, _): walk(lhs); walk(rhs)
            case .conditional(let a, let b, let c, _): walk(a); walk(b); walk(c)
            case .membership(let value, let list, _): walk(value); list.forEach(walk)
            }
        }
        walk(parsed.root)
        guard !read.isEmpty else { return "" }
        return ": it reads state \(Message.quoted(read)), which only the host can give, and no host state tried makes it hold"
    }
}

/// A coverage item of a file: what the search looks for, witnesses, takes and blames.
struct PlacedItem: Hashable, Sendable {
    /// The flow file, as coverage names it.
    var file: String
    /// The item.
    var identity: CoverageIdentity
}
