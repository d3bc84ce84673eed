import Foundation

/// Writes scenarios that cover a flow's transitions (docs/format.md, "Generated scenarios"): a breadth-first search
/// over runs of the engine itself, from `start` and from every entry, trying at each step the events it takes, a
/// completion with nothing when it allows one, and results made of the values that matter to the flow's
/// expressions. Each scenario is the shortest run found to a transition not yet covered, carried on to the nearest
/// finish; its `expect` is what the engine did.
public struct ScenarioGenerator {
    /// One completion of a generated scenario.
    public struct Move: Sendable, Equatable {
        /// The step the run is at (qualified inside nested flows).
        public var step: String
        /// The explicit event, when there is one.
        public var event: String?
        /// The result, when there is one.
        public var result: [String: Value]?
    }

    /// Where a generated scenario starts.
    public enum Start: Sendable, Equatable {
        /// At `start` with these inputs.
        case state([String: Value])
        /// At an entry, with its path parameters.
        case entry(String, params: [String: String])
    }

    /// A generated scenario: its moves and what the engine did.
    public struct GeneratedScenario: Sendable {
        /// Its name.
        public var name: String
        /// Where it starts.
        public var start: Start
        /// Its completions.
        public var moves: [Move]
        /// The run of it.
        public var result: ScenarioResult
        /// The transitions it covers that the scenarios before it did not (descriptions with file positions).
        public var covers: [String]
    }

    /// What the generator found.
    public struct Generated: Sendable {
        /// The scenarios, in the order they were chosen.
        public var scenarios: [GeneratedScenario]
        /// The transitions left uncovered, with why: `file:line:column: description: reason`.
        public var uncovered: [String]
        /// How many run states the search visited.
        public var statesVisited: Int
    }

    /// The most run states a search visits before it gives up on what it has not reached.
    public var budget: Int
    /// The most results tried at one step.
    public var maxResults: Int

    /// A generator with a search budget.
    public init(budget: Int = 20_000, maxResults: Int = 48) {
        self.budget = budget
        self.maxResults = maxResults
    }

    // MARK: The search

    private struct SearchNode {
        var run: FlowRun
        var parent: Int?
        var move: Move?
        var start: Int
    }

    /// Scenarios that cover the coverable transitions of `flow` (and the nested flows it runs) that `covered`
    /// (coverage of existing scenarios, to extend them) does not already cover.
    public func generate(flow: CompiledFlow, resolver: FlowResolver?, covered: Coverage? = nil) -> Generated {
        let literals = Self.literals(in: flow, resolver: resolver)
        // The starts: `start` with the inputs, then each entry.
        var starts: [(Start, RunStart)] = []
        let inputs = Self.inputValues(flow.flow, literals: literals)
        starts.append((.state(inputs), .start(state: inputs)))
        for entry in flow.flow.entries where entry.nestedEntry == nil {
            var params: [String: String] = [:]
            for key in EntryPath.parameters(entry.path) {
                let type = flow.flow.state.first { $0.name.text == key }?.type ?? TypeRef(base: .string, optional: false, position: .start)
                params[key] = Self.text(Self.candidates(type, literals: literals).first ?? .string("x"))
            }
            starts.append((.entry(entry.name.text, params: params), .entry(entry.name.text, params: params, state: [:])))
        }

        // The items to cover, by file and key, in file order.
        var recorder = CoverageRecorder(flow: flow, resolver: resolver)
        let baseline = covered ?? recorder.coverage
        var wanted: [(file: String, item: CoverageItem)] = []
        for file in recorder.coverage.files {
            let already = baseline.files.first { $0.file == file.file }
            for item in file.items where item.kind == .transition && item.coverable {
                if let done = already?.items.first(where: { $0.key == item.key }), done.hits > 0 { continue }
                wanted.append((file.file, item))
            }
        }
        let wantedKeys = Set(wanted.map { $0.file + "\n" + $0.item.key })

        // Breadth-first over run states: the first node whose move takes an item witnesses it.
        var nodes: [SearchNode] = []
        var seen: Set<String> = []
        var witness: [String: Int] = [:]
        var reachedSteps: Set<String> = []
        var queue: [Int] = []
        var head = 0
        for (index, start) in starts.enumerated() {
            guard var run = try? FlowRun(flow: flow, start: start.1, resolver: resolver) else { continue }
            run.forgetPast()
            if seen.insert(Self.stateKey(run)).inserted {
                nodes.append(SearchNode(run: run, parent: nil, move: nil, start: index))
                queue.append(nodes.count - 1)
            }
        }
        while head < queue.count && nodes.count < budget && witness.count < wantedKeys.count {
            let index = queue[head]
            head += 1
            let node = nodes[index]
            guard let current = node.run.currentStep, let definition = node.run.currentStepDefinition else { continue }
            reachedSteps.insert(CoverageRecorder.display(definition.flow.file) + "\n" + definition.step.name.text)
            for move in moves(for: node.run, at: current, step: definition.step, in: definition.flow, literals: literals) {
                var run = node.run
                let before = run.trace.count
                do {
                    try run.complete(event: move.event, result: move.result)
                } catch {
                    continue
                }
                var newNode: Int?
                for entry in run.trace[before...] {
                    guard let taken = entry.taken else { continue }
                    let key = CoverageRecorder.display(taken.file) + "\n" + Self.transitionKey(entry, taken)
                    guard wantedKeys.contains(key), witness[key] == nil else { continue }
                    if newNode == nil {
                        nodes.append(SearchNode(run: run, parent: index, move: move, start: node.start))
                        newNode = nodes.count - 1
                    }
                    witness[key] = newNode
                }
                guard run.outcome == nil, seen.insert(Self.stateKey(run)).inserted else { continue }
                run.forgetPast()
                if let witnessed = newNode { nodes[witnessed].run = run }
                if newNode == nil {
                    nodes.append(SearchNode(run: run, parent: index, move: move, start: node.start))
                    newNode = nodes.count - 1
                }
                queue.append(newNode!)
                if nodes.count >= budget { break }
            }
        }

        // Greedy: the witness of the first item not yet covered, carried on to a finish, as long as items remain.
        var scenarios: [GeneratedScenario] = []
        var coveredKeys: Set<String> = []
        var failed: [String: String] = [:]
        // The searches on to a finish share one budget, each taking at most a quarter of it, so that work stays
        // bounded however many items are witnessed.
        var finishBudget = budget
        var noFinish: Set<String> = []
        for (file, item) in wanted {
            let key = file + "\n" + item.key
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
                failed[key] = "its run could not be replayed: \(result.error ?? "it did not finish")"
                continue
            }
            var single = CoverageRecorder(flow: flow, resolver: resolver)
            single.record(result)
            var newlyCovered: [String] = []
            for coverageFile in single.coverage.files {
                for covered in coverageFile.items where covered.hits > 0 && covered.kind == .transition {
                    let coveredKey = coverageFile.file + "\n" + covered.key
                    if wantedKeys.contains(coveredKey), coveredKeys.insert(coveredKey).inserted {
                        newlyCovered.append("\(coverageFile.file):\(covered.line):\(covered.column): \(covered.description)")
                    }
                }
            }
            recorder.record(result)
            scenarios.append(GeneratedScenario(name: "generated \(scenarios.count + 1): " + item.description, start: start.0, moves: moves,
                                               result: result, covers: newlyCovered))
        }
        var uncovered: [String] = []
        for (file, item) in wanted where !coveredKeys.contains(file + "\n" + item.key) {
            let key = file + "\n" + item.key
            let owner = item.key.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            let reason = failed[key] ?? (reachedSteps.contains(file + "\n" + owner)
                ? "step '\(owner)' is reached, but no completion tried takes this option (results are made of the values the flow's expressions compare with)"
                : "no run reaches step '\(owner)' within the budget of \(budget) run states")
            uncovered.append("\(file):\(item.line):\(item.column): \(item.description): \(reason)")
        }
        return Generated(scenarios: scenarios, uncovered: uncovered, statesVisited: nodes.count)
    }

    /// The shortest continuation from `run` to a finished run, visiting at most a quarter of the budget and no
    /// more than `remaining` run states (which it lowers by what it visits). A search that fails adds the states
    /// it saw to `noFinish`, and a later one from any of them fails at once.
    private func finish(from run: FlowRun, literals: Literals, remaining: inout Int, noFinish: inout Set<String>) -> [Move]? {
        if run.outcome != nil { return [] }
        var run = run
        run.forgetPast()
        let startKey = Self.stateKey(run)
        if noFinish.contains(startKey) { return nil }
        var nodes: [(run: FlowRun, parent: Int?, move: Move?)] = [(run, nil, nil)]
        var seen: Set<String> = [startKey]
        let limit = min(remaining, max(1, budget / 4))
        defer {
            remaining -= min(remaining, nodes.count)
        }
        var head = 0
        while head < nodes.count && nodes.count < limit {
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
                guard seen.insert(Self.stateKey(next)).inserted else { continue }
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
        if step.result != nil, let state = run.snapshot().levels.last?.state {
            for case .string(let text) in state.values where literals.strings.count < 80 { literals.strings.insert(text) }
        }
        var moves: [Move] = []
        let results = step.result.map { Self.results($0, literals: literals, limit: maxResults) } ?? []
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
        if case .entry(let name, _) = start.0 { result.entry = name }
        return result
    }

    /// The coverage key of the option a trace entry took (as `CoverageRecorder` counts it).
    static func transitionKey(_ entry: TraceEntry, _ taken: TraceEntry.Taken) -> String {
        let step = String(entry.step.split(separator: "/").last ?? Substring(entry.step))
        return "transition \(step) " + (taken.shared ? "* " : "") + (taken.handler.map { "on " + $0 } ?? "next") + " \(taken.option)"
    }

    /// What identifies a run's situation: each level's flow, history and state (the trace and path left out).
    static func stateKey(_ run: FlowRun) -> String {
        if let outcome = run.outcome { return "finished " + outcome }
        return run.snapshot().levels.map { level in
            level.flow + "|" + level.history.joined(separator: ",") + "|"
                + level.state.keys.sorted().map { "\($0)=\(level.state[$0]!)" }.joined(separator: ";")
        }.joined(separator: "\n")
    }

    // MARK: Values

    /// The literals the flow's expressions (and its nested flows') hold: numbers and strings.
    struct Literals {
        var ints: Set<Int64> = [0, 1]
        var numbers: Set<Double> = [0, 1.5]
        var strings: Set<String> = ["text"]
    }

    static func literals(in flow: CompiledFlow, resolver: FlowResolver?) -> Literals {
        var literals = Literals()
        var queue = [flow.flow]
        var seen: Set<String> = []
        while let current = queue.popLast() {
            guard seen.insert(current.file).inserted else { continue }
            var texts = current.events.compactMap { $0.expression?.text }
            for step in current.steps + (current.anyStep.map { [$0] } ?? []) {
                texts += step.set.map(\.expression.text) + step.input.map(\.expression.text)
                for target in step.on.flatMap(\.targets) + (step.next ?? []) {
                    texts += (target.condition.map { [$0.text] } ?? []) + target.set.map(\.expression.text)
                }
                if step.kind == .flow, let reference = step.flowPath, let resolver, let child = try? resolver.resolve(reference, from: current.file) {
                    queue.append(child.flow)
                }
            }
            for text in texts { scan(text, into: &literals) }
        }
        return literals
    }

    /// Adds the numbers (and their neighbours) and quoted strings of an expression's text.
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
                if literals.strings.count < 64 { literals.strings.insert(value) }
                index = end + 1
            } else if ("0"..."9").contains(scalar) && (index == 0 || !Self.isWordScalar(scalars[index - 1])) {
                var end = index
                while end < scalars.count && (("0"..."9").contains(scalars[end]) || scalars[end] == ".") { end += 1 }
                let token = String(String.UnicodeScalarView(scalars[index..<end]))
                if let int = Int64(token), literals.ints.count < 64 {
                    literals.ints.formUnion([int - 1, int, int + 1].compactMap { $0 })
                } else if let number = Double(token), literals.numbers.count < 64 {
                    literals.numbers.formUnion([number - 0.5, number, number + 0.5])
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

    /// The values tried for a key of `type`, the first the plainest.
    static func candidates(_ type: TypeRef, literals: Literals) -> [Value] {
        var values: [Value]
        switch type.base {
        case .int: values = literals.ints.sorted().map { .int($0) }
        case .number: values = literals.numbers.sorted().map { .number($0) }
        case .string: values = ["text"].map(Value.string) + literals.strings.subtracting(["text"]).sorted().map(Value.string)
        case .bool: values = [.bool(true), .bool(false)]
        case .enumeration(let cases): values = cases.map(Value.string)
        case .object(let fields): values = results(fields, literals: literals, limit: 8).map(Value.object)
        }
        if type.optional { values.append(.null) }
        return values
    }

    /// Results for `fields`: the plainest one, then each key varied over its values with the others plain (so
    /// their number grows with the keys, not their product), at most `limit`. An optional key left null is left
    /// out.
    static func results(_ fields: [Field], literals: Literals, limit: Int) -> [[String: Value]] {
        let options = fields.map { candidates($0.type, literals: literals) }
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
        for index in fields.indices {
            for alternative in options[index].indices.dropFirst() {
                var choice = plain
                choice[index] = alternative
                add(choice)
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

    /// The inputs a run at `start` is given: the plainest value of each.
    static func inputValues(_ flow: Flow, literals: Literals) -> [String: Value] {
        var values: [String: Value] = [:]
        for input in flow.inputs {
            guard let type = flow.state.first(where: { $0.name.text == input.text })?.type, !type.optional,
                  let value = candidates(type, literals: literals).first else { continue }
            values[input.text] = value
        }
        return values
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
