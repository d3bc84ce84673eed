import Foundation
import FlowKit

/// Counts what runs of a flow cover (docs/format.md, "Coverage"): built over the flow and the resolver its runs use,
/// it lists the items of the flow and of every nested flow it reaches, then adds each run's steps, options, events,
/// outcomes and entries to them.
package struct CoverageRecorder: Sendable {
    /// A flow file's items, with where each sits.
    private struct FileItems: Sendable {
        var file: String
        var items: [CoverageItem]
        var index: [CoverageIdentity: Int]
    }

    private let top: CompiledFlow
    private let resolver: FlowResolver?
    /// By the file's name as runs name it (`Flow.file`).
    private var files: [String: FileItems] = [:]
    private var order: [String] = []
    /// The flow a `flow` step of a flow file runs, by (file, step).
    private var nested: [String: CompiledFlow] = [:]

    /// A recorder of runs of `flow`, whose nested flows `resolver` finds (as the runs find them).
    package init(flow: CompiledFlow, resolver: FlowResolver?) {
        top = flow
        self.resolver = resolver
        var queue = [flow]
        var seen: Set<String> = []
        while let current = queue.first {
            queue.removeFirst()
            guard seen.insert(current.flow.file).inserted else { continue }
            var children: [String: Flow] = [:]
            for step in current.flow.steps where step.kind == .flow {
                guard let reference = step.flowPath, let resolver, let child = try? resolver.resolve(reference, from: current.flow.file) else { continue }
                nested[current.flow.file + "\n" + step.name.text] = child
                children[step.name.text] = child.flow
                queue.append(child)
            }
            let items = Self.items(of: current.flow, nested: children)
            order.append(current.flow.file)
            files[current.flow.file] = FileItems(file: Self.display(current.flow.file), items: items,
                                                 index: Dictionary(items.enumerated().map { ($1.identity, $0) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// The coverage counted so far.
    package var coverage: Coverage {
        Coverage(files: order.map { FileCoverage(file: files[$0]!.file, items: files[$0]!.items) })
    }

    /// Adds what the run of `result` covered (a failed run counts what it did before it failed).
    package mutating func record(_ result: ScenarioResult) {
        // A step shown; a `flow` step counts as shown each time the run enters its nested flow.
        var previous: [String] = []
        for name in result.path {
            let parts = name.split(separator: "/").map(String.init)
            for level in parts.indices {
                let entered = level == parts.count - 1 || previous.count <= level || previous[...level] != parts[...level]
                guard entered, let flow = flow(at: parts[..<level]) else { continue }
                hit(flow.flow.file, .step(parts[level]))
            }
            previous = parts
        }
        for entry in result.trace {
            guard let taken = entry.taken else { continue }
            hit(taken.file, Self.transition(entry, taken))
            if entry.eventKind == .derived, let event = entry.event { hit(taken.file, .event(event)) }
            if entry.eventKind == .outcome, let outcome = entry.event {
                let parts = entry.step.split(separator: "/").map(String.init)
                if let child = flow(at: parts[...]) { hit(child.flow.file, .outcome(outcome)) }
            }
        }
        if let outcome = result.outcome { hit(top.flow.file, .outcome(outcome)) }
        // An entry, and the entries of nested flows it reaches into.
        var current = top
        var entryName = result.entry
        while let name = entryName, let entry = current.flow.entries.first(where: { $0.name.text == name }) {
            hit(current.flow.file, .entry(name))
            guard let inner = entry.nestedEntry, let child = nested[current.flow.file + "\n" + entry.step.text] else { break }
            (current, entryName) = (child, inner.text)
        }
    }

    /// The flow that runs at the nested level `steps` names (`[]` is the top-level flow, `["signIn"]` the flow
    /// step `signIn` runs).
    private func flow(at steps: ArraySlice<String>) -> CompiledFlow? {
        var current = top
        for step in steps {
            guard let child = nested[current.flow.file + "\n" + step] else { return nil }
            current = child
        }
        return current
    }

    private mutating func hit(_ file: String, _ identity: CoverageIdentity) {
        guard let index = files[file]?.index[identity] else { return }
        files[file]!.items[index].hits += 1
    }

    /// The option a trace entry took.
    package static func transition(_ entry: TraceEntry, _ taken: TraceEntry.Taken) -> CoverageIdentity {
        let step = String(entry.step.split(separator: "/").last ?? Substring(entry.step))
        return .transition(step: step, list: taken.handler.map { .on($0) } ?? .next, index: taken.option, viaStar: taken.shared)
    }

    /// `path` relative to the working directory, so that runs in one repository name files the same.
    package static func display(_ path: String) -> String {
        let canonical = FileFlowResolver.canonical(path)
        return DisplayPath.relative(canonical, to: FileFlowResolver.canonical(FileManager.default.currentDirectoryPath))
    }

    // MARK: The items of a flow

    /// Every item of `flow` in the order of its text; `nested` gives the flows its `flow` steps run (for the
    /// outcomes that reach a `"*"` handler).
    static func items(of flow: Flow, nested: [String: Flow]) -> [CoverageItem] {
        var items: [CoverageItem] = []
        let unreachable = Set(Linter.lint(LoadedDocument(file: flow.file, format: .yaml, root: nil, isScript: false, flow: flow, diagnostics: []),
                                          rules: [UnreachableOptionRule.self]).map(\.position))
        func add(_ identity: CoverageIdentity, _ description: String, at position: SourcePosition) {
            items.append(CoverageItem(identity, description: description, line: position.line, column: position.column,
                                      coverable: !(identity.kind == .transition && unreachable.contains(position))))
        }
        for event in flow.events where event.expression != nil {
            add(.event(event.name.text), "event '\(event.name.text)'", at: event.name.position)
        }
        for entry in flow.entries {
            add(.entry(entry.name.text), "entry '\(entry.name.text)'", at: entry.name.position)
        }
        var outcomes: Set<String> = []
        for step in flow.steps {
            let name = step.name.text
            add(.step(name), "step '\(name)'", at: step.name.position)
            if step.kind == .finish {
                let outcome = step.outcome?.text ?? name
                if outcomes.insert(outcome).inserted {
                    add(.outcome(outcome), "outcome '\(outcome)'", at: step.outcome?.position ?? step.name.position)
                }
                continue
            }
            func options(_ targets: [Target], list: CoverageIdentity.OptionList, shared: Bool) {
                for (index, target) in targets.enumerated() {
                    let arrow = targets.count > 1 ? "--\(list.text) [\(index)]-->" : "--\(list.text)-->"
                    let description = shared ? "* \(arrow) \(describe(target)) at \(name)" : "\(name) \(arrow) \(describe(target))"
                    add(.transition(step: name, list: list, index: index, viaStar: shared), description, at: target.position)
                }
            }
            for handler in step.on {
                options(handler.targets, list: .on(handler.event.text), shared: false)
            }
            if let next = step.next { options(next, list: .next, shared: false) }
            guard let any = flow.anyStep else { continue }
            for handler in any.on where step.handler(for: handler.event.text) == nil {
                let event = handler.event.text
                if step.kind == .flow {
                    // At a flow step a handler takes the nested flow's outcomes only.
                    guard let child = nested[name], FlowInterface.outcomes(of: child).contains(event) else { continue }
                } else if step.kind != .screen && step.kind != .action {
                    continue
                }
                options(handler.targets, list: .on(event), shared: true)
            }
            if step.next == nil, let next = any.next { options(next, list: .next, shared: true) }
        }
        // In the order of the text; items at one place (a "*" option at each step) in the order they were listed.
        return items.enumerated().sorted { ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset) }.map(\.element)
    }

    /// A target as the descriptions write it: the step, `back: X`, `back: true`, `restart`.
    private static func describe(_ target: Target) -> String {
        switch target.move {
        case .forward(let step): return step.text
        case .back(let step): return "back: " + step.text
        case .backOne: return "back: true"
        case .restart: return "restart"
        }
    }
}
