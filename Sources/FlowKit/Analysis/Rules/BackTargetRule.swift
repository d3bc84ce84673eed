/// `back_target`: a `back: X` move whose step X may not be on the history when the move is taken.
enum BackTargetRule: Rule {
    package static let description = RuleDescription(
        identifier: .backTarget,
        name: "Back target",
        summary: "A 'back: X' move where X cannot be on the history, or a 'back: true' with nothing under it (error); X not on every path to the step (warning).",
        rationale: """
            'back: X' pops the history down to the latest X, and is a run error when X is not on it. The history \
            is always a path of forward moves from 'start' or an entry's step to the current step ('restart' \
            empties it, back moves shorten it), so X is surely on it when every such path to the step passes X (X \
            dominates the step), and never when no path of forward moves leads from X to the step (or X is not \
            reachable at all): that is an error; in between, a warning names a path that skips X. A "*" handler \
            is checked at every step that uses it and reported once: an error when X can never be on the history at \
            some step that uses it (naming the first, or saying none can have it), else a warning naming the first step where X may be \
            missing. 'back: true' pops the current step, so at a step that can be alone on the history ('start', an \
            entry's step) it has nothing to go back to: an error, for its own targets and the "*" targets it uses.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: transfer
            start: amount
            events: { edit: }
            entries:
              editTariff: { step: tariffs, path: /tariffs }
            steps:
              amount: { next: tariffs }
              tariffs: { next: confirm }
              confirm: { on: { edit: ↓{ back: amount } }, next: done }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: wrongway
            start: a
            events: { undo: }
            steps:
              a: { on: { undo: ↓{ back: b } }, next: b }
              b: { next: done }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: shared
            start: welcome
            events: { home: }
            steps:
              "*": { on: { home: ↓{ back: menu } } }
              welcome: { next: menu }
              menu: { next: done }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: first
            start: welcome
            events: { back: , close: }
            entries:
              deep: { step: details, path: /details }
            steps:
              "*": { on: { back: ↓{ back: true } } }
              welcome: { on: { close: ↓{ back: true } }, next: details }
              details: { next: done }
              done: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: transfer
            start: amount
            events:
              edit:
              again:
            entries:
              editTariff: { step: tariffs, path: /tariffs }
            steps:
              amount: { next: tariffs }
              tariffs: { next: confirm }
              confirm: { on: { edit: { back: tariffs }, again: { back: confirm } }, next: done }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: shared
            start: menu
            events: { home: }
            steps:
              "*": { on: { home: { back: menu } } }
              menu: { on: { home: done }, next: a }
              a: { next: b }
              b: { next: a }
              done: { kind: finish }
            """,
        ])

    /// The most distinct steps X whose witness paths (a path that skips X) are searched; later findings name no
    /// path, which keeps the rule near-linear however many warnings a flow has.
    static let witnessLimit = 8

    /// `back: true` at a step that can be alone on the history (`start`, an entry's step): there it has nothing to go
    /// back to. Own targets are reported at the target; a `"*"` target once, naming the first such step.
    private static func backOneAtRoots(_ context: LintContext, graph: StepGraph, live: [Int]) -> [Diagnostic] {
        let neverTaken = context.neverTaken
        let steps = graph.flow.steps
        let isLive = Set(live)
        var roots: [Int] = []
        for id in graph.rootSteps where isLive.contains(id) && !roots.contains(id) { roots.append(id) }
        func why(_ id: Int) -> String {
            id == graph.startID ? "it is where the run starts" : "entry '\(graph.entriesByStep[id]?.first.map { graph.flow.entries[$0].name.text } ?? "")' starts the run there"
        }
        var findings: [Diagnostic] = []
        for id in roots {
            let name = steps[id].name.text
            StepGraph.forEachTargetList(of: steps[id]) { listIndex, list in
                for (index, target) in list.enumerated() where target.move == .backOne && !isNeverTaken(neverTaken, step: id, list: listIndex, option: index) {
                    findings.append(context.finding(self, at: target.position, step: name, subject: "true",
                                                    "step '\(name: name)' goes back with 'back: true', but it can be alone on the history (\(verbatim: why(id))): there is nothing to go back to"))
                }
            }
        }
        for (slot, list) in graph.slotTargets.enumerated() where list.contains(where: { $0.move == .backOne }) {
            let users = roots.filter { graph.inherits($0, slot: slot) }
            guard !users.isEmpty else { continue }
            let handler = graph.slotEvents[slot].map { "the '*' handler for '\($0)'" } ?? "the '*' 'next'"
            let chosen = users.first { !StepGraph.allows(steps[$0], description.identifier) } ?? users[0]
            let name = steps[chosen].name.text
            let more = users.count > 1 ? " (and at \(users.count - 1) more step\(users.count == 2 ? "" : "s"))" : ""
            for target in list where target.move == .backOne {
                findings.append(context.finding(self, at: target.position, step: name, subject: "true",
                                                "\(verbatim: handler) goes back with 'back: true' at step '\(name: name)'\(verbatim: more), which can be alone on the history (\(verbatim: why(chosen))): there is nothing to go back to"))
            }
        }
        return findings
    }

    /// One `back: X` use at one step that X does not dominate.
    private struct Suspect {
        let target: Target
        let back: Int
        let step: Int
        /// The index of the reachability question for it.
        let question: Int
    }

    /// Needs the flow's graphs.
    static let needs: RuleNeeds = [.graph]

    /// Whether a step's own option is never taken (docs/format.md, "Options never taken", "Behind a certain run
    /// error"): its `back` move is made by no run.
    static func isNeverTaken(_ neverTaken: NeverTaken, step: Int, list: Int, option: Int) -> Bool {
        !neverTaken.isEmpty && neverTaken.reason(NeverTaken.Option(step: step, list: list, option: option)) != nil
    }

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let (flow, _) = context.reachabilityInput, let graph = context.stepGraph else { return [] }
        let steps = flow.steps
        let roots = graph.rootSteps
        let dominators = DataFlow.dominators(in: graph.graph, roots: roots)
        var questions: [(from: Int, to: Int)] = []
        func suspect(_ target: Target, at step: Int) -> Suspect? {
            guard case .back(let name) = target.move, let back = graph.ids[name.text] else { return nil }
            if back == step || dominators.dominates(back, step) { return nil }
            questions.append((back, step))
            return Suspect(target: target, back: back, step: step, question: questions.count - 1)
        }
        // The data-flow graph follows every option; a step reachable only through options never taken is no
        // run's (docs/format.md, "Only where runs go").
        let reachable = context.reachableSteps
        let neverTaken = context.neverTaken
        let live = steps.indices.filter { dominators.isReachable($0) && steps[$0].kind != .finish && reachable?[$0] != false }
        var own: [Suspect] = []
        for id in live {
            StepGraph.forEachTargetList(of: steps[id]) { listIndex, list in
                for (index, target) in list.enumerated() where !isNeverTaken(neverTaken, step: id, list: listIndex, option: index) {
                    if let found = suspect(target, at: id) { own.append(found) }
                }
            }
        }
        // "*" targets: every step that uses the slot, in file order.
        var shared: [(slot: Int, target: Target, users: Int, suspects: [Suspect])] = []
        for (slot, list) in graph.slotTargets.enumerated() {
            // Only a slot with a `back: X` target needs its users (finding them for every slot is slots × steps).
            guard list.contains(where: { if case .back = $0.move { true } else { false } }) else { continue }
            // When every back target dominates the slot's leaf, it dominates every step that uses the slot (each
            // path to the leaf runs through such a step): nothing to report, and no need to list the users.
            let leaf = graph.leaf(slot)
            let dominatesAll = list.allSatisfy { target in
                guard case .back(let name) = target.move, let back = graph.ids[name.text] else { return true }
                return dominators.dominates(back, leaf)
            }
            if dominatesAll { continue }
            let users = live.filter { graph.inherits($0, slot: slot) }
            for target in list {
                guard case .back = target.move, !users.isEmpty else { continue }
                shared.append((slot, target, users.count, users.compactMap { suspect(target, at: $0) }))
            }
        }
        let reaches = DataFlow.reaches(in: graph.graph, pairs: questions)
        func never(_ suspect: Suspect) -> Bool { !dominators.isReachable(suspect.back) || !reaches[suspect.question] }

        var witnesses: [Int: DataFlow.Paths] = [:]
        func skipping(_ suspect: Suspect) -> String {
            if witnesses[suspect.back] == nil && witnesses.count < witnessLimit {
                witnesses[suspect.back] = DataFlow.pathsAvoiding(suspect.back, in: graph.graph, roots: roots)
            }
            return witnesses[suspect.back].flatMap { graph.explain($0, to: suspect.step) }.map { " (\($0))" } ?? ""
        }
        // The steps of the path `skipping` names (worked out there), for a witness search to follow.
        func pathSteps(_ suspect: Suspect) -> [String]? {
            witnesses[suspect.back].flatMap { graph.steps(of: $0, to: suspect.step) }
        }
        func reason(_ suspect: Suspect) -> String {
            let back = "'\(steps[suspect.back].name.text)'"
            if !dominators.isReachable(suspect.back) { return "\(back) is not reachable" }
            return "no path of forward moves leads from \(back) to '\(steps[suspect.step].name.text)'"
        }

        var findings: [Diagnostic] = []
        for suspect in own {
            let name = steps[suspect.step].name.text
            let back = steps[suspect.back].name.text
            if never(suspect) {
                findings.append(context.finding(self, at: suspect.target.position, step: name, subject: back,
                                                "step '\(name: name)' goes back to '\(name: back)', which is never on the history there: \(verbatim: reason(suspect))"))
            } else {
                var finding = context.finding(self, at: suspect.target.position, step: name, subject: back,
                                              "step '\(name: name)' goes back to '\(name: back)', which is not on every path to it\(verbatim: skipping(suspect))")
                finding.severity = .warning
                finding.path = pathSteps(suspect)
                findings.append(finding)
            }
        }
        for (slot, target, users, suspects) in shared where !suspects.isEmpty {
            let handler = graph.slotEvents[slot].map { "the '*' handler for '\($0)'" } ?? "the '*' 'next'"
            guard case .back(let name) = target.move else { continue }
            let back = name.text
            if suspects.count == users && suspects.allSatisfy(never) {
                let unreachable = dominators.isReachable(suspects[0].back) ? "" : ": '\(back)' is not reachable"
                findings.append(context.finding(self, at: target.position, step: "*", subject: back,
                                                "\(verbatim: handler) goes back to '\(name: back)', which is never on the history at any step that uses it\(verbatim: unreachable)"))
                continue
            }
            // A step where the move always fails is an error, whatever the other steps do (steps that allow the
            // rule hand the finding on to the next one).
            let allowed = { (suspect: Suspect) in StepGraph.allows(steps[suspect.step], description.identifier) }
            let failing = suspects.filter { never($0) && !allowed($0) }
            if let chosen = failing.first {
                let step = steps[chosen.step].name.text
                let more = failing.count > 1 ? " (and at \(failing.count - 1) more step\(failing.count == 2 ? "" : "s"))" : ""
                findings.append(context.finding(self, at: target.position, step: step, subject: back,
                                                "\(verbatim: handler) goes back to '\(name: back)', which is never on the history at step '\(name: step)'\(verbatim: more): \(verbatim: reason(chosen))"))
                continue
            }
            let chosen = suspects.first { !allowed($0) && !never($0) } ?? suspects[0]
            let step = steps[chosen.step].name.text
            var finding = context.finding(self, at: target.position, step: step, subject: back,
                                          "\(verbatim: handler) goes back to '\(name: back)', which is not on every path to step '\(name: step)'\(verbatim: skipping(chosen))")
            finding.severity = .warning
            finding.path = pathSteps(chosen)
            findings.append(finding)
        }
        findings += backOneAtRoots(context, graph: graph, live: live)
        return findings
    }
}
