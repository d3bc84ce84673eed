import FlowKit

/// The semantic changes between two versions of a flow (docs/format.md, "Flow changes"): steps, transitions,
/// events, state, inputs, entries, outcomes and nested flows, matched by name, with expressions compared parsed.
package enum FlowDiff {
    /// The changes from `old` to `new`, in the order of the checks' sections (flow, steps in the new file's order
    /// then the removed ones, events, state, entries, outcomes, reachability).
    package static func compare(old: Flow, new: Flow, parents: FlowParents = FlowParents()) -> [FlowChange] {
        var comparison = Comparison(old: old, new: new, parents: parents)
        comparison.run()
        return comparison.changes
    }

    /// Why a file cannot be compared: it cannot be read, is not a flow, or has syntax or schema errors.
    package struct Problem: Error, Sendable, CustomStringConvertible {
        /// A lowercase message naming the file.
        package let message: CommandMessage
        /// The errors that stop the comparison, when there are some.
        package let findings: [Diagnostic]
        package var description: String { message.description }
    }

    /// The flow in the file at `path`, for comparing.
    package static func load(path: String) throws(Problem) -> Flow {
        let document: LoadedDocument
        do {
            document = try FlowLoader.load(path: path)
        } catch {
            throw Problem(message: CommandMessage(error.localizedDescription), findings: [])
        }
        return try check(document, path: path)
    }

    /// The flow in `bytes` (read from `file`, named in findings and changes as `name`), for comparing.
    package static func load(bytes: [UInt8], file: String, name: String) throws(Problem) -> Flow {
        try check(FlowLoader.load(bytes: bytes, file: name, format: DocumentFormat(path: file)), path: name)
    }

    /// The flow of a loaded document, or why it cannot be compared.
    static func check(_ document: LoadedDocument, path: String) throws(Problem) -> Flow {
        let errors = document.diagnostics.filter { $0.severity == .error }
        guard !document.isScript, let flow = document.flow, errors.isEmpty else {
            throw Problem(message: "'\(name: path, limit: .max)' \(verbatim: document.isScript ? "is a simulation script, not a flow" : "is not a flow that can be compared")",
                          findings: errors)
        }
        return flow
    }

    private struct Comparison {
        let old: Flow
        let new: Flow
        let renames: FlowRenames
        /// Old step, event and outcome names to new ones, for what was renamed.
        let steps: [String: String]
        let events: [String: String]
        let outcomeNames: [String: String]
        let parents: FlowParents
        var changes: [FlowChange] = []

        init(old: Flow, new: Flow, parents: FlowParents) {
            self.old = old
            self.new = new
            self.parents = parents
            renames = FlowRenames.find(old: old, new: new)
            steps = renames.stepNames
            events = renames.eventNames
            outcomeNames = renames.outcomeNames
        }

        /// A step's name in the new file's terms.
        func renamed(_ step: String) -> String { steps[step] ?? step }

        func place(_ flow: Flow, _ position: SourcePosition) -> FlowChange.Place {
            FlowChange.Place(file: flow.file, line: position.line, column: position.column)
        }

        /// Adds a change: where it is in each file, and what it is about there.
        mutating func add(_ check: ChangeCheck, _ message: Message, old oldPosition: SourcePosition?, new newPosition: SourcePosition?,
                          was: FlowChange.Subject?, now: FlowChange.Subject?, level: ChangeLevel? = nil) {
            changes.append(FlowChange(check: check, level: level ?? check.level, message: message.text,
                                      old: oldPosition.map { place(old, $0) }, new: newPosition.map { place(new, $0) },
                                      was: oldPosition == nil ? nil : was, now: newPosition == nil ? nil : now, file: new.file))
        }

        mutating func run() {
            if renamed(old.start.text) != new.start.text {
                add(.startChanged, "start changed from '\(name: old.start.text)' to '\(name: new.start.text)'", old: old.start.position, new: new.start.position, was: .start, now: .start)
            }
            compareSteps()
            compareHandlers()
            compareEvents()
            compareState()
            compareEntries()
            compareOutcomes()
            compareReach()
        }

        // MARK: Steps and transitions

        mutating func compareSteps() {
            let oldSteps = Dictionary(old.steps.map { (renamed($0.name.text), $0) }, uniquingKeysWith: { first, _ in first })
            let newNames = Set(new.steps.map(\.name.text))
            for rename in renames.steps {
                add(.stepRenamed, "step '\(name: rename.old.text)' renamed to '\(name: rename.new.text)' (\(Self.evidence(rename)))", old: rename.old.position, new: rename.new.position,
                    was: .step(rename.old.text), now: .step(rename.new.text))
            }
            var pairs: [(Step?, Step?)] = new.steps.map { (oldSteps[$0.name.text], $0) }
            pairs += old.steps.filter { !newNames.contains(renamed($0.name.text)) }.map { ($0, nil) }
            if old.anyStep != nil || new.anyStep != nil { pairs.append((old.anyStep, new.anyStep)) }
            for (before, after) in pairs {
                switch (before, after) {
                case (nil, let step?):
                    add(.stepAdded, "step '\(name: step.name.text)' added", old: nil, new: step.name.position, was: nil, now: .step(step.name.text))
                case (let step?, nil):
                    add(.stepRemoved, "step '\(name: step.name.text)' removed", old: step.name.position, new: nil, was: .step(step.name.text), now: nil)
                case (let before?, let after?):
                    compareStep(before, after)
                case (nil, nil):
                    break
                }
            }
        }

        mutating func compareStep(_ before: Step, _ after: Step) {
            let name = after.name.text
            let at = (old: before.name.position, new: after.name.position)
            let subject = (was: FlowChange.Subject.step(before.name.text), now: FlowChange.Subject.step(name))
            if before.kind != after.kind {
                add(.stepKindChanged, "step '\(name: name)' is now a \(verbatim: after.kind.rawValue), not a \(verbatim: before.kind.rawValue)", old: at.old, new: at.new, was: subject.was, now: subject.now)
            }
            if before.title != after.title {
                add(.stepTitleChanged, "the title of step '\(name: name)' changed from \(quoted(before.title)) to \(quoted(after.title))", old: at.old, new: at.new, was: subject.was, now: subject.now)
            }
            if NormalForm.fields(before.result) != NormalForm.fields(after.result) {
                add(.stepResultChanged, "the result of step '\(name: name)' changed from \(path: NormalForm.fields(before.result) ?? "none") to \(path: NormalForm.fields(after.result) ?? "none")",
                    old: at.old, new: at.new, was: subject.was, now: subject.now)
            }
            if NormalForm.assignments(before.set) != NormalForm.assignments(after.set) {
                add(.setChanged, "step '\(name: name)' now sets \(path: NormalForm.assignments(after.set) ?? "nothing"), not \(path: NormalForm.assignments(before.set) ?? "nothing")", old: at.old, new: at.new, was: subject.was, now: subject.now)
            }
            if before.flowPath != after.flowPath || NormalForm.assignments(before.input) != NormalForm.assignments(after.input) {
                let what = before.flowPath != after.flowPath
                    ? "runs '\(after.flowPath ?? "")', not '\(before.flowPath ?? "")'"
                    : "passes \(NormalForm.assignments(after.input) ?? "no input"), not \(NormalForm.assignments(before.input) ?? "no input")"
                add(.nestedFlowChanged, "flow step '\(name: name)' \(path: what)", old: before.flowPathPosition ?? at.old, new: after.flowPathPosition ?? at.new,
                    was: subject.was, now: subject.now)
            }
            // Target lists: each handler by event, then `next`.
            let oldHandlers = Dictionary(before.on.map { (events[$0.event.text] ?? $0.event.text, $0) }, uniquingKeysWith: { first, _ in first })
            let newEvents = Set(after.on.map(\.event.text))
            for handler in after.on {
                let was = oldHandlers[handler.event.text]
                compareList(old: (before.name.text, .on(was?.event.text ?? handler.event.text)), new: (name, .on(handler.event.text)), was?.targets ?? [], handler.targets)
            }
            for handler in before.on where !newEvents.contains(events[handler.event.text] ?? handler.event.text) {
                compareList(old: (before.name.text, .on(handler.event.text)), new: (name, .on(handler.event.text)), handler.targets, [])
            }
            compareList(old: (before.name.text, .next), new: (name, .next), before.next ?? [], after.next ?? [])
        }

        /// Compares a target list option by option; `old` and `new` name the list in each file (reports label it by
        /// `new`, which for a handler only the old file has is the new step's name with the old event's).
        mutating func compareList(old: (step: String, list: CoverageIdentity.OptionList), new: (step: String, list: CoverageIdentity.OptionList),
                                  _ before: [Target], _ after: [Target]) {
            for index in 0..<max(before.count, after.count) {
                let label = "\(new.step) --\(new.list.text)\(max(before.count, after.count) > 1 ? " [\(index)]" : "")-->"
                let subject = (was: FlowChange.Subject.option(FlowOption(step: old.step, list: old.list, index: index)),
                               now: FlowChange.Subject.option(FlowOption(step: new.step, list: new.list, index: index)))
                switch (index < before.count ? before[index] : nil, index < after.count ? after[index] : nil) {
                case (nil, let target?):
                    add(.transitionAdded, "transition \(path: label) \(path: NormalForm.move(target)) added", old: nil, new: target.position, was: nil, now: subject.now)
                case (let target?, nil):
                    add(.transitionRemoved, "transition \(path: label) \(path: NormalForm.move(target)) removed", old: target.position, new: nil, was: subject.was, now: nil)
                case (let was?, let now?):
                    if NormalForm.move(was, renamed: steps) != NormalForm.move(now) {
                        add(.transitionRetargeted, "transition \(path: label) now goes to \(path: NormalForm.move(now)), not \(path: NormalForm.move(was))", old: was.position, new: now.position,
                            was: subject.was, now: subject.now)
                    }
                    if NormalForm.expression(was.condition) != NormalForm.expression(now.condition) {
                        add(.guardChanged, "the condition of \(path: label) \(path: NormalForm.move(now)) changed from \(quoted(was.condition?.text)) to \(quoted(now.condition?.text))",
                            old: was.position, new: now.position, was: subject.was, now: subject.now)
                    }
                    if NormalForm.assignments(was.set) != NormalForm.assignments(now.set) {
                        add(.setChanged, "\(path: label) \(path: NormalForm.move(now)) now sets \(path: NormalForm.assignments(now.set) ?? "nothing"), not \(path: NormalForm.assignments(was.set) ?? "nothing")",
                            old: was.position, new: now.position, was: subject.was, now: subject.now)
                    }
                case (nil, nil):
                    break
                }
            }
        }

        /// `handler_removed`: explicit events a step in both files handled (itself or through `"*"`) and no longer
        /// handles, while the new file still declares them; one change per `"*"` handler, naming the steps.
        mutating func compareHandlers() {
            let oldSteps = Dictionary(old.steps.map { (renamed($0.name.text), $0) }, uniquingKeysWith: { first, _ in first })
            let declared = Set(new.events.map(\.name.text))
            var throughAny: [String: [String]] = [:]
            var anyOrder: [String] = []
            for step in new.steps where step.kind == .screen || step.kind == .action {
                guard let was = oldSteps[step.name.text] else { continue }
                let now = Set(FlowInterface.explicitEvents(of: step, in: new))
                for event in FlowInterface.explicitEvents(of: was, in: old) {
                    let name = events[event] ?? event
                    guard !now.contains(name), declared.contains(name) else { continue }
                    let anyStillHandles = new.anyStep?.on.contains { $0.event.text == name } ?? false
                    let own = was.on.first { $0.event.text == event }
                    if let handler = own ?? (anyStillHandles ? old.anyStep?.on.first { $0.event.text == event } : nil) {
                        add(.handlerRemoved, "step '\(name: step.name.text)' no longer handles event '\(name: name)': an app or script that raises it there fails",
                            old: handler.event.position, new: step.name.position, was: .handler(step: own == nil ? "*" : was.name.text, event: event),
                            now: .step(step.name.text))
                    } else {
                        if throughAny[event] == nil { anyOrder.append(event) }
                        throughAny[event, default: []].append(step.name.text)
                    }
                }
            }
            for event in anyOrder {
                let users = throughAny[event]!
                let shown = Message.quoted(users.prefix(3)) + (users.count > 3 ? " and \(users.count - 3) more" : "")
                let handler = old.anyStep?.on.first { $0.event.text == event }
                add(.handlerRemoved, "the \"*\" handler of event '\(name: events[event] ?? event)' was removed: \(verbatim: users.count == 1 ? "step" : "steps") \(shown), which used it, no longer \(verbatim: users.count == 1 ? "handles" : "handle") it",
                    old: handler?.event.position, new: new.anyStep?.name.position ?? new.step(named: users[0])?.name.position,
                    was: .handler(step: "*", event: event), now: .step(new.anyStep == nil ? users[0] : "*"))
            }
        }

        // MARK: Events, state, entries, outcomes

        mutating func compareEvents() {
            let oldEvents = Dictionary(old.events.map { (events[$0.name.text] ?? $0.name.text, $0) }, uniquingKeysWith: { first, _ in first })
            let newNames = Set(new.events.map(\.name.text))
            for rename in renames.events {
                add(.eventRenamed, "event '\(name: rename.old.text)' renamed to '\(name: rename.new.text)' (\(Self.evidence(rename)))", old: rename.old.position, new: rename.new.position,
                    was: .event(rename.old.text), now: .event(rename.new.text))
            }
            for event in new.events {
                guard let was = oldEvents[event.name.text] else {
                    add(.eventAdded, "event '\(name: event.name.text)' added", old: nil, new: event.name.position, was: nil, now: .event(event.name.text))
                    continue
                }
                if NormalForm.expression(was.expression) != NormalForm.expression(event.expression) {
                    add(.eventChanged, "event '\(name: event.name.text)' is now raised when \(quoted(event.expression?.text)), not \(quoted(was.expression?.text))",
                        old: was.name.position, new: event.name.position, was: .event(was.name.text), now: .event(event.name.text))
                }
            }
            for event in old.events where !newNames.contains(events[event.name.text] ?? event.name.text) {
                add(.eventRemoved, "event '\(name: event.name.text)' removed", old: event.name.position, new: nil, was: .event(event.name.text), now: nil)
            }
        }

        mutating func compareState() {
            let oldKeys = Dictionary(old.state.map { ($0.name.text, $0) }, uniquingKeysWith: { first, _ in first })
            let newKeys = Set(new.state.map(\.name.text))
            for field in new.state {
                guard let was = oldKeys[field.name.text] else {
                    add(.stateKeyAdded, "state key '\(name: field.name.text)' added", old: nil, new: field.name.position, was: nil, now: .stateKey(field.name.text))
                    continue
                }
                if was.type.description != field.type.description {
                    add(.stateTypeChanged, "state key '\(name: field.name.text)' is now \(path: field.type), not \(path: was.type)" + readers(field.name.text),
                        old: was.name.position, new: field.name.position, was: .stateKey(was.name.text), now: .stateKey(field.name.text), level: parents.reads[field.name.text] == nil ? nil : .breaking)
                }
            }
            for field in old.state where !newKeys.contains(field.name.text) {
                add(.stateKeyRemoved, "state key '\(name: field.name.text)' removed" + readers(field.name.text), old: field.name.position, new: nil,
                    was: .stateKey(field.name.text), now: nil, level: parents.reads[field.name.text] == nil ? nil : .breaking)
            }
            let oldInputs = Set(old.inputs.map(\.text))
            let newInputs = Set(new.inputs.map(\.text))
            let required = Set(new.requiredInputs)
            for input in new.inputs where !oldInputs.contains(input.text) {
                let isRequired = required.contains(input.text)
                add(.inputAdded, "input '\(name: input.text)' added" + (isRequired ? ", and it is required: callers that do not pass it fail" : ""),
                    old: nil, new: input.position, was: nil, now: .input(input.text), level: isRequired ? .breaking : .info)
            }
            for input in old.inputs where !newInputs.contains(input.text) {
                add(.inputRemoved, "input '\(name: input.text)' removed", old: input.position, new: nil, was: .input(input.text), now: nil)
            }
        }

        mutating func compareEntries() {
            let oldEntries = Dictionary(old.entries.map { ($0.name.text, $0) }, uniquingKeysWith: { first, _ in first })
            let newNames = Set(new.entries.map(\.name.text))
            for entry in new.entries {
                guard let was = oldEntries[entry.name.text] else {
                    add(.entryAdded, "entry '\(name: entry.name.text)' (\(path: entry.path)) added", old: nil, new: entry.name.position, was: nil, now: .entry(entry.name.text))
                    continue
                }
                if shape(was, in: old) != shape(entry, in: new) {
                    add(.entryPathChanged, "entry '\(name: entry.name.text)' now opens \(path: shape(entry, in: new)), not \(path: shape(was, in: old)): links in shipped apps stop working",
                        old: was.pathPosition, new: entry.pathPosition, was: .entry(was.name.text), now: .entry(entry.name.text))
                }
                if renamed(was.step.text) != entry.step.text || was.nestedEntry?.text != entry.nestedEntry?.text {
                    add(.entryStepChanged, "entry '\(name: entry.name.text)' now starts at '\(name: target(entry))', not '\(name: target(was))'", old: was.step.position, new: entry.step.position,
                        was: .entry(was.name.text), now: .entry(entry.name.text))
                }
            }
            for entry in old.entries where !newNames.contains(entry.name.text) {
                add(.entryRemoved, "entry '\(name: entry.name.text)' (\(path: entry.path)) removed: links in shipped apps stop working", old: entry.name.position, new: nil,
                    was: .entry(entry.name.text), now: nil)
            }
        }

        mutating func compareOutcomes() {
            let before = outcomes(old)
            let after = outcomes(new)
            for rename in renames.outcomes {
                add(.outcomeRenamed, "outcome '\(name: rename.old.text)' renamed to '\(name: rename.new.text)' (\(Self.evidence(rename))): parent flows that handle it no longer get it",
                    old: rename.old.position, new: rename.new.position, was: .outcome(rename.old.text), now: .outcome(rename.new.text))
            }
            let beforeNames = Set(before.map { outcomeNames[$0.name] ?? $0.name })
            let afterNames = Set(after.map(\.name))
            for (outcome, position) in after where !beforeNames.contains(outcome) {
                add(.outcomeAdded, "outcome '\(name: outcome)' added", old: nil, new: position, was: nil, now: .outcome(outcome))
            }
            for (outcome, position) in before where !afterNames.contains(outcomeNames[outcome] ?? outcome) {
                add(.outcomeRemoved, "outcome '\(name: outcome)' removed: parent flows that handle it no longer get it", old: position, new: nil, was: .outcome(outcome), now: nil)
            }
        }

        mutating func compareReach() {
            let before = Set(reached(old).map(renamed))
            let after = reached(new)
            let oldSteps = Dictionary(old.steps.map { (renamed($0.name.text), $0) }, uniquingKeysWith: { first, _ in first })
            for step in new.steps {
                guard let was = oldSteps[step.name.text] else { continue }
                let name = step.name.text
                if before.contains(name) && !after.contains(name) {
                    add(.stepUnreachable, "step '\(name: name)' is no longer reached from the start or an entry", old: was.name.position, new: step.name.position,
                        was: .step(was.name.text), now: .step(name))
                } else if !before.contains(name) && after.contains(name) {
                    add(.stepNowReachable, "step '\(name: name)' is now reached from the start or an entry", old: was.name.position, new: step.name.position,
                        was: .step(was.name.text), now: .step(name))
                }
            }
            // Outcomes a run from `start` can end with: the finish steps that give them, reached from `start`.
            let fromStart = (old: reached(old, fromStartOnly: true), new: reached(new, fromStartOnly: true))
            func reachable(_ flow: Flow, _ reached: Set<String>) -> [String: Bool] {
                var result: [String: Bool] = [:]
                for step in flow.steps where step.kind == .finish {
                    let outcome = step.outcome?.text ?? step.name.text
                    result[outcome] = (result[outcome] ?? false) || reached.contains(step.name.text)
                }
                return result
            }
            let was = reachable(old, fromStart.old)
            let now = reachable(new, fromStart.new)
            let formerly = Dictionary(outcomeNames.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let oldPositions = Dictionary(outcomes(old).map { (outcomeNames[$0.name] ?? $0.name, $0.position) }, uniquingKeysWith: { first, _ in first })
            for (outcome, position) in outcomes(new) {
                guard let before = oldPositions[outcome], let reachedBefore = was[formerly[outcome] ?? outcome] else { continue }
                let reachedNow = now[outcome] ?? false
                if reachedBefore && !reachedNow {
                    add(.outcomeUnreachable, "outcome '\(name: outcome)' can no longer be reached from the start", old: before, new: position,
                        was: .outcome(formerly[outcome] ?? outcome), now: .outcome(outcome))
                } else if !reachedBefore && reachedNow {
                    add(.outcomeNowReachable, "outcome '\(name: outcome)' can now be reached from the start", old: before, new: position,
                        was: .outcome(formerly[outcome] ?? outcome), now: .outcome(outcome))
                }
            }
        }

        // MARK: Normal forms

        /// The outcomes finish steps give, each at its first finish step, in file order.
        func outcomes(_ flow: Flow) -> [(name: String, position: SourcePosition)] {
            var seen: Set<String> = []
            var result: [(name: String, position: SourcePosition)] = []
            for step in flow.steps where step.kind == .finish {
                let name = step.outcome?.text ?? step.name.text
                if seen.insert(name).inserted { result.append((name, step.outcome?.position ?? step.name.position)) }
            }
            return result
        }

        /// The steps reached from `start` and the entries, over every target of every list, guards ignored.
        func reached(_ flow: Flow, fromStartOnly: Bool = false) -> Set<String> {
            let steps = Dictionary(flow.steps.map { ($0.name.text, $0) }, uniquingKeysWith: { first, _ in first })
            func targets(_ step: Step) -> [String] {
                var lists = step.on.map(\.targets) + [step.next ?? []]
                if step.kind != .finish, let any = flow.anyStep { lists += any.on.map(\.targets) + [any.next ?? []] }
                return lists.joined().compactMap { $0.stepName?.text }
            }
            var seen: Set<String> = []
            var stack = [flow.start.text] + (fromStartOnly ? [] : flow.entries.map(\.step.text))
            while let name = stack.popLast() {
                guard let step = steps[name], seen.insert(name).inserted else { continue }
                stack += targets(step)
            }
            return seen
        }

        /// An entry's path with each parameter's type: what a link must look like.
        func shape(_ entry: Entry, in flow: Flow) -> String {
            let types = Dictionary(flow.state.map { ($0.name.text, $0.type.description) }, uniquingKeysWith: { first, _ in first })
            let parameters = EntryPath.parameters(entry.path)
            return "'\(entry.path)'" + (parameters.isEmpty ? "" : " (" + parameters.map { "\($0): \(types[$0] ?? "undeclared")" }.joined(separator: ", ") + ")")
        }

        func target(_ entry: Entry) -> String {
            entry.step.text + (entry.nestedEntry.map { "/" + $0.text } ?? "")
        }

        /// `: parent step 'P' reads it (FILE:LINE:COLUMN, and N more)`, or nothing when no parent reads `key`.
        func readers(_ key: String) -> Message {
            guard let reads = parents.reads[key], let first = reads.first else { return "" }
            let more: Message = reads.count > 1 ? ", and \(reads.count - 1) more)" : ")"
            return ": parent step '\(name: first.step)' reads it (\(path: first.file):\(first.line):\(first.column)" + more
        }

        /// `confidence N%: same title and transitions; references differ`.
        static func evidence(_ rename: FlowRenames.Rename) -> Message {
            func list(_ items: [String]) -> String {
                items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
            }
            return "confidence \(rename.confidence)%: same \(verbatim: list(rename.agreeing))"
                + (rename.differing.isEmpty ? "" : "; \(verbatim: list(rename.differing)) differ\(verbatim: rename.differing.count == 1 ? "s" : "")")
        }

        func quoted(_ text: String?) -> Message {
            text.map { "'\(path: $0, limit: 60)'" } ?? "none"
        }
    }
}
