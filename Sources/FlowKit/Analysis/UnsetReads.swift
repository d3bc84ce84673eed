/// The data flow analysis behind `maybe_unset` (docs/format.md): which reads of a declared, non-optional state key
/// may find it unset, on which step, and by which path. Reads are tracked where they are evaluated (a step's `set`
/// and `input`, its targets' `if` and `set`, derived events, `"*"` targets); what leaving each graph node sets is a
/// step's or option's `set` and the keys an option's `if` proves set; a read made on every evaluation counts the key
/// as set after it (one cause, one finding). The rule turns what it finds into findings.
struct UnsetReads {
    /// Where a read is evaluated.
    enum Place {
        /// In a step's own `set` or `input`: before the step's `set` runs.
        case before(step: Int)
        /// In a step's own targets: when the move leaves `node` (the step's, or its after-`set` node).
        case leaving(step: Int, node: Int)
        /// In a derived event's expression, at the steps that evaluate it.
        case event(Int)
        /// In a `"*"` target of a slot, at the steps that use the slot.
        case slot(Int)
    }

    /// One read of a tracked key, at one place.
    struct Read {
        let key: Int
        let offset: Int
        let source: ExpressionSource
        let place: Place
    }

    /// The most keys the reads of a list's earlier options count as set for its later ones (one cause, one
    /// finding); past it, later reads are reported as if no earlier option had read them, which only says more.
    static let readSetLimit = 64

    /// The most keys whose witness paths are searched (one breadth-first search each); later keys' findings name
    /// no path, which keeps the rule near-linear however many keys a flow reads.
    static let witnessKeyLimit = 32
    /// A read that may find its key unset.
    struct UnsetRead {
        /// Where the read was made, as the rule reports it.
        enum Place {
            /// In a step's own `set`, `input` or targets.
            case step
            /// In the expression of the derived event named.
            case event(String)
            /// In a `"*"` handler's targets (for the event named; nil: the `"*"` `next`).
            case starHandler(String?)
        }

        /// The position of the read key in its expression.
        let position: SourcePosition
        /// `ExpressionSource.unmappedNote` of the read: what its message adds when the position is the value's start.
        var unmappedNote = ""
        /// The step the finding names.
        let step: String
        /// The key.
        let key: String
        /// Where the read was made.
        let place: Place
        /// A path on which the key is not set, in words, when one was searched.
        let path: String?
        /// The steps of that path, from where a run starts, when it was searched whole.
        let pathSteps: [String]?
        /// For the first read of a key reported: the steps that read it later, after a read that fails first.
        let laterReads: [String]
    }

    /// What the analysis found.
    enum Outcome {
        /// No tracked key is read.
        case nothingToCheck
        /// More (key × node) pairs than the limit: not analysed.
        case tooLarge(keys: Int, nodes: Int)
        /// The reads that may find their key unset, in the order found.
        case unset([UnsetRead])
    }

    /// Analyses `flow` over its step graph, as many keys at once as `bitBudget` bits of state allow (at least 64),
    /// no more than `pairLimit` key-node pairs; a step that allows `rule` is named only when no other can be.
    static func analyse(_ context: LintContext, flow: Flow, graph: StepGraph, rule: RuleID, bitBudget: Int, pairLimit: Int) -> Outcome {
        // The data-flow graph follows every option; the steps a run reaches are the flow graph's (docs/format.md,
        // "Only where runs go"): a read's witness step is one of them.
        let reachable = context.reachableSteps
        func isLive(_ id: Int) -> Bool { reachable.map { id < $0.count ? $0[id] : true } ?? true }
        let steps = flow.steps
        let n = steps.count

        // Tracked keys: declared and not optional.
        var keyIndex: [String: Int] = [:]
        var keyNames: [String] = []
        var declared: Set<String> = []
        for field in flow.state where declared.insert(field.name.text).inserted && !field.type.optional {
            keyIndex[field.name.text] = keyNames.count
            keyNames.append(field.name.text)
        }
        // A flow with no non-optional key of its own can still read a nested flow's result it may lack.
        guard !keyNames.isEmpty else { return .nothingToCheck }
        func tracked(_ names: some Sequence<String>) -> [Int] {
            var keys: [Int] = []
            for name in names { if let key = keyIndex[name] { keys.append(key) } }
            return keys.count > 1 ? Array(Set(keys)).sorted() : keys
        }

        var reads: [Read] = []
        func mustReads(_ source: ExpressionSource) -> Set<String> {
            guard case .success(let expression) = context.memo.parse(source) else { return [] }
            return Guards.mustReads(expression.root)
        }
        // The parts no run evaluates, behind a run error every evaluation meets (docs/format.md, "Behind a certain
        // run error"), read nothing.
        let view = context.runView
        // The values of the enums that are not optional: `state.mode in [every value]` always holds.
        let stateTypes = flow.stateTypes
        let domains = { (path: ExpressionPath) in TypeEnvironment.enumDomain(path, in: stateTypes) }
        func collect(_ source: ExpressionSource, guarded: Set<String>, place: Place) {
            guard case .success(let expression) = context.memo.parse(source) else { return }
            var seen: Set<Int> = []
            for path in Guards.reads(expression.root, guarded: guarded, domains: domains) where !view.isBehind(source, offset: path.span.start) {
                guard let key = keyIndex[path.keys[0]], seen.insert(key).inserted else { continue }
                reads.append(Read(key: key, offset: path.span.start, source: source, place: place))
            }
        }
        // Collects the reads of a target list and returns, per option, the keys its `if` proves set when it is
        // taken (its own `if` held and every earlier option's `if` failed); an empty list when no option has an
        // `if` (the usual list), which proves nothing for any option.
        // `proved`: the keys set before any option is tried (the condition of the derived event the list handles).
        // `owner` and `listIndex` name the list's options for `neverTaken`: the `set` of an option never taken, and
        // the `if` of one never tried, are not read by any run (docs/format.md, "Options never taken").
        let neverTaken = context.neverTaken
        // `withResult`: for an explicit event's list at a step with `result`, the keys its `set` writes or reads on
        // every evaluation: an option tried after an `if` that reads `result` on every evaluation (its own, for its
        // `set`) is on a move with a result, so that `set` has run (docs/format.md, `maybe_unset`).
        func collect(_ list: [Target], place: Place, proved: Set<String> = [], owner: Int?, listIndex: Int,
                     withResult: Set<String> = []) -> [Set<String>] {
            func never(_ index: Int) -> NeverTaken.Reason? {
                neverTaken.isEmpty ? nil : neverTaken.reason(NeverTaken.Option(step: owner, list: listIndex, option: index))
            }
            if !list.contains(where: { $0.condition != nil }) {
                for (index, target) in list.enumerated() where never(index)?.runsSet ?? true {
                    for assignment in target.set { collect(assignment.expression, guarded: proved, place: place) }
                }
                return proved.isEmpty ? [] : Array(repeating: proved, count: list.count)
            }
            let guards = Guards.options(list, parse: context.memo.parse)
            // The options' `if`s are evaluated in order, then the taken option's `set`: a key read on every
            // evaluation of an earlier one is set (or the run stopped there).
            var read: Set<String> = []
            var hasResult = false
            var taken: [Set<String>] = []
            for (index, (target, guarding)) in zip(list, guards).enumerated() {
                // Whether this option's move has a result: its own `if` held in a way that shows one (`exists` of a
                // result path); and whether the options after it do: it failed in such a way (`!exists(result.x)`).
                var ownResult = false
                var laterResult = false
                defer {
                    taken.append(guarding.holds.union(proved).union(hasResult || ownResult ? withResult : []))
                    if laterResult { hasResult = true }
                }
                let reason = never(index)
                if let reason, !reason.isTried { continue }
                if let condition = target.condition {
                    collect(condition, guarded: guarding.failed.union(proved).union(read).union(hasResult ? withResult : []), place: place)
                    // (Bounded: fewer keys counted as read only reports more.)
                    if read.count < Self.readSetLimit { read.formUnion(mustReads(condition)) }
                    if !withResult.isEmpty && !hasResult, case .success(let expression) = context.memo.parse(condition) {
                        hasResult = Guards.mustReadPaths(expression.root).contains { $0.hasPrefix("result.") }
                        ownResult = PathGuards.whenTrue(expression.root).contains { $0.hasPrefix("result.") }
                        laterResult = PathGuards.whenFalse(expression.root).contains { $0.hasPrefix("result.") }
                    }
                }
                guard reason?.runsSet ?? true else { continue }
                var earlier = read.union(hasResult ? withResult : [])
                for assignment in target.set {
                    collect(assignment.expression, guarded: guarding.holds.union(proved).union(earlier), place: place)
                    if earlier.count < Self.readSetLimit { earlier.formUnion(mustReads(assignment.expression)) }
                }
            }
            return taken
        }
        // The derived events a step evaluates (docs/format.md, "One cause, one finding"): on a move without an
        // explicit event, those the step or `"*"` handles, in `events` order, until one holds. A handler of one runs
        // only when it was raised: its evaluation read what it reads on every evaluation, it held, and those before
        // it did not; `next` runs when none held. What each shows: what it reads, and the keys (and bool values) its
        // value proves.
        struct Evaluated {
            let name: String
            let whenTrue: Set<String>
            let whenFalse: Set<String>
        }
        let order = DerivedEventOrder(flow)
        func evaluated(_ event: EventDeclaration) -> Evaluated {
            guard let source = event.expression, case .success(let expression) = context.memo.parse(source) else {
                return Evaluated(name: event.name.text, whenTrue: [], whenFalse: [])
            }
            let read = Guards.mustReads(expression.root)
            return Evaluated(name: event.name.text,
                             whenTrue: read.union(Guards.whenTrue(expression.root)).union(Guards.valueFacts(expression.root, true)),
                             whenFalse: read.union(Guards.whenFalse(expression.root)).union(Guards.valueFacts(expression.root, false)))
        }
        // Worked out once per event.
        let facts = Dictionary(order.events.map { ($0.name.text, evaluated($0)) }, uniquingKeysWith: { first, _ in first })
        // What a list sees of the derived events `handled` (in order): for the handler of `event`, the earlier ones
        // false and it true; for `next` (nil), all false. At most `readSetLimit` keys, which only reports more.
        func proved(_ handled: [Evaluated], handler event: String?) -> Set<String> {
            var proved: Set<String> = []
            for evaluated in handled {
                if let event, evaluated.name == event {
                    proved.formUnion(evaluated.whenTrue)
                    return proved
                }
                if proved.count < Self.readSetLimit { proved.formUnion(evaluated.whenFalse) }
            }
            // A handler of an event that is not derived (explicit, or a nested flow's outcome): none is evaluated.
            return event == nil ? proved : []
        }

        let derivedNames = Set(flow.events.lazy.filter { $0.expression != nil }.map(\.name.text))
        // Per step and per "*" slot, per target list and option: the keys its `if` proves set.
        var ownKnown = [[[Set<String>]]](repeating: [], count: n)
        for (id, step) in steps.enumerated() where step.kind != .finish {
            // A `set` that never runs (a step without `result`, a `flow` step that never completes) reads nothing.
            if graph.setNode(of: id) != nil && !neverTaken.neverCompletes(id) {
                // Assignments are worked out in order: a key the ones before read on every evaluation is set here.
                var earlier: Set<String> = []
                for assignment in step.set {
                    collect(assignment.expression, guarded: earlier, place: .before(step: id))
                    if earlier.count < Self.readSetLimit { earlier.formUnion(mustReads(assignment.expression)) }
                }
            }
            var earlier: Set<String> = []
            for assignment in step.input {
                collect(assignment.expression, guarded: earlier, place: .before(step: id))
                if earlier.count < Self.readSetLimit { earlier.formUnion(mustReads(assignment.expression)) }
            }
            // (A `flow` step's handlers run for its nested flow's outcomes, and its `next` for those it does not
            // handle: it evaluates no derived event.)
            let handled = facts.isEmpty ? [] : order.evaluated(at: step).compactMap { facts[$0.name.text] }
            // What a move with a result has set at an explicit event of a step with `result`: its `set` ran.
            var withResult: Set<String> = []
            if step.kind != .flow && step.result != nil && !neverTaken.setAlwaysFails(id) {
                for assignment in step.set {
                    withResult.insert(assignment.key.text)
                    withResult.formUnion(mustReads(assignment.expression))
                }
            }
            var known: [[Set<String>]] = []
            StepGraph.forEachTargetList(of: step) { listIndex, list in
                let event = listIndex < step.on.count ? step.on[listIndex].event.text : nil
                let seen = handled.isEmpty ? [] : proved(handled, handler: event)
                let explicit = event.map { !derivedNames.contains($0) } ?? false
                known.append(collect(list, place: .leaving(step: id, node: graph.node(of: id, list: listIndex)), proved: seen, owner: id, listIndex: listIndex,
                                     withResult: explicit ? withResult : []))
            }
            ownKnown[id] = known
        }
        let flowStepHandlers = FlowStepHandlers(flow, outcomes: context.nestedOutcomes)
        // A `"*"` handler sees only the derived events `"*"` handles (every step that uses it evaluates them); one a
        // `flow` step uses runs there for an outcome of that name, and `"*"`'s `next` runs for a `flow` step's
        // unhandled outcomes when one has no `next` of its own: then they prove nothing.
        let starHandled = order.handledByStar.compactMap { facts[$0.name.text] }
        let flowStepUsesStarNext = steps.contains { $0.kind == .flow && $0.next == nil }
        let slotKnown = graph.slotTargets.indices.map { slot -> [Set<String>] in
            let event = graph.slotEvents[slot]
            let usedByAFlowStep = event.map { flowStepHandlers.someFlowStepUsesTheShared($0) } ?? flowStepUsesStarNext
            let seen = usedByAFlowStep || starHandled.isEmpty ? [] : proved(starHandled, handler: event)
            return collect(graph.slotTargets[slot], place: .slot(slot), proved: seen, owner: nil, listIndex: graph.slotLists[slot])
        }
        var eventIndex: [String: Int] = [:]
        for (index, event) in flow.events.enumerated() where eventIndex[event.name.text] == nil {
            eventIndex[event.name.text] = index
            if let source = event.expression { collect(source, guarded: [], place: .event(index)) }
        }
        guard !reads.isEmpty else { return .nothingToCheck }


        // Only keys that are read take part: a flow that declares tens of thousands of keys and reads a few
        // analyses a few.
        var renumbered = [Int](repeating: -1, count: keyNames.count)
        var readNames: [String] = []
        for read in reads where renumbered[read.key] < 0 {
            renumbered[read.key] = readNames.count
            readNames.append(keyNames[read.key])
        }
        reads = reads.map { Read(key: renumbered[$0.key], offset: $0.offset, source: $0.source, place: $0.place) }
        keyNames = readNames
        keyIndex = Dictionary(uniqueKeysWithValues: readNames.enumerated().map { ($1, $0) })
        // Past the work limit the rule says so once rather than take minutes.
        let pairs = keyNames.count.multipliedReportingOverflow(by: graph.graph.nodeCount)
        if pairs.overflow || pairs.partialValue > pairLimit { return .tooLarge(keys: keyNames.count, nodes: graph.graph.nodeCount) }

        // What leaving a node sets: a step's `set` (at the node of the moves that run it); an option's `set` and the
        // keys its `if` proves set.
        var gen = [[Int]](repeating: [], count: graph.graph.nodeCount)
        for (id, step) in steps.enumerated() {
            if let node = graph.setNode(of: id) { gen[node] = tracked(step.set.map(\.key.text)) }
        }
        for option in graph.options {
            let known: Set<String>
            switch option.owner {
            case .step(let id):
                let list = ownKnown[id][option.listIndex]
                known = list.isEmpty ? [] : list[option.index]
            case .slot(let slot): known = slotKnown[slot].isEmpty ? [] : slotKnown[slot][option.index]
            }
            let assigned = option.list[option.index].set
            gen[option.node] = known.isEmpty ? tracked(assigned.lazy.map(\.key.text)) : tracked(known.union(assigned.map(\.key.text)))
        }
        // The required inputs are set at `start`; an entry's path parameters are set at its step, and at `start`
        // when a run begun at the entry can restart.
        // The parameters of an entry into a nested flow go to the nested flow, not to this flow's state.
        let entryKeys = flow.entries.map { tracked($0.nestedEntry == nil ? EntryPath.parameters($0.path) : []) }
        let startKeys = tracked(flow.requiredInputs)
        var roots = graph.startID.map { [DataFlow.Root(node: $0, keys: startKeys)] } ?? []
        let restarts = graph.startID == nil ? [] : graph.stepsReachingRestart()
        var restartingEntries: [Int] = []
        for (index, entry) in flow.entries.enumerated() {
            guard let id = graph.ids[entry.step.text] else { continue }
            roots.append(DataFlow.Root(node: id, keys: entryKeys[index]))
            if restarts.contains(id), let start = graph.startID {
                roots.append(DataFlow.Root(node: start, keys: entryKeys[index]))
                restartingEntries.append(index)
            }
        }

        // The steps that evaluate each derived event: those handling it, or every step when "*" handles it.
        let starEvents = Set((flow.anyStep?.on ?? []).map(\.event.text))
        var handlers: [Int: [Int]] = [:]
        for (id, step) in steps.enumerated() {
            for handler in step.on {
                if let index = eventIndex[handler.event.text] { handlers[index, default: []].append(id) }
            }
        }
        // (A step whose own `set` always fails evaluates none: it does so only after that `set`, docs/format.md,
        // "Behind a certain run error".)
        let evaluatesEvents = { (id: Int) in steps[id].kind != .finish && steps[id].kind != .flow && !neverTaken.setAlwaysFails(id) }

        // A run that reads an unset key fails at that read, so on the moves after a read that is made on every
        // evaluation (docs/format.md, "one cause, one finding"), the key counts as set: a step's `set` and a `flow`
        // step's `input` on the moves that run them, an option's `if` on the moves through it and the options after
        // it, an option's `set` on its own move.
        var readGen = [[Int]](repeating: [], count: graph.graph.nodeCount)
        func mustRead(_ sources: some Sequence<ExpressionSource>) -> [Int] {
            tracked(sources.reduce(into: Set<String>()) { $0.formUnion(mustReads($1)) })
        }
        for (id, step) in steps.enumerated() where step.kind != .finish {
            if let node = graph.setNode(of: id) { readGen[node] += mustRead(step.set.lazy.map(\.expression)) }
            if step.kind == .flow { readGen[id] += mustRead(step.input.lazy.map(\.expression)) }
        }
        // The `if`s read before each option, worked out once per list as its options come (they come in order);
        // at most `readSetLimit` keys a list, so that a list of many options costs linear time and memory.
        var listReads: (owner: Int, list: Int, upTo: Int, keys: [Int])?
        for option in graph.options {
            let owner: Int
            switch option.owner {
            case .step(let id): owner = id
            case .slot(let slot): owner = -1 - slot
            }
            if listReads == nil || listReads!.owner != owner || listReads!.list != option.listIndex || listReads!.upTo > option.index {
                listReads = (owner, option.listIndex, 0, [])
            }
            while listReads!.upTo <= option.index {
                if listReads!.keys.count < Self.readSetLimit, let condition = option.list[listReads!.upTo].condition {
                    listReads!.keys = Array(Set(listReads!.keys + mustRead([condition]))).sorted()
                }
                listReads!.upTo += 1
            }
            readGen[option.node] += listReads!.keys + mustRead(option.list[option.index].set.lazy.map(\.expression))
        }
        var readsSet = gen
        var anyReadSets = false
        for node in readGen.indices where !readGen[node].isEmpty {
            readsSet[node] = Array(Set(gen[node] + readGen[node])).sorted()
            anyReadSets = true
        }

        // The first step in file order that lacks the key, preferring one that does not allow the rule.
        func witness(_ candidates: some Sequence<Int>, _ lacking: (Int) -> Bool) -> Int? {
            var first: Int?
            for id in candidates where lacking(id) {
                if !StepGraph.allows(steps[id], rule) { return id }
                if first == nil { first = id }
            }
            return first
        }
        /// The reads of keys that may be unset when they are made, under `gen` (as indexes into `reads`), each with
        /// the step it names. The analysis runs on chunks of keys, so that its memory stays bounded.
        func unsetReads(_ gen: [[Int]]) -> [(read: Int, step: Int)] {
            var found: [(read: Int, step: Int)] = []
            DataFlow.mustSetInChunks(in: graph.graph, keyCount: keyNames.count, gen: gen, roots: roots, bitBudget: bitBudget) { chunk, must in
                let chunkStart = chunk.lowerBound
                func lacks(_ key: Int, before id: Int) -> Bool {
                    must.isReachable(id) && !must.isSet(key - chunkStart, before: id)
                }
                func lacks(_ key: Int, leaving node: Int) -> Bool {
                    lacks(key, before: node) && !gen[node].contains(key)
                }
                var starWitness: [Int: Int?] = [:]
                for (index, read) in reads.enumerated() where chunk.contains(read.key) {
                    let key = read.key
                    let step: Int?
                    switch read.place {
                    case .before(let id):
                        step = isLive(id) && lacks(key, before: id) ? id : nil
                    case .leaving(let id, let node):
                        step = isLive(id) && lacks(key, leaving: node) ? id : nil
                    case .event(let eventNumber):
                        let event = flow.events[eventNumber].name.text
                        // (Not at a step whose evaluation of derived events stops before this read.)
                        let evaluates = { (id: Int) in
                            evaluatesEvents(id) && isLive(id) && !view.isBehind(event: eventNumber, at: id, offset: read.offset)
                        }
                        if starEvents.contains(event) {
                            // Every step evaluates a '*' event: the witness depends on the key alone, so find it once
                            // (unless some step's evaluation stops early).
                            if view.eventStops.isEmpty, let known = starWitness[key] {
                                step = known
                            } else {
                                step = witness((0..<n).lazy.filter(evaluates)) { lacks(key, leaving: graph.eventNode(of: $0)) }
                                starWitness[key] = .some(step)
                            }
                        } else {
                            step = witness((handlers[eventNumber] ?? []).lazy.filter(evaluates)) { lacks(key, leaving: graph.eventNode(of: $0)) }
                        }
                    case .slot(let slot):
                        // The slot's leaf holds what every step using the slot has set: scan only when it lacks the key.
                        let leaf = graph.leaf(slot)
                        step = lacks(key, before: leaf)
                            ? witness((0..<n).lazy.filter { graph.inherits($0, slot: slot) && isLive($0) }) { lacks(key, leaving: graph.node(of: $0, slot: slot)) } : nil
                    }
                    if let step { found.append((index, step)) }
                }
            }
            return found
        }
        let unset = unsetReads(readsSet)
        // The reads a read before them on the way covers: those unset without that rule, and not with it. (Only
        // keys with a finding can have them: the first read on every path is covered by a `set` otherwise.)
        var later: [Int: [String]] = [:]
        if anyReadSets && !unset.isEmpty {
            let reported = Set(unset.map(\.read))
            for (index, step) in unsetReads(gen) where !reported.contains(index) {
                let name = steps[step].name.text
                if later[reads[index].key]?.contains(name) != true { later[reads[index].key, default: []].append(name) }
            }
        }

        var found: [UnsetRead] = []
        var witnesses: [Int: DataFlow.Paths] = [:]
        var namedLater: Set<Int> = []
        for (index, step) in unset {
            let read = reads[index]
            let key = read.key
            let place: UnsetRead.Place
            switch read.place {
            case .event(let eventNumber): place = .event(flow.events[eventNumber].name.text)
            case .slot(let slot): place = .starHandler(graph.slotEvents[slot])
            default: place = .step
            }
            if witnesses[key] == nil && witnesses.count < witnessKeyLimit {
                witnesses[key] = DataFlow.unsetPaths(in: graph.graph, key: key, gen: readsSet, roots: roots)
            }
            let name = keyNames[key]
            let setter = { (id: Int) in steps[id].set.contains { $0.key.text == name } }
            var path = witnesses[key].flatMap { paths in
                graph.explain(paths, to: step, entryCounts: { !entryKeys[$0].contains(key) }, setter: setter)
            }
            // A path from `start` that lacks an input comes from a restart in a run begun at an entry.
            if startKeys.contains(key), let witness = path, let entry = restartingEntries.first(where: { !entryKeys[$0].contains(key) }),
               let paths = witnesses[key], paths.tail(to: step, limit: 64)?.first == graph.startID {
                let rest: String
                if witness.hasPrefix("not when the run starts at") {
                    rest = ""
                } else if witness.hasPrefix("not on the path ") {
                    rest = ", on the path " + witness.dropFirst("not on the path ".count)
                } else {
                    rest = "; " + witness
                }
                path = "not after a restart in a run begun at entry '\(flow.entries[entry].name.text)'\(rest)"
            }
            let laterReads = namedLater.insert(key).inserted ? later[key] ?? [] : []
            let pathSteps = witnesses[key].flatMap { graph.steps(of: $0, to: step) }
            found.append(UnsetRead(position: read.source.position(ofOffset: read.offset), unmappedNote: read.source.unmappedNote(ofOffset: read.offset),
                                   step: steps[step].name.text, key: name, place: place, path: path, pathSteps: pathSteps, laterReads: laterReads))
        }
        return .unset(found)
    }
}
