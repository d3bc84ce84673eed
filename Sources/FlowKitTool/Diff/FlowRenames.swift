import FlowKit

/// The steps, events and outcomes `flowkit diff` reads as renamed rather than removed and added
/// (docs/format.md, "Renames").
package struct FlowRenames: Sendable, Equatable {
    /// One rename: the old and the new name, and how sure the comparison is.
    package struct Rename: Sendable, Equatable {
        /// The name in the old file.
        package var old: Name
        /// The name in the new file.
        package var new: Name
        /// How sure the comparison is, in percent: the share of the things compared that agree. 100 means that
        /// nothing but the name changed; `--fix-scripts` follows only those.
        package var confidence: Int
        /// What agrees (`title`, `transitions`, `references`, `body`, `handlers`, `finish steps`).
        package var agreeing: [String]
        /// What differs.
        package var differing: [String]
    }

    /// Renamed steps, in the new file's order.
    package var steps: [Rename] = []
    /// Renamed events, in the new file's order.
    package var events: [Rename] = []
    /// Renamed outcomes, in the new file's order.
    package var outcomes: [Rename] = []

    /// Old step name to new.
    package var stepNames: [String: String] { Dictionary(steps.map { ($0.old.text, $0.new.text) }, uniquingKeysWith: { first, _ in first }) }
    /// Old event name to new.
    package var eventNames: [String: String] { Dictionary(events.map { ($0.old.text, $0.new.text) }, uniquingKeysWith: { first, _ in first }) }
    /// Old outcome to new.
    package var outcomeNames: [String: String] { Dictionary(outcomes.map { ($0.old.text, $0.new.text) }, uniquingKeysWith: { first, _ in first }) }

    /// The most steps that may look alike (share a bucket) for a rename among them to be recognised.
    static let maxLookAlikes = 32
    /// The most rounds of matching: each round may recognise renames the previous ones made visible (a step
    /// whose transitions go to a renamed step).
    static let maxRounds = 8

    /// Finds the renames from `old` to `new` (docs/format.md, "Renames").
    package static func find(old: Flow, new: Flow) -> FlowRenames {
        var renames = FlowRenames()
        renames.findSteps(old: old, new: new)
        renames.findEvents(old: old, new: new)
        renames.findOutcomes(old: old, new: new)
        renames.scoreSteps(old: old, new: new)
        return renames
    }

    // MARK: Steps

    /// What a step is compared by, with step names read through a renaming and the step itself as `self`.
    private struct StepFeatures {
        var step: Step
        var title: String?
        var transitions: String
        var references: String
        var body: String

        var keys: [String] {
            let kind = step.kind.rawValue
            return ["t\u{0}\(kind)\u{0}\(transitions)\u{0}\(title ?? "\u{1}")",
                    "r\u{0}\(kind)\u{0}\(references)\u{0}\(title ?? "\u{1}")",
                    "b\u{0}\(kind)\u{0}\(transitions)\u{0}\(references)"]
        }
    }

    private static func features(of flow: Flow, steps: [Step], renamed: [String: String], events: [String: String]) -> [StepFeatures] {
        func on(_ event: String) -> String { "on " + (events[event] ?? event) }
        // Every option that moves to a step, as `FROM LIST [INDEX] MOVE`, and the start and entries.
        var references: [String: [String]] = [:]
        references[flow.start.text, default: []].append("start")
        for entry in flow.entries { references[entry.step.text, default: []].append("entry \(entry.name.text)") }
        for step in flow.steps + (flow.anyStep.map { [$0] } ?? []) {
            let from = step.name.text
            let lists = step.on.map { (on($0.event.text), $0.targets) } + [("next", step.next ?? [])]
            for (list, targets) in lists {
                for (index, target) in targets.enumerated() {
                    guard let to = target.stepName?.text else { continue }
                    let source = from == to ? "self" : (renamed[from] ?? from)
                    let back = if case .back = target.move { " back" } else { "" }
                    references[to, default: []].append("\(source) \(list) [\(index)]\(back)")
                }
            }
        }
        return steps.map { step in
            let own = step.name.text
            let names = { (name: String) -> String in name == own ? "\u{0}self" : (renamed[name] ?? name) }
            let transitions = step.on.map { (on($0.event.text), $0.targets) }.sorted { $0.0 < $1.0 }
                .map { "\($0.0): " + NormalForm.list($0.1, name: names) }
                + (step.next.map { ["next: " + NormalForm.list($0, name: names)] } ?? [])
            let body = [NormalForm.fields(step.result), NormalForm.assignments(step.set), step.flowPath, NormalForm.assignments(step.input),
                        step.outcome?.text].map { $0 ?? "" }
            return StepFeatures(step: step, title: step.title, transitions: transitions.joined(separator: "\n"),
                                references: (references[step.name.text] ?? []).sorted().joined(separator: "\n"),
                                body: body.contains { !$0.isEmpty } ? body.joined(separator: "\u{0}") : "")
        }
    }

    /// The score of a pair (in twelfths, so that two, three and four things compared divide it) and what agrees
    /// and differs; nil when the pair is not a rename (unless `always`).
    private static func score(_ a: StepFeatures, _ b: StepFeatures, always: Bool = false) -> (score: Int, agreeing: [String], differing: [String])? {
        guard a.step.kind == b.step.kind || always else { return nil }
        var agreeing: [String] = []
        var differing: [String] = []
        func compare(_ name: String, _ lhs: String?, _ rhs: String?) {
            guard (lhs ?? "") != "" || (rhs ?? "") != "" else { return }
            if lhs == rhs { agreeing.append(name) } else { differing.append(name) }
        }
        compare("title", a.title, b.title)
        compare("transitions", a.transitions, b.transitions)
        compare("references", a.references, b.references)
        compare("body", a.body, b.body)
        let counted = agreeing.count + differing.count
        if always { return (counted == 0 ? 12 : agreeing.count * 12 / counted, agreeing, differing) }
        guard counted >= 2, agreeing.count * 3 >= counted * 2,
              agreeing.contains("transitions") || agreeing.contains("references") else { return nil }
        return (agreeing.count * 12 / counted, agreeing, differing)
    }

    private mutating func findSteps(old: Flow, new: Flow) {
        let newNames = Set(new.steps.map(\.name.text))
        let oldNames = Set(old.steps.map(\.name.text))
        var oldOnly = old.steps.filter { !newNames.contains($0.name.text) }
        var newOnly = new.steps.filter { !oldNames.contains($0.name.text) }
        var renamed: [String: String] = [:]
        var found: [String: Rename] = [:]
        // Events declared in one file only read alike on both sides while steps are matched (one may be renamed).
        let oldEvents = Set(old.events.map(\.name.text))
        let newEvents = Set(new.events.map(\.name.text))
        let eventReading = (old: Dictionary(oldEvents.subtracting(newEvents).map { ($0, "\u{0}unpaired") }, uniquingKeysWith: { first, _ in first }),
                            new: Dictionary(newEvents.subtracting(oldEvents).map { ($0, "\u{0}unpaired") }, uniquingKeysWith: { first, _ in first }))
        for _ in 0..<Self.maxRounds where !oldOnly.isEmpty && !newOnly.isEmpty {
            // Steps not paired yet read alike on both sides: "a step only in one file".
            let unpaired = "\u{0}unpaired"
            var oldReading = renamed
            for step in oldOnly { oldReading[step.name.text] = unpaired }
            let newReading = Dictionary(newOnly.map { ($0.name.text, unpaired) }, uniquingKeysWith: { first, _ in first })
            let before = Self.features(of: old, steps: oldOnly, renamed: oldReading, events: eventReading.old)
            let after = Self.features(of: new, steps: newOnly, renamed: newReading, events: eventReading.new)
            var oldBuckets: [String: [Int]] = [:]
            var newBuckets: [String: [Int]] = [:]
            for (index, features) in before.enumerated() { for key in features.keys { oldBuckets[key, default: []].append(index) } }
            for (index, features) in after.enumerated() { for key in features.keys { newBuckets[key, default: []].append(index) } }
            // Each side's unique best partner among the steps it shares a bucket with (buckets of a few only).
            var scores: [Int: [Int: (score: Int, agreeing: [String], differing: [String])]] = [:]
            for (key, olds) in oldBuckets where olds.count <= Self.maxLookAlikes {
                guard let news = newBuckets[key], news.count <= Self.maxLookAlikes else { continue }
                for i in olds {
                    for j in news where scores[i]?[j] == nil {
                        if let result = Self.score(before[i], after[j]) { scores[i, default: [:]][j] = result }
                    }
                }
            }
            func uniqueBest(_ options: [(Int, Int)]) -> Int? {
                guard let top = options.map(\.1).max() else { return nil }
                let best = options.filter { $0.1 == top }
                return best.count == 1 ? best[0].0 : nil
            }
            var oldBest: [Int: Int] = [:]
            var newOptions: [Int: [(Int, Int)]] = [:]
            for (i, row) in scores {
                oldBest[i] = uniqueBest(row.map { ($0.key, $0.value.score) })
                for (j, result) in row { newOptions[j, default: []].append((i, result.score)) }
            }
            var accepted: [(Int, Int)] = []
            for (j, options) in newOptions {
                if let i = uniqueBest(options), oldBest[i] == j { accepted.append((i, j)) }
            }
            guard !accepted.isEmpty else { break }
            for (i, j) in accepted {
                let result = scores[i]![j]!
                renamed[before[i].step.name.text] = after[j].step.name.text
                found[after[j].step.name.text] = Rename(old: before[i].step.name, new: after[j].step.name, confidence: result.score * 100 / 12,
                                                        agreeing: result.agreeing, differing: result.differing)
            }
            let taken = (old: Set(accepted.map { before[$0.0].step.name.text }), new: Set(accepted.map { after[$0.1].step.name.text }))
            oldOnly.removeAll { taken.old.contains($0.name.text) }
            newOnly.removeAll { taken.new.contains($0.name.text) }
        }
        steps = new.steps.compactMap { found[$0.name.text] }
    }

    /// Each step rename's confidence with all the renames known (steps and events by their new names), and every
    /// other step and event by its own name.
    private mutating func scoreSteps(old: Flow, new: Flow) {
        let renamed = stepNames
        let events = eventNames
        let pairedOld = old.steps.filter { renamed[$0.name.text] != nil }
        let newNames = Set(steps.map(\.new.text))
        let pairedNew = Dictionary(Self.features(of: new, steps: new.steps.filter { newNames.contains($0.name.text) }, renamed: [:], events: [:])
            .map { ($0.step.name.text, $0) }, uniquingKeysWith: { first, _ in first })
        var scored: [String: (Int, [String], [String])] = [:]
        for features in Self.features(of: old, steps: pairedOld, renamed: renamed, events: events) {
            let name = renamed[features.step.name.text]!
            if let after = pairedNew[name], let result = Self.score(features, after, always: true) { scored[name] = result }
        }
        for index in steps.indices {
            guard let (score, agreeing, differing) = scored[steps[index].new.text] else { continue }
            steps[index].confidence = score * 100 / 12
            steps[index].agreeing = agreeing
            steps[index].differing = differing
        }
    }

    // MARK: Events and outcomes

    /// Pairs names only in the old file with names only in the new one whose signatures are the same and belong
    /// to no other name on either side.
    private static func exactPairs(old: [(Name, String)], new: [(Name, String)], what: String) -> [Rename] {
        func unique(_ list: [(Name, String)]) -> [String: Name] {
            var seen: [String: Name?] = [:]
            for (name, signature) in list where !signature.isEmpty { seen[signature] = seen[signature] == nil ? .some(name) : .some(nil) }
            return seen.compactMapValues { $0 }
        }
        let before = unique(old)
        let after = unique(new)
        return new.compactMap { name, signature in
            guard let was = before[signature], after[signature] == name else { return nil }
            return Rename(old: was, new: name, confidence: 100, agreeing: [what], differing: [])
        }
    }

    private mutating func findEvents(old: Flow, new: Flow) {
        let steps = stepNames
        func signature(_ flow: Flow, _ event: EventDeclaration, renamed: [String: String]) -> String {
            var uses: [String] = []
            for step in flow.steps + (flow.anyStep.map { [$0] } ?? []) {
                for handler in step.on where handler.event.text == event.name.text {
                    uses.append("\(renamed[step.name.text] ?? step.name.text): \(NormalForm.list(handler.targets, renamed: renamed))")
                }
            }
            guard !uses.isEmpty else { return "" }
            return uses.sorted().joined(separator: "\n") + "\n" + (NormalForm.expression(event.expression) ?? "")
        }
        let newNames = Set(new.events.map(\.name.text))
        let oldNames = Set(old.events.map(\.name.text))
        events = Self.exactPairs(old: old.events.filter { !newNames.contains($0.name.text) }.map { ($0.name, signature(old, $0, renamed: steps)) },
                                 new: new.events.filter { !oldNames.contains($0.name.text) }.map { ($0.name, signature(new, $0, renamed: [:])) },
                                 what: "handlers")
    }

    private mutating func findOutcomes(old: Flow, new: Flow) {
        let steps = stepNames
        func outcomes(_ flow: Flow, renamed: [String: String]) -> [(Name, String)] {
            var order: [String] = []
            var first: [String: Name] = [:]
            var givers: [String: [String]] = [:]
            for step in flow.steps where step.kind == .finish {
                let name = step.outcome ?? step.name
                if first[name.text] == nil { first[name.text] = name; order.append(name.text) }
                givers[name.text, default: []].append(renamed[step.name.text] ?? step.name.text)
            }
            return order.map { (first[$0]!, givers[$0]!.sorted().joined(separator: "\n")) }
        }
        let before = outcomes(old, renamed: steps)
        let after = outcomes(new, renamed: [:])
        let oldNames = Set(before.map(\.0.text))
        let newNames = Set(after.map(\.0.text))
        self.outcomes = Self.exactPairs(old: before.filter { !newNames.contains($0.0.text) }, new: after.filter { !oldNames.contains($0.0.text) },
                                        what: "finish steps")
    }
}
