import Foundation
import FlowKit

extension FlowDiff {
    /// `scenario_changed` (docs/format.md, "Known scenarios"): each scenario of `scripts` (files whose `flow` is
    /// the new file) that passes on the old flow is run on the new one, with the script rewritten in memory for
    /// the sure renames; where the new run first goes elsewhere from the same step, or stops on an error, that is
    /// a change. The new run reads nested flows as they are now, from the new file's directory; the old run through
    /// `oldResolver` (nested flows at the revision, with `--git`), or as the new run when it is nil.
    package static func scenarioChanges(old: Flow, new: Flow, newPath: String, scripts: [String], maxSteps: Int = 10_000) -> [FlowChange] {
        scenarioChanges(old: old, new: new, newPath: newPath, scripts: scripts, oldResolver: nil, maxSteps: maxSteps)
    }

    static func scenarioChanges(old: Flow, new: Flow, newPath: String, scripts: [String], oldResolver: (any FlowResolver)?, maxSteps: Int = 10_000) -> [FlowChange] {
        let target = FileFlowResolver.canonical(newPath)
        let directory = FilePath.directory(of: newPath)
        let resolver = FileFlowResolver(root: directory.isEmpty ? "." : directory)
        let oldResolver = oldResolver ?? resolver
        // The old flow runs as if it were at the new file's place, so that its nested flows are found.
        var oldRunnable = old
        oldRunnable.file = new.file
        guard let oldCompiled = try? CompiledFlow(flow: oldRunnable), let newCompiled = try? CompiledFlow(flow: new) else { return [] }
        let renames = FlowRenames.find(old: old, new: new)
        let renamed = renames.stepNames
        let steps = Dictionary(new.steps.map { ($0.name.text, $0) }, uniquingKeysWith: { first, _ in first })
        let oldSteps = Dictionary(old.steps.map { ($0.name.text, $0) }, uniquingKeysWith: { first, _ in first })
        func now(_ qualified: String) -> String {
            let parts = qualified.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            return ([renamed[parts[0]] ?? parts[0]] + parts.dropFirst()).joined(separator: "/")
        }
        var changes: [FlowChange] = []
        for path in scripts {
            guard let bytes = try? FlowLoader.read(path: path, limit: ReaderLimits.standard.maxBytes),
                  let script = ScriptFixer.decode(bytes, file: path), let reference = script.flow,
                  FileFlowResolver.canonical((FilePath.directory(of: path) as NSString).appendingPathComponent(reference)) == target else { continue }
            let fixed = (try? ScriptFixer.fix(bytes, file: path, flow: new, renames: renames)).flatMap { $0 }.flatMap { ScriptFixer.decode($0.bytes, file: path) } ?? script
            for (scenario, rewritten) in zip(script.scenarios, fixed.scenarios) {
                let before = ScriptRunner.run(scenario, script: script, flow: oldCompiled, resolver: oldResolver, maxSteps: maxSteps)
                guard before.passed else { continue }
                let after = ScriptRunner.run(rewritten, script: fixed, flow: newCompiled, resolver: resolver, maxSteps: maxSteps)
                let name: Message = "scenario '\(path: scenario.name, limit: 80)' (\(path: path):\(scenario.position.line))"
                var index = 0
                while index < before.trace.count, index < after.trace.count, now(before.trace[index].to) == after.trace[index].to,
                      before.trace[index].move == after.trace[index].move {
                    index += 1
                }
                let diverged = index < before.trace.count || index < after.trace.count
                guard diverged || !after.passed else { continue }
                let step = index < before.trace.count ? before.trace[index].step : (before.trace.last?.to ?? old.start.text)
                let top = String(step.split(separator: "/").first ?? "")
                let oldPosition = oldSteps[top]?.name.position
                let newPosition = steps[now(top)]?.name.position
                let message: Message
                if index < before.trace.count, index < after.trace.count {
                    message = "\(name) now goes from '\(path: now(step))' to '\(path: after.trace[index].to)', not '\(path: now(before.trace[index].to))'"
                } else if let error = after.error {
                    message = "\(name) now stops at '\(path: now(step))': \(path: error)"
                } else {
                    message = "\(name) now takes another way from '\(path: now(step))'"
                }
                changes.append(FlowChange(check: .scenarioChanged, level: ChangeCheck.scenarioChanged.level, message: message.text,
                                          old: oldPosition.map { FlowChange.Place(file: old.file, line: $0.line, column: $0.column) },
                                          new: newPosition.map { FlowChange.Place(file: new.file, line: $0.line, column: $0.column) },
                                          was: oldPosition.map { _ in .scenario(scenario.name) }, now: newPosition.map { _ in .scenario(scenario.name) }, file: new.file))
            }
        }
        return changes
    }
}
