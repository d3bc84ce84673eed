import Foundation
import FlowKit

/// `flowkit diff --fix-scripts`: rewrites the simulation scripts of a flow for the steps, events and outcomes the
/// flow renamed (only renames at 100% confidence), in place, keeping everything else of the text as it was
/// (docs/format.md, "Scripts follow renames").
package enum ScriptFixer {
    /// One name rewritten in a script.
    package struct Edit: Sendable, Equatable {
        /// Where the name was.
        package var line: Int
        /// The 1-based column, in Unicode scalars.
        package var column: Int
        /// The name as it was.
        package var old: String
        /// The name written instead.
        package var new: String
        /// What the name is: `step`, `event` or `outcome`.
        package var kind: String
    }

    /// A script rewritten.
    package struct Fixed: Sendable {
        /// The script file.
        package var file: String
        /// Its new text.
        package var bytes: [UInt8]
        /// What changed, in file order.
        package var edits: [Edit]
    }

    /// The renames a script follows: steps, events and outcomes renamed at 100% confidence.
    static func sure(_ renames: FlowRenames) -> (steps: [String: String], events: [String: String], outcomes: [String: String]) {
        func map(_ list: [FlowRenames.Rename]) -> [String: String] {
            Dictionary(list.filter { $0.confidence == 100 }.map { ($0.old.text, $0.new.text) }, uniquingKeysWith: { first, _ in first })
        }
        return (map(renames.steps), map(renames.events), map(renames.outcomes))
    }

    /// The new version of a nested flow and its renames, for a `flow` step's reference in the flow file
    /// `parent` (nil when the nested flow is not among the compared ones): what a script's qualified names
    /// (`identity/selfie`) follow below their first part.
    package typealias NestedRenames = (_ parent: String, _ reference: String) -> (flow: Flow, renames: FlowRenames)?

    /// The script in `bytes` (named `file`) rewritten for `renames` of `flow` (the new version), and below a
    /// `flow` step for the renames of its nested flow that `nested` gives, or nil when it names nothing renamed.
    /// Throws when the script does not read, or when a rewrite would not read back as the same script with the new
    /// names (nothing is written then).
    package static func fix(_ bytes: [UInt8], file: String, flow: Flow, renames: FlowRenames,
                           nested: NestedRenames? = nil) throws(FlowDiff.Problem) -> Fixed? {
        let (steps, events, outcomes) = sure(renames)
        guard !steps.isEmpty || !events.isEmpty || !outcomes.isEmpty || nested != nil else { return nil }
        guard let script = decode(bytes, file: file) else {
            throw FlowDiff.Problem(message: "'\(name: file, limit: .max)' is not a script that can be read; 'flowkit lint' shows why", findings: [])
        }
        /// A qualified step name with each part renamed at its level, the flow of its last part and that flow's
        /// renamed events; the name is nil when no part changed.
        func renamedStep(_ name: String) -> (name: String?, events: [String: String], isFlowStep: Bool) {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            var level = flow
            var levelSteps = steps
            var levelEvents = events
            var output: [String] = []
            var changed = false
            for (index, part) in parts.enumerated() {
                let new = levelSteps[part] ?? part
                changed = changed || new != part
                output.append(new)
                let step = level.step(named: new)
                if index == parts.count - 1 { return (changed ? output.joined(separator: "/") : nil, levelEvents, step?.kind == .flow) }
                // Below a `flow` step: its nested flow's renames, when it is among the compared flows.
                guard let step, step.kind == .flow, let reference = step.flowPath, let child = nested?(level.file, reference) else {
                    output += parts[(index + 1)...]
                    return (changed ? output.joined(separator: "/") : nil, [:], false)
                }
                let childRenames = sure(child.renames)
                level = child.flow
                levelSteps = childRenames.steps
                levelEvents = childRenames.events
            }
            return (nil, [:], false)
        }
        var wanted: [(name: Name, new: String, kind: String)] = []
        for scenario in script.scenarios {
            for step in scenario.steps {
                let renamed = renamedStep(step.step.text)
                if let new = renamed.name { wanted.append((step.step, new, "step")) }
                // The events of a flow step are its nested flow's outcomes, not this flow's events.
                if let event = step.event, !renamed.isFlowStep, let new = renamed.events[event.text] {
                    wanted.append((event, new, "event"))
                }
            }
            if let outcome = scenario.expect?.outcome, let new = outcomes[outcome.text] { wanted.append((outcome, new, "outcome")) }
            for name in scenario.expect?.path ?? [] {
                if let new = renamedStep(name.text).name { wanted.append((name, new, "step")) }
            }
        }
        guard !wanted.isEmpty else { return nil }
        wanted.sort { ($0.name.position.line, $0.name.position.column) < ($1.name.position.line, $1.name.position.column) }
        // Byte offsets of each line's start; columns count Unicode scalars.
        var lineStarts = [0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(index + 1) }
        func offset(_ position: SourcePosition) -> Int? {
            guard position.line >= 1, position.line <= lineStarts.count else { return nil }
            var index = lineStarts[position.line - 1]
            var column = 1
            while column < position.column, index < bytes.count {
                index += 1
                while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
                column += 1
            }
            return index
        }
        var output: [UInt8] = []
        var copied = 0
        var edits: [Edit] = []
        for (name, new, kind) in wanted {
            guard let start = offset(name.position), start >= copied,
                  let (end, replacement) = replacement(bytes, at: start, old: name.text, new: new) else {
                throw FlowDiff.Problem(message: "\(name: file, limit: .max):\(name.position.line):\(name.position.column): cannot rewrite '\(name: name.text)' in place; the script is left as it was",
                                       findings: [])
            }
            output += bytes[copied..<start]
            output += Array(replacement.utf8)
            copied = end
            edits.append(Edit(line: name.position.line, column: name.position.column, old: name.text, new: new, kind: kind))
        }
        output += bytes[copied...]
        // The rewrite must read back as the same script with the new names.
        guard let reread = decode(output, file: file), reread.scenarios.count == script.scenarios.count,
              zip(reread.scenarios, script.scenarios).allSatisfy({ $0.steps.count == $1.steps.count && $0.name == $1.name }) else {
            throw FlowDiff.Problem(message: "'\(name: file, limit: .max)': the rewritten script does not read back as the same script; it is left as it was", findings: [])
        }
        return Fixed(file: file, bytes: output, edits: edits)
    }

    /// The end of the scalar at `start` and its text with `new` for `old`: a plain scalar stays plain when the new
    /// name may be plain, a quoted one keeps its quotes; nil when the text there is not `old` as written.
    static func replacement(_ bytes: [UInt8], at start: Int, old: String, new: String) -> (end: Int, text: String)? {
        let oldBytes = Array(old.utf8)
        guard start < bytes.count else { return nil }
        let quote = bytes[start]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            // Only a quoted name written without escapes is rewritten.
            let inner = start + 1
            let end = inner + oldBytes.count
            guard end < bytes.count, Array(bytes[inner..<end]) == oldBytes, bytes[end] == quote,
                  !oldBytes.contains(UInt8(ascii: "\\")), !oldBytes.contains(quote) else { return nil }
            if quote == UInt8(ascii: "'") { return (end + 1, "'" + new.replacingOccurrences(of: "'", with: "''") + "'") }
            return (end + 1, JSONText.string(new))
        }
        let end = start + oldBytes.count
        guard end <= bytes.count, Array(bytes[start..<end]) == oldBytes else { return nil }
        if end < bytes.count, !" \t\r\n:,]}#".utf8.contains(bytes[end]) { return nil }
        return (end, ScriptWriter.name(new))
    }

    static func decode(_ bytes: [UInt8], file: String) -> Script? {
        let parsed = FlowLoader.load(bytes: bytes, file: file)
        guard parsed.isScript, let root = parsed.root, parsed.diagnostics.allSatisfy({ $0.severity != .error }) else { return nil }
        return ScriptDecoder.decode(root, file: file).script
    }

    /// The scripts among `candidates` whose `flow` is the file at `flowPath`, rewritten for `renames`; each
    /// candidate that is not a script is passed over. A script that is a symbolic link is passed over with a note in
    /// `notes` (only regular files are rewritten: the file it leads to is rewritten where it is found itself, and
    /// one elsewhere never is); a script that cannot be read is an error.
    package static func fixScripts(_ candidates: [String], flowPath: String, flow: Flow, renames: FlowRenames,
                                  nested: NestedRenames? = nil, notes: inout [CommandMessage]) throws(FlowDiff.Problem) -> [Fixed] {
        let target = FileFlowResolver.canonical(flowPath)
        var fixed: [Fixed] = []
        for path in candidates {
            let bytes: [UInt8]
            do {
                bytes = try FlowLoader.read(path: path, limit: ReaderLimits.standard.maxBytes)
            } catch {
                throw FlowDiff.Problem(message: CommandMessage(error.localizedDescription), findings: [])
            }
            // Read once; only a file that does not read as a script is looked at again, for its `flowkit-script` key.
            guard let script = decode(bytes, file: path) else {
                guard SourceText.showsKey("flowkit-script", in: bytes) else { continue }
                throw FlowDiff.Problem(message: "'\(name: path, limit: .max)' is a script that cannot be read, so it cannot follow the renames; 'flowkit lint' shows why",
                                       findings: [])
            }
            guard let reference = script.flow else { continue }
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
                notes.append("skipped '\(name: path, limit: .max)': a symbolic link; \(CommandOption.fixScripts) rewrites only the files scripts are in")
                continue
            }
            let resolved = FileFlowResolver.canonical((FilePath.directory(of: path) as NSString).appendingPathComponent(reference))
            guard resolved == target, let result = try fix(bytes, file: path, flow: flow, renames: renames, nested: nested) else { continue }
            fixed.append(result)
        }
        return fixed
    }
}
