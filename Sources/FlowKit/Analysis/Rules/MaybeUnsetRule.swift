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
        let nested = nestedFindings(context, flow: flow)
        switch UnsetReads.analyse(context, flow: flow, graph: graph, rule: description.identifier, bitBudget: bitBudget, pairLimit: pairLimit) {
        case .nothingToCheck:
            return nested
        case .tooLarge(let keys, let nodes):
            let message = "the flow is too large for this check: \(keys) state keys read across \(nodes) "
                + "graph nodes is more than \(pairLimit) key-node pairs, so reads of unset keys are not checked; split the flow"
            return nested + [context.finding(self, at: flow.start.position, Message(verbatim: message))]
        case .unset(let reads):
            // The data-flow graph follows every option; a step reachable only through options never taken is no
            // run's (docs/format.md, "Only where runs go").
            let isReachable = context.reachability()
            let findings = reads.filter { isReachable($0.step) }.map { read in
                let detail: String
                switch read.place {
                case .step: detail = ""
                case .event(let event): detail = " in event '\(event)'"
                case .starHandler(let event): detail = event.map { " in the '*' handler for '\($0)'" } ?? " in the '*' 'next'"
                }
                let message: Message = "step '\(name: read.step)' reads '\(name: read.key)'\(verbatim: detail), which is not set on every path to it"
                    + (read.path.map { " (\(verbatim: $0))" } ?? "")
                let also: Message = read.laterReads.isEmpty
                    ? "" : "; also read at \(Message.listed(read.laterReads, atMost: 5)), after a read of it that fails first"
                var finding = context.finding(self, at: read.position, step: read.step, subject: read.key, message + also + "\(verbatim: read.unmappedNote)")
                finding.path = read.pathSteps
                return finding
            }
            return neverSet(findings, flow: flow, context: context) + nested
        }
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
            let at = Message.listed(steps, atMost: 5)
            result.append(context.finding(self, at: declaration.name.position, subject: key,
                                          "'\(name: key)' is never set: no 'set' writes it, and it is neither an input nor a path parameter, "
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
        let anyHandlers = Dictionary((flow.anyStep?.on ?? []).enumerated().map { ($0.element.event.text, ($0.element.targets, $0.offset)) },
                                     uniquingKeysWith: { first, _ in first })
        let neverTaken = context.neverTaken
        let view = context.runView
        let isReachable = context.reachability()
        for (id, step) in flow.steps.enumerated() where step.kind == .flow && !neverTaken.neverCompletes(id) && isReachable(step.name.text) {
            guard let child = context.nestedFlow(of: step), let reference = step.flowPath else { continue }
            // The nested entries of this flow's entries into the step start it there, without its inputs.
            let entries = flow.nestedEntries(into: step.name.text)
            // The data flow only adds keys, so a run given the passed keys has them plus what a run given none has:
            // the nested flow is analysed once per file and set of nested entries, however many steps pass it
            // different inputs.
            let memoKey = ([reference] + Set(entries).sorted()).joined(separator: "\u{1}")
            let known = memo[memoKey] ?? NestedKnowledge(
                byOutcome: NestedOutcomes.keys(of: child, given: [], entries: entries, parse: context.memo.parse),
                required: Set(child.state.filter { !$0.type.optional }.map(\.name.text)),
                inputs: entries.isEmpty ? Set(child.requiredInputs) : [])
            memo[memoKey] = known
            let byOutcome = known.byOutcome
            guard !byOutcome.isEmpty else { continue }
            let passed = Set(step.input.map(\.key.text))
            // A non-optional key the nested flow may finish without: neither passed nor a required input (which a
            // run begun at a nested entry is not given).
            func mayLack(_ key: String) -> Bool { known.required.contains(key) && !known.inputs.contains(key) && !passed.contains(key) }
            // Only the outcomes it can finish with, as the step starts it (docs/format.md, "Behind a certain run error").
            let outcomes = byOutcome.keys.sorted().filter { neverTaken.canFinish(id, with: $0) }
            let name = step.name.text
            let file = reference
            func check(_ source: ExpressionSource, guarded: Set<String>, for handled: [String]) {
                guard case .success(let expression) = context.memo.parse(source) else { return }
                var seen: Set<String> = []
                for path in Guards.resultReads(expression.root, guarded: guarded) where !view.isBehind(source, offset: path.span.start) {
                    let key = path.keys[0]
                    guard mayLack(key), seen.insert(key).inserted,
                          let missing = handled.first(where: { byOutcome[$0]?.contains(key) == false }) else { continue }
                    findings.append(context.finding(self, at: source.position(ofOffset: path.span.start), step: name, subject: "result.\(key)",
                                                    "step '\(name: name)' reads 'result.\(name: key)', which nested flow '\(name: file)' may finish without (not when it finishes with '\(name: missing)')\(verbatim: source.unmappedNote(ofOffset: path.span.start))"))
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
            // `owner` and `listIndex` name the list's options for `neverTaken`: the `set` of an option never taken,
            // and the `if` of one never tried, are not read by any run.
            func check(_ list: [Target], for handled: [String], owner: Int?, listIndex: Int) {
                let guards = Guards.options(list, parse: context.memo.parse, paths: true)
                var read = covered
                for (index, (target, guarding)) in zip(list, guards).enumerated() {
                    let reason = neverTaken.isEmpty ? nil : neverTaken.reason(NeverTaken.Option(step: owner, list: listIndex, option: index))
                    if let reason, !reason.isTried { continue }
                    if let condition = target.condition {
                        check(condition, guarded: guarding.failed.union(read), for: handled)
                        if read.count < UnsetReads.readSetLimit { read.formUnion(readKeys(condition)) }
                    }
                    guard reason?.runsSet ?? true else { continue }
                    var earlier = read
                    for assignment in target.set {
                        check(assignment.expression, guarded: guarding.holds.union(earlier), for: handled)
                        if earlier.count < UnsetReads.readSetLimit { earlier.formUnion(readKeys(assignment.expression)) }
                    }
                }
            }
            for assignment in step.set {
                check(assignment.expression, guarded: covered, for: outcomes)
                if covered.count < UnsetReads.readSetLimit { covered.formUnion(readKeys(assignment.expression)) }
            }
            var handledByOn: Set<String> = []
            for (list, handler) in step.on.enumerated() where byOutcome[handler.event.text] != nil {
                handledByOn.insert(handler.event.text)
                check(handler.targets, for: [handler.event.text], owner: id, listIndex: list)
            }
            for outcome in outcomes where !handledByOn.contains(outcome) {
                if let (targets, list) = anyHandlers[outcome] {
                    handledByOn.insert(outcome)
                    check(targets, for: [outcome], owner: nil, listIndex: list)
                }
            }
            let unhandled = outcomes.filter { !handledByOn.contains($0) }
            if !unhandled.isEmpty {
                if let next = step.next {
                    check(next, for: unhandled, owner: id, listIndex: step.on.count)
                } else if let anyStep = flow.anyStep, let next = anyStep.next {
                    check(next, for: unhandled, owner: nil, listIndex: anyStep.on.count)
                }
            }
        }
        return findings
    }
}

/// What `exists(…)` guarantees inside an expression: the reads that count, and the keys an expression's truth or
/// falsehood proves set.
enum Guards {
    /// The `state.…` paths read by `node` outside `exists(…)` whose key is not in `guarded` or proved set by an
    /// enclosing guard (`exists(p) && …`, `!exists(p) || …`, `exists(p) ? … : …`, and their combinations).
    /// `domains`: the values of paths of enums that are not optional (see `ConstantCondition.value(of:domains:)`).
    static func reads(_ node: ExpressionNode, guarded: Set<String>, domains: ((ExpressionPath) -> [String]?)? = nil) -> [ExpressionPath] {
        var found: [ExpressionPath] = []
        func walk(_ node: ExpressionNode, _ guarded: Set<String>) {
            switch node {
            case .path(let path):
                if path.root == .state, let key = path.keys.first, !guarded.contains(key) { found.append(path) }
            case .exists, .literal:
                break
            case .binary(.and, let lhs, let rhs, _):
                walk(lhs, guarded)
                // A part a constant condition rules out is never evaluated: what it reads is no read. So is one a
                // known value of a bool key rules out (an earlier option's failed `if: state.ok`).
                if decided(lhs, guarded, domains: domains) != false { walk(rhs, guarded.union(whenTrue(lhs))) }
            case .binary(.or, let lhs, let rhs, _):
                walk(lhs, guarded)
                if decided(lhs, guarded, domains: domains) != true { walk(rhs, guarded.union(whenFalse(lhs))) }
            case .conditional(let condition, let then, let otherwise, _):
                walk(condition, guarded)
                let constant = decided(condition, guarded, domains: domains)
                if constant != false { walk(then, guarded.union(whenTrue(condition))) }
                if constant != true { walk(otherwise, guarded.union(whenFalse(condition))) }
            default:
                for child in node.children { walk(child, guarded) }
            }
        }
        walk(node, guarded)
        return found
    }

    /// The state keys that are set whenever `node` evaluates to true (what `PathGuards` proves of `state.…` paths).
    /// The paths (`state.k`, `result.k.f`) `node` reads on every evaluation that does not stop with a run error:
    /// outside `exists(…)`, the right side of `&&` and `||`, the branches of `? :` (but what both read so) and the
    /// items of an `in` list (which evaluation may skip). After such a read, the path is set, or the run has stopped
    /// there.
    static func mustReadPaths(_ node: ExpressionNode) -> Set<String> {
        var found: Set<String> = []
        var pending = [node]
        while let node = pending.popLast() {
            switch node {
            case .path(let path):
                found.insert(path.description)
            case .exists, .literal:
                break
            case .conditional(let condition, let then, let otherwise, _):
                pending.append(condition)
                // (Recursion bounded by the parser's nesting limit.)
                let both = mustReadPaths(then)
                if !both.isEmpty { found.formUnion(both.intersection(mustReadPaths(otherwise))) }
            case .binary(.and, let lhs, _, _), .binary(.or, let lhs, _, _), .membership(let lhs, _, _):
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

    /// What the value of `node` is, when it is decided: by its text (`ConstantCondition`), or by a known value of a
    /// bool key, which `guarded` holds as a fact (`valueFacts`).
    static func decided(_ node: ExpressionNode, _ guarded: Set<String>, domains: ((ExpressionPath) -> [String]?)? = nil) -> Bool? {
        if let constant = ConstantCondition.value(of: node, domains: domains) { return constant }
        switch node {
        case .path(let path) where path.root == .state && path.keys.count == 1:
            if guarded.contains(fact(path.keys[0], true)) { return true }
            if guarded.contains(fact(path.keys[0], false)) { return false }
            return nil
        case .unary(.not, let operand, _):
            return decided(operand, guarded, domains: domains).map { !$0 }
        default:
            return nil
        }
    }

    /// The values of bool keys known when `node` evaluated to `value` (without a run error): `state.ok` true or
    /// false, `!state.ok`, and what both sides of a true `&&` or a false `||` give. Kept as facts beside the keys
    /// proved set (`fact(_:_:)`), which no key name can equal.
    static func valueFacts(_ node: ExpressionNode, _ value: Bool) -> Set<String> {
        switch node {
        case .path(let path) where path.root == .state && path.keys.count == 1:
            return [fact(path.keys[0], value)]
        case .unary(.not, let operand, _):
            return valueFacts(operand, !value)
        case .binary(.and, let lhs, let rhs, _) where value:
            return valueFacts(lhs, true).union(valueFacts(rhs, true))
        case .binary(.or, let lhs, let rhs, _) where !value:
            return valueFacts(lhs, false).union(valueFacts(rhs, false))
        default:
            return []
        }
    }

    /// The fact that bool key `key` is `value`.
    static func fact(_ key: String, _ value: Bool) -> String { "=\(value):\(key)" }

    private static func stateKeys(_ paths: Set<String>) -> Set<String> {
        Set(paths.compactMap { path in
            guard path.hasPrefix("state.") else { return nil }
            return path.dropFirst(6).split(separator: ".", maxSplits: 1).first.map(String.init)
        })
    }
}
