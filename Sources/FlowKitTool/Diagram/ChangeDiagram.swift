import FlowKit

extension FlowDiagram {
    /// The picture of a change (`flowkit render --diff OLD NEW`, docs/format.md "Pictures of a change"): the new
    /// flow with what was added green, what changed orange and the rest grey, and what was removed drawn where it
    /// was, as red dashed ghosts. What counts as a change is what `FlowDiff.compare` reports, so the picture and
    /// `flowkit diff` always agree. With `focusOnChanges`, only the steps a change touches and their neighbours
    /// within `options.radius` moves are drawn (all of them when nothing changed).
    package init(change old: Flow, to new: Flow, options: DiagramOptions = DiagramOptions(), focusOnChanges: Bool = false) throws {
        let changes = FlowDiff.compare(old: old, new: new)
        let renames = FlowRenames.find(old: old, new: new)
        let renamed = renames.stepNames
        // The steps of the old file by name, for ghosts; an option as ghosts draw it.
        var oldSteps: [String: Step] = [:]
        for step in old.steps + (old.anyStep.map { [$0] } ?? []) where oldSteps[step.name.text] == nil { oldSteps[step.name.text] = step }
        typealias Ghost = (step: String, target: Target, event: String?, count: Int, index: Int)
        func ghost(_ option: FlowOption) -> Ghost? {
            guard let targets = oldSteps[option.step]?.targets(of: option.list), option.index < targets.count else { return nil }
            guard case .on(let event) = option.list else { return (option.step, targets[option.index], nil, targets.count, option.index) }
            return (option.step, targets[option.index], event, targets.count, option.index)
        }
        var stepMarks: [String: ChangeMark] = [:]
        var optionMarks: [FlowOption: ChangeMark] = [:]
        var ghostSteps: [Step] = []
        var ghostOptions: [Ghost] = []
        var entryMarks: [String: ChangeMark] = [:]
        // What breaking changes need beyond marks: ghost entries, renamed events' options, finish steps whose
        // outcome went, the start edge's required inputs, and notes for what has no place (docs/format.md,
        // "Pictures of a change").
        var ghostEntries: [Entry] = []
        var eventWas: [String: String] = [:]
        var outcomeWas: [String: String] = [:]
        var requiredInputs: [String] = []
        var notes: [FlowChange] = []
        let oldEntries = Dictionary(old.entries.map { ($0.name.text, $0) }, uniquingKeysWith: { first, _ in first })
        // Finish steps in both files whose outcome is another now, by their new names: what they gave.
        for step in old.steps where step.kind == .finish {
            let name = renamed[step.name.text] ?? step.name.text
            guard let now = new.step(named: name), now.kind == .finish else { continue }
            let was = step.outcome?.text ?? step.name.text
            if (now.outcome?.text ?? now.name.text) != was { outcomeWas[name] = was }
        }
        let oldHandled = Set((old.steps + (old.anyStep.map { [$0] } ?? [])).flatMap { $0.on.map(\.event.text) })
        // Checks the marks below draw: placed by them.
        let marked: Set<ChangeCheck> = [.stepAdded, .stepRemoved, .stepRenamed, .stepKindChanged, .stepTitleChanged, .stepResultChanged, .nestedFlowChanged,
                                        .setChanged, .transitionAdded, .transitionRetargeted, .guardChanged, .transitionRemoved, .entryAdded,
                                        .entryPathChanged, .entryStepChanged]
        for change in changes {
            var placed = true
            switch change.check {
            case .entryRemoved:
                if case .entry(let name) = change.was, let entry = oldEntries[name] { ghostEntries.append(entry) } else { placed = false }
            case .eventRenamed:
                for rename in renames.events { eventWas[rename.new.text] = rename.old.text }
            case .outcomeRenamed, .outcomeRemoved:
                // Drawn at the finish steps that gave it and give another outcome now, or as their ghosts.
                guard case .outcome(let outcome) = change.was else { placed = false; break }
                let steps = old.steps.filter { $0.kind == .finish && ($0.outcome?.text ?? $0.name.text) == outcome }
                placed = !steps.isEmpty && steps.allSatisfy { outcomeWas[renamed[$0.name.text] ?? $0.name.text] != nil || new.step(named: renamed[$0.name.text] ?? $0.name.text) == nil }
            case .inputAdded:
                if change.level == .breaking, case .input(let name) = change.now {
                    requiredInputs.append(name)
                } else {
                    placed = change.level != .breaking
                }
            case .eventRemoved:
                // Its options are drawn removed where some step handled it; else a note says so.
                if case .event(let name) = change.was { placed = oldHandled.contains(name) } else { placed = false }
            case .handlerRemoved:
                // Drawn by the ghosts of its removed options; an event that became derived removes none: a note.
                placed = changes.contains { $0.check == .transitionRemoved }
            default:
                placed = marked.contains(change.check)
            }
            // What is breaking and has no place of its own is a note.
            if !placed && change.level == .breaking { notes.append(change) }
            switch (change.check, change.was, change.now) {
            case (.stepAdded, _, .step(let name)?):
                stepMarks[name] = .added
            case (.stepRemoved, .step(let name)?, _):
                if let step = oldSteps[name] {
                    ghostSteps.append(step)
                    for (list, targets) in step.optionLists {
                        for index in targets.indices { ghostOptions += ghost(FlowOption(step: name, list: list, index: index)).map { [$0] } ?? [] }
                    }
                }
            case (.stepRenamed, _, .step(let name)?), (.stepKindChanged, _, .step(let name)?), (.stepTitleChanged, _, .step(let name)?),
                 (.stepResultChanged, _, .step(let name)?), (.nestedFlowChanged, _, .step(let name)?), (.setChanged, _, .step(let name)?):
                if stepMarks[name] == nil { stepMarks[name] = .changed }
            case (.setChanged, _, .option(let option)?), (.guardChanged, _, .option(let option)?):
                optionMarks[option] = .changed
            case (.transitionAdded, _, .option(let option)?):
                optionMarks[option] = .added
            case (.transitionRetargeted, let was, .option(let option)?):
                optionMarks[option] = .changed
                if case .option(let option)? = was, let ghost = ghost(option) { ghostOptions.append(ghost) }
            case (.transitionRemoved, .option(let option)?, _):
                if let ghost = ghost(option) { ghostOptions.append(ghost) }
            case (.entryAdded, _, .entry(let name)?):
                entryMarks[name] = .added
            case (.entryPathChanged, _, .entry(let name)?), (.entryStepChanged, _, .entry(let name)?):
                entryMarks[name] = .changed
            default:
                break
            }
        }
        // A step's name in the new file: renamed ones by their new names.
        func now(_ name: String) -> String { renamed[name] ?? name }
        var options = options
        options.coverage = nil
        if focusOnChanges {
            var touched = Set(stepMarks.keys)
            for step in new.steps + (new.anyStep.map { [$0] } ?? []) {
                for (list, targets) in step.optionLists {
                    for (index, target) in targets.enumerated() where optionMarks[FlowOption(step: step.name.text, list: list, index: index)] != nil {
                        touched.insert(step.name.text)
                        if let to = target.stepName?.text { touched.insert(to) }
                    }
                }
            }
            for option in ghostOptions {
                touched.insert(now(option.step))
                if let to = option.target.stepName?.text { touched.insert(now(to)) }
            }
            for entry in new.entries where entryMarks[entry.name.text] != nil { touched.insert(entry.step.text) }
            for entry in ghostEntries { touched.insert(now(entry.step.text)) }
            for step in new.steps where outcomeWas[step.name.text] != nil { touched.insert(step.name.text) }
            for step in new.steps + (new.anyStep.map { [$0] } ?? []) {
                for handler in step.on where eventWas[handler.event.text] != nil {
                    touched.insert(step.name.text)
                    for target in handler.targets { if let to = target.stepName?.text { touched.insert(to) } }
                }
            }
            if !requiredInputs.isEmpty || !notes.isEmpty { touched.insert(new.start.text) }
            touched.remove("*")
            options.focus = nil
            options.focusSteps = touched
            if touched.isEmpty && !ghostSteps.isEmpty { options.focusSteps = [new.start.text] }
        }
        try self.init(flow: new, options: options)
        let formerly = Dictionary(renamed.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for index in nodes.indices {
            guard nodes[index].role != .initial, !nodes[index].inLegend else { continue }
            if let step = nodes[index].step {
                nodes[index].change = stepMarks[step] ?? .unchanged
                if let was = formerly[step] { nodes[index].label += "\n(was \(was))" }
            } else if nodes[index].role == .entry, let entry = nodes[index].entry {
                nodes[index].change = entryMarks[entry] ?? .unchanged
            } else {
                nodes[index].change = .unchanged
            }
        }
        for index in nodes.indices {
            if let step = nodes[index].step, let was = outcomeWas[step], nodes[index].role == .finish {
                nodes[index].change = .changed
                nodes[index].label += "\n(outcome was \(was))"
            }
        }
        // The options of a renamed event: what the event was called.
        var renamedOptions: [FlowOption: String] = [:]
        for step in new.steps + (new.anyStep.map { [$0] } ?? []) {
            for handler in step.on {
                guard let was = eventWas[handler.event.text] else { continue }
                for index in handler.targets.indices { renamedOptions[FlowOption(step: step.name.text, list: .on(handler.event.text), index: index)] = was }
            }
        }
        for index in edges.indices where !edges[index].inLegend {
            edges[index].change = edges[index].option.flatMap { optionMarks[$0] } ?? .unchanged
            if let option = edges[index].option, let was = renamedOptions[option] {
                edges[index].change = .changed
                edges[index].label = (edges[index].label.map { $0 + "\n" } ?? "") + "(was on \(was))"
            }
        }
        // New required inputs: on the edge from the start marker, else in a note.
        if !requiredInputs.isEmpty {
            let text = "needs " + requiredInputs.map { "input '\($0)'" }.joined(separator: ", ")
            if let start = edges.firstIndex(where: { nodes[$0.from].role == .initial && !$0.inLegend }) {
                edges[start].label = text
                edges[start].change = .changed
            } else {
                notes += changes.filter { $0.check == .inputAdded && $0.level == .breaking }
            }
        }
        // Ghosts: removed steps drawn as they were, and removed options from where they started.
        var ghostNode: [String: Int] = [:]
        for step in ghostSteps {
            let role = Role(step.kind)
            ghostNode[step.name.text] = nodes.count
            let label = step.title.map { "\($0)\n\(step.name.text)" } ?? step.name.text
            nodes.append(Node(id: "g\(ghostNode.count - 1)", label: label, step: nil, role: role, isStart: false, highlighted: false, change: .removed,
                              standsFor: step.name.text))
        }
        var stepNodes: [String: Int] = [:]
        var boundaryNodes: [String: Int] = [:]
        for (index, node) in nodes.enumerated() {
            if let step = node.step, node.role != .boundary, stepNodes[step] == nil { stepNodes[step] = index }
            if node.role == .boundary, boundaryNodes[node.label] == nil { boundaryNodes[node.label] = index }
        }
        func drawn(_ name: String) -> Int? {
            if let ghost = ghostNode[name] { return ghost }
            if let node = stepNodes[now(name)] ?? boundaryNodes[now(name)] { return node }
            // A `"*"` step whose every handler went: drawn as a ghost, so that its removed options start somewhere.
            guard name == "*" else { return nil }
            ghostNode[name] = nodes.count
            nodes.append(Node(id: "g\(ghostNode.count - 1)", label: "*", step: nil, role: .anyStep, isStart: false, highlighted: false, change: .removed,
                              standsFor: "*"))
            return nodes.count - 1
        }
        for (index, entry) in ghostEntries.enumerated() {
            nodes.append(Node(id: "ge\(index)", label: Self.entryLabel(entry, in: old, resolver: options.resolver), step: nil, role: .entry,
                              isStart: false, highlighted: false, change: .removed, entry: entry.name.text))
            if let to = drawn(entry.step.text) {
                edges.append(Edge(from: nodes.count - 1, to: to, label: nil, style: .annotation, highlighted: false, order: [], change: .removed))
            }
        }
        for option in ghostOptions {
            guard let from = drawn(option.step) else { continue }
            var parts: [String] = []
            if let event = option.event { parts.append("on \(event)") }
            if let condition = option.target.condition { parts.append("if \(Self.short(condition.text))") }
            if option.count > 1, option.target.condition == nil, option.index > 0 { parts.append("otherwise") }
            let to: Int
            var style = Style.forward
            switch option.target.move {
            case .forward(let name), .back(let name):
                guard let target = drawn(name.text) else { continue }
                to = target
                if case .back = option.target.move { style = .back }
            case .backOne:
                nodes.append(Node(id: "gb\(nodes.count)", label: "back", step: nil, role: .backMarker, isStart: false, highlighted: false, change: .removed))
                to = nodes.count - 1
                style = .back
            case .restart:
                guard let start = drawn(old.start.text) else { continue }
                to = start
                style = .restart
                parts.append("restart")
            }
            edges.append(Edge(from: from, to: to, label: parts.isEmpty ? nil : parts.joined(separator: "\n"), style: style, highlighted: false, order: [],
                              change: .removed))
        }
        // Breaking changes with no place of their own: a red note beside the start step (or alone), in the report's words.
        for (index, change) in notes.enumerated() {
            nodes.append(Node(id: "gn\(index)", label: "breaking: " + Self.short(change.message, limit: 60), step: nil, role: .failureNote,
                              isStart: false, highlighted: false, failure: change.message, change: .removed))
            if let start = stepNodes[new.start.text] {
                edges.append(Edge(from: nodes.count - 1, to: start, label: nil, style: .annotation, highlighted: false, order: []))
            }
        }
        let count = (added: stepMarks.values.filter { $0 == .added }.count + optionMarks.values.filter { $0 == .added }.count,
                     changed: stepMarks.values.filter { $0 == .changed }.count + optionMarks.values.filter { $0 == .changed }.count
                        + outcomeWas.count + renamedOptions.count + (requiredInputs.isEmpty ? 0 : 1),
                     removed: ghostSteps.count + ghostOptions.count + ghostEntries.count + notes.count)
        subtitle = "changes since \(old.file): \(count.added) added (green), \(count.changed) changed (orange), \(count.removed) removed (red, dashed)"
        if options.direction == nil { direction = preferredDirection() }
    }
}
