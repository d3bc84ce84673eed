/// `maybe_unset`: a step reads a non-optional state key that some path to the step leaves unset.
enum MaybeUnsetRule: Rule {
    package static let description = RuleDescription(
        identifier: .maybeUnset,
        name: "Maybe unset",
        summary: "A step reads a non-optional state key that is not set on every path to it.",
        rationale: """
            Reading an unset non-optional state key is a run error. A key counts as set at a step when every path \
            of forward moves from 'start' (where the required 'inputs' are set, and nothing else is known) and from \
            each entry (which sets its path parameters) to the step sets it: in a step's 'set' on the moves where \
            it runs (every move of a 'flow' step; the 'next' and derived-event moves of a step with 'result', which \
            complete with a result; never a move by an explicit event, which may come without one, nor any move of \
            a step without 'result'), in a target's 'set' (on that move only), or in an 'if' that requires it \
            (exists(state.k) holds, or an earlier option's 'if' failed with !exists(state.k)). Back moves and \
            'restart' add no unset paths: a back move returns to a step with at least the keys it had when shown, \
            and 'restart' shows 'start' with the run's initial state. A step reads what its 'set' and a flow step's \
            'input' read (before its own 'set'), and what its derived events (its own and those of "*"), its \
            targets' 'if' and 'set' and the "*" targets it uses read (after its own 'set' on the moves that run \
            it). A read inside exists(), or guarded by it (exists(state.k) && …, !exists(state.k) || …, \
            exists(state.k) ? … : …), and a read of an optional key never count. The message names a way the key \
            stays unset, with the completion that skips a 'set' ("not when 'ask' completes with event 'skip'"). \
            Set the key on every path, make it optional and guard the read with exists(), or start the flow with \
            it (an input, or an entry path parameter).
            """,
        severity: .warning,
        triggeringExamples: [
            // A key nothing sets: one finding at its declaration, whatever the number of reads.
            """
            flowkit: 1
            flow: limits
            start: a
            state: { ↓limit: int, total: int }
            steps:
              a: { result: { n: int }, set: { total: "result.n + state.limit" }, next: b }
              b: { next: { forward: c, set: { total: "state.limit" } } }
              c: { kind: finish }
            """,
            """
            flowkit: 1
            flow: transfer
            start: amount
            state: { amount: int, fee: int }
            events: { skip: }
            steps:
              amount:
                result: { amount: int }
                set: { amount: result.amount }
                on: { skip: confirm }
                next: fee
              fee:
                set: { fee: "state.amount / 100" }
                next: confirm
              confirm:
                next: { forward: done, if: "↓state.amount + ↓state.fee > 0" }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: deeplink
            start: amount
            state: { amount: int, tariffFee: int }
            entries:
              editTariff: { step: tariffs, path: "/tariffs/{tariffFee}" }
            steps:
              amount:
                result: { amount: int }
                set: { amount: result.amount }
                next: tariffs
              tariffs:
                result: { fee: int }
                set: { tariffFee: result.fee }
                next: { forward: done, if: "↓state.amount > state.tariffFee" }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: shared
            start: a
            state: { total: int }
            events:
              big: "↓state.total > 10"
              help:
            steps:
              "*": { on: { big: done, help: { forward: done, if: "↓state.total > 1" } } }
              a: { next: b }
              b: { result: { total: int }, set: { total: result.total }, next: done }
              done: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            // A derived event's condition proves the key set for its handler's targets.
            """
            flowkit: 1
            flow: code
            start: show
            state: { code: string, shown: string }
            events:
              hasCode: "exists(state.code)"
            entries:
              withCode: { step: show, path: "/show/{code}" }
            steps:
              show:
                on: { hasCode: { forward: done, set: { shown: "state.code + '!'" } } }
                next: done
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: transfer
            start: amount
            state: { amount: int, note: string?, fee: int }
            events: { skip: }
            entries:
              deep: { step: confirm, path: "/confirm/{amount}" }
            steps:
              amount:
                result: { amount: int }
                set: { amount: result.amount }
                on: { skip: { forward: confirm, set: { fee: 0, amount: 0 } } }
                next: { forward: confirm, set: { fee: "state.amount / 100" } }
              confirm:
                next:
                  - forward: done
                    if: "exists(state.fee) && state.fee > 0 && state.note != null"
                  - forward: done
                    set: { fee: "exists(state.fee) ? state.fee : state.amount" }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: loop
            start: ask
            state: { count: int }
            events: { again: }
            steps:
              ask:
                result: { count: int }
                set: { count: result.count }
                next: check
              check:
                on: { again: ask }
                next:
                  - forward: ask
                    if: "!exists(state.count) || state.count < 3"
                  - forward: done
                    set: { count: "state.count + 1" }
              done: { kind: finish }
            """,
        ])

    /// Where a read is evaluated.
    private enum Place {
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
    private struct Read {
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
    /// The most bits of analysis state kept at once; keys are analysed in chunks of 64 or more beyond it.
    static let bitBudget = 1 << 27
    /// The most (key read × graph node) pairs the data flow analyses; past it the rule reports the limit instead
    /// (about a second of work).
    static let pairLimit = 1 << 31

    /// Needs the flow's graphs.
    static let needs: RuleNeeds = [.graph]

    package static func check(_ context: LintContext) -> [Diagnostic] {
        check(context, bitBudget: bitBudget, pairLimit: pairLimit)
    }

    /// The findings, analysing as many keys at once as `bitBudget` bits of state allow (at least 64).
    static func check(_ context: LintContext, bitBudget: Int, pairLimit: Int) -> [Diagnostic] {
        guard let (flow, _) = context.reachabilityInput, let graph = context.stepGraph else { return [] }
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
        guard !keyNames.isEmpty else { return nestedFindings(context, flow: flow) }
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
        func collect(_ source: ExpressionSource, guarded: Set<String>, place: Place) {
            guard case .success(let expression) = context.memo.parse(source) else { return }
            var seen: Set<Int> = []
            for path in Guards.reads(expression.root, guarded: guarded) {
                guard let key = keyIndex[path.keys[0]], seen.insert(key).inserted else { continue }
                reads.append(Read(key: key, offset: path.span.start, source: source, place: place))
            }
        }
        // Collects the reads of a target list and returns, per option, the keys its `if` proves set when it is
        // taken (its own `if` held and every earlier option's `if` failed); an empty list when no option has an
        // `if` (the usual list), which proves nothing for any option.
        // `proved`: the keys set before any option is tried (the condition of the derived event the list handles).
        func collect(_ list: [Target], place: Place, proved: Set<String> = []) -> [Set<String>] {
            if !list.contains(where: { $0.condition != nil }) {
                for target in list {
                    for assignment in target.set { collect(assignment.expression, guarded: proved, place: place) }
                }
                return proved.isEmpty ? [] : Array(repeating: proved, count: list.count)
            }
            let guards = Guards.options(list, parse: context.memo.parse)
            // The options' `if`s are evaluated in order, then the taken option's `set`: a key read on every
            // evaluation of an earlier one is set (or the run stopped there).
            var read: Set<String> = []
            for (target, guarding) in zip(list, guards) {
                if let condition = target.condition {
                    collect(condition, guarded: guarding.failed.union(proved).union(read), place: place)
                    // (Bounded: fewer keys counted as read only reports more.)
                    if read.count < Self.readSetLimit { read.formUnion(mustReads(condition)) }
                }
                var earlier = read
                for assignment in target.set {
                    collect(assignment.expression, guarded: guarding.holds.union(proved).union(earlier), place: place)
                    if earlier.count < Self.readSetLimit { earlier.formUnion(mustReads(assignment.expression)) }
                }
            }
            return guards.map { $0.holds.union(proved) }
        }
        // A handler of a derived event runs only when the event was raised: its condition held (docs/format.md,
        // "Guards"), so the keys it proves set are set for the handler's targets.
        var eventKeys: [String: Set<String>] = [:]
        for event in flow.events where eventKeys[event.name.text] == nil {
            guard let source = event.expression, case .success(let expression) = context.memo.parse(source) else { continue }
            let proved = Guards.whenTrue(expression.root)
            if !proved.isEmpty { eventKeys[event.name.text] = proved }
        }

        // Per step and per "*" slot, per target list and option: the keys its `if` proves set.
        var ownKnown = [[[Set<String>]]](repeating: [], count: n)
        for (id, step) in steps.enumerated() where step.kind != .finish {
            // A `set` that never runs (a step without `result`) reads nothing.
            if graph.setNode(of: id) != nil {
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
            var known: [[Set<String>]] = []
            StepGraph.forEachTargetList(of: step) { listIndex, list in
                // (A `flow` step's handlers run for its nested flow's outcomes, never for a derived event.)
                let proved = listIndex < step.on.count && step.kind != .flow ? eventKeys[step.on[listIndex].event.text] ?? [] : []
                known.append(collect(list, place: .leaving(step: id, node: graph.node(of: id, list: listIndex)), proved: proved))
            }
            ownKnown[id] = known
        }
        let flowStepHandlers = FlowStepHandlers(flow)
        let slotKnown = graph.slotTargets.indices.map { slot -> [Set<String>] in
            // A `"*"` handler a `flow` step uses runs there for an outcome of that name: then it proves nothing.
            guard let event = graph.slotEvents[slot], let proved = eventKeys[event], !flowStepHandlers.someFlowStepUsesTheShared(event) else {
                return collect(graph.slotTargets[slot], place: .slot(slot))
            }
            return collect(graph.slotTargets[slot], place: .slot(slot), proved: proved)
        }
        var eventIndex: [String: Int] = [:]
        for (index, event) in flow.events.enumerated() where eventIndex[event.name.text] == nil {
            eventIndex[event.name.text] = index
            if let source = event.expression { collect(source, guarded: [], place: .event(index)) }
        }
        let nested = nestedFindings(context, flow: flow)
        guard !reads.isEmpty else { return nested }

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
        if pairs.overflow || pairs.partialValue > pairLimit {
            let message = "the flow is too large for this check: \(keyNames.count) state keys read across \(graph.graph.nodeCount) "
                + "graph nodes is more than \(pairLimit) key-node pairs, so reads of unset keys are not checked; split the flow"
            return nested + [context.finding(self, at: flow.start.position, message)]
        }

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
        let evaluatesEvents = { (id: Int) in steps[id].kind != .finish && steps[id].kind != .flow }

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
                if !StepGraph.allows(steps[id], description.identifier) { return id }
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
                        step = lacks(key, before: id) ? id : nil
                    case .leaving(let id, let node):
                        step = lacks(key, leaving: node) ? id : nil
                    case .event(let eventNumber):
                        let event = flow.events[eventNumber].name.text
                        if starEvents.contains(event) {
                            // Every step evaluates a '*' event: the witness depends on the key alone, so find it once.
                            if let known = starWitness[key] {
                                step = known
                            } else {
                                step = witness((0..<n).lazy.filter(evaluatesEvents)) { lacks(key, leaving: graph.eventNode(of: $0)) }
                                starWitness[key] = .some(step)
                            }
                        } else {
                            step = witness((handlers[eventNumber] ?? []).lazy.filter(evaluatesEvents)) { lacks(key, leaving: graph.eventNode(of: $0)) }
                        }
                    case .slot(let slot):
                        // The slot's leaf holds what every step using the slot has set: scan only when it lacks the key.
                        let leaf = graph.leaf(slot)
                        step = lacks(key, before: leaf)
                            ? witness((0..<n).lazy.filter { graph.inherits($0, slot: slot) }) { lacks(key, leaving: graph.node(of: $0, slot: slot)) } : nil
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

        var findings: [Diagnostic] = []
        var witnesses: [Int: DataFlow.Paths] = [:]
        var namedLater: Set<Int> = []
        for (index, step) in unset {
            let read = reads[index]
            let key = read.key
            var detail = ""
            switch read.place {
            case .event(let eventNumber): detail = " in event '\(flow.events[eventNumber].name.text)'"
            case .slot(let slot): detail = graph.slotEvents[slot].map { " in the '*' handler for '\($0)'" } ?? " in the '*' 'next'"
            default: break
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
            let stepName = steps[step].name.text
            let message = "step '\(stepName)' reads '\(name)'\(detail), which is not set on every path to it"
                + (path.map { " (\($0))" } ?? "")
            var also = ""
            if let names = later[key], namedLater.insert(key).inserted {
                let shown = names.prefix(5).map { "'\(Identifier.display($0))'" }
                also = "; also read at " + (names.count > 5 ? shown.joined(separator: ", ") + " and \(names.count - 5) more" : GuardSpace.list(shown))
                    + ", after a read of it that fails first"
            }
            findings.append(context.finding(self, at: read.source.position(ofOffset: read.offset), step: stepName, subject: name, message + also))
        }
        return neverSet(findings, flow: flow, context: context) + nested
    }

    /// One finding for a key that nothing sets (no step's or target's `set`, no input, no path parameter), at its
    /// declaration, in place of one at each read: every read of it fails, and the fix is in one place
    /// (docs/format.md, `maybe_unset`).
    static func neverSet(_ findings: [Diagnostic], flow: Flow, context: LintContext) -> [Diagnostic] {
        guard !findings.isEmpty else { return findings }
        var written = Set(flow.inputs.map(\.text))
        for entry in flow.entries where entry.nestedEntry == nil { written.formUnion(EntryPath.parameters(entry.path)) }
        for step in flow.anyStepThenSteps {
            for assignment in step.set { written.insert(assignment.key.text) }
            StepGraph.forEachTargetList(of: step) { _, list in
                for target in list { for assignment in target.set { written.insert(assignment.key.text) } }
            }
        }
        var reads: [String: [Diagnostic]] = [:]
        for finding in findings {
            if let key = finding.subject, !written.contains(key) { reads[key, default: []].append(finding) }
        }
        guard !reads.isEmpty else { return findings }
        var result = findings.filter { finding in finding.subject.map { reads[$0] == nil } ?? true }
        for (key, found) in reads.sorted(by: { $0.key < $1.key }) {
            guard let declaration = flow.state.first(where: { $0.name.text == key }) else {
                result += found
                continue
            }
            var steps: [String] = []
            for finding in found.sorted(by: { $0.position < $1.position }) {
                if let step = finding.step, !steps.contains(step) { steps.append(step) }
            }
            let shown = steps.prefix(5).map { "'\(Identifier.display($0))'" }
            let at = steps.count > 5 ? shown.joined(separator: ", ") + " and \(steps.count - 5) more" : GuardSpace.list(shown)
            result.append(context.finding(self, at: declaration.name.position, subject: key,
                                          "'\(Identifier.display(key))' is never set: no 'set' writes it, and it is neither an input nor a path parameter, "
                                          + "so every read of it fails (read at \(at)); set it, or declare it in 'inputs' if the host provides it"))
        }
        return result
    }

    /// Reads of `result.K` at `flow` steps where the nested flow may finish without the non-optional key `K`: its
    /// `set` for every outcome, a handler's targets (its own or the `"*"` one it uses) for that outcome, `next` for the
    /// outcomes no handler takes.
    static func nestedFindings(_ context: LintContext, flow: Flow) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        struct NestedKnowledge {
            /// The non-optional keys set at each outcome when the nested flow starts with no key set.
            var byOutcome: [String: Set<String>]
            /// Its non-optional keys, and its required inputs (passed by every step, or a `type_mismatch`).
            var required, inputs: Set<String>
        }
        var memo: [String: NestedKnowledge] = [:]
        let anyHandlers = Dictionary((flow.anyStep?.on ?? []).map { ($0.event.text, $0.targets) }, uniquingKeysWith: { first, _ in first })
        for step in flow.steps where step.kind == .flow {
            guard let child = context.nestedFlow(of: step), let reference = step.flowPath else { continue }
            // The data flow only adds keys, so a run given the passed keys has them plus what a run given none has:
            // the nested flow is analysed once per file, however many steps pass it different inputs.
            let known = memo[reference] ?? NestedKnowledge(
                byOutcome: NestedOutcomes.keys(of: child, given: [], parse: context.memo.parse),
                required: Set(child.state.filter { !$0.type.optional }.map(\.name.text)),
                inputs: Set(child.requiredInputs))
            memo[reference] = known
            let byOutcome = known.byOutcome
            guard !byOutcome.isEmpty else { continue }
            let passed = Set(step.input.map(\.key.text))
            // A non-optional key the nested flow may finish without: neither passed nor a required input.
            func mayLack(_ key: String) -> Bool { known.required.contains(key) && !known.inputs.contains(key) && !passed.contains(key) }
            let outcomes = byOutcome.keys.sorted()
            let name = step.name.text
            let file = Identifier.display(reference)
            func check(_ source: ExpressionSource, guarded: Set<String>, for handled: [String]) {
                guard case .success(let expression) = context.memo.parse(source) else { return }
                var seen: Set<String> = []
                for path in Guards.resultReads(expression.root, guarded: guarded) {
                    let key = path.keys[0]
                    guard mayLack(key), seen.insert(key).inserted,
                          let missing = handled.first(where: { byOutcome[$0]?.contains(key) == false }) else { continue }
                    findings.append(context.finding(self, at: source.position(ofOffset: path.span.start), step: name, subject: "result.\(key)",
                                                    "step '\(name)' reads 'result.\(key)', which nested flow '\(file)' may finish without (not when it finishes with '\(missing)')"))
                }
            }
            // One cause, one finding: a `result.K` read on every evaluation of an expression worked out before
            // (the step's `set`, which runs on every move of a `flow` step; earlier assignments and `if`s) covers
            // the later reads of `K`.
            func readKeys(_ source: ExpressionSource) -> Set<String> {
                guard case .success(let expression) = context.memo.parse(source) else { return [] }
                return Set(Guards.mustReadPaths(expression.root).filter { $0.hasPrefix("result.") }.map { "result." + $0.dropFirst(7).prefix { $0 != "." } })
            }
            var covered: Set<String> = []
            func check(_ list: [Target], for handled: [String]) {
                let guards = Guards.options(list, parse: context.memo.parse, paths: true)
                var read = covered
                for (target, guarding) in zip(list, guards) {
                    if let condition = target.condition {
                        check(condition, guarded: guarding.failed.union(read), for: handled)
                        if read.count < Self.readSetLimit { read.formUnion(readKeys(condition)) }
                    }
                    var earlier = read
                    for assignment in target.set {
                        check(assignment.expression, guarded: guarding.holds.union(earlier), for: handled)
                        if earlier.count < Self.readSetLimit { earlier.formUnion(readKeys(assignment.expression)) }
                    }
                }
            }
            for assignment in step.set {
                check(assignment.expression, guarded: covered, for: outcomes)
                if covered.count < Self.readSetLimit { covered.formUnion(readKeys(assignment.expression)) }
            }
            var handledByOn: Set<String> = []
            for handler in step.on where byOutcome[handler.event.text] != nil {
                handledByOn.insert(handler.event.text)
                check(handler.targets, for: [handler.event.text])
            }
            for outcome in outcomes where !handledByOn.contains(outcome) {
                if let targets = anyHandlers[outcome] {
                    handledByOn.insert(outcome)
                    check(targets, for: [outcome])
                }
            }
            let unhandled = outcomes.filter { !handledByOn.contains($0) }
            if !unhandled.isEmpty, let next = step.next ?? flow.anyStep?.next { check(next, for: unhandled) }
        }
        return findings
    }
}

/// What `exists(…)` guarantees inside an expression: the reads that count, and the keys an expression's truth or
/// falsehood proves set.
enum Guards {
    /// The `state.…` paths read by `node` outside `exists(…)` whose key is not in `guarded` or proved set by an
    /// enclosing guard (`exists(p) && …`, `!exists(p) || …`, `exists(p) ? … : …`, and their combinations).
    static func reads(_ node: ExpressionNode, guarded: Set<String>) -> [ExpressionPath] {
        var found: [ExpressionPath] = []
        func walk(_ node: ExpressionNode, _ guarded: Set<String>) {
            switch node {
            case .path(let path):
                if path.root == .state, let key = path.keys.first, !guarded.contains(key) { found.append(path) }
            case .exists, .literal:
                break
            case .binary(.and, let lhs, let rhs, _):
                walk(lhs, guarded)
                walk(rhs, guarded.union(whenTrue(lhs)))
            case .binary(.or, let lhs, let rhs, _):
                walk(lhs, guarded)
                walk(rhs, guarded.union(whenFalse(lhs)))
            case .conditional(let condition, let then, let otherwise, _):
                walk(condition, guarded)
                walk(then, guarded.union(whenTrue(condition)))
                walk(otherwise, guarded.union(whenFalse(condition)))
            default:
                for child in node.children { walk(child, guarded) }
            }
        }
        walk(node, guarded)
        return found
    }

    /// The state keys that are set whenever `node` evaluates to true (what `PathGuards` proves of `state.…` paths).
    /// The paths (`state.k`, `result.k.f`) `node` reads on every evaluation that does not stop with a run error:
    /// outside `exists(…)`, the right side of `&&` and `||`, the branches of `? :` and the items of an `in` list
    /// (which evaluation may skip). After such a read, the path is set, or the run has stopped there.
    static func mustReadPaths(_ node: ExpressionNode) -> Set<String> {
        var found: Set<String> = []
        var pending = [node]
        while let node = pending.popLast() {
            switch node {
            case .path(let path):
                found.insert(path.description)
            case .exists, .literal:
                break
            case .binary(.and, let lhs, _, _), .binary(.or, let lhs, _, _), .conditional(let lhs, _, _, _), .membership(let lhs, _, _):
                pending.append(lhs)
            default:
                pending.append(contentsOf: node.children)
            }
        }
        return found
    }

    /// The state keys of `mustReadPaths`.
    static func mustReads(_ node: ExpressionNode) -> Set<String> {
        Set(mustReadPaths(node).compactMap { path in
            path.hasPrefix("state.") ? String(path.dropFirst("state.".count)) : nil
        })
    }

    static func whenTrue(_ node: ExpressionNode) -> Set<String> {
        stateKeys(PathGuards.whenTrue(node))
    }

    /// The state keys that are set whenever `node` evaluates to false.
    static func whenFalse(_ node: ExpressionNode) -> Set<String> {
        stateKeys(PathGuards.whenFalse(node))
    }

    private static func stateKeys(_ paths: Set<String>) -> Set<String> {
        Set(paths.compactMap { path in
            guard path.hasPrefix("state.") else { return nil }
            return path.dropFirst(6).split(separator: ".", maxSplits: 1).first.map(String.init)
        })
    }
}
