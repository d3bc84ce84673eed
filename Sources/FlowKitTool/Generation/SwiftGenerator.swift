import FlowKit
import Foundation

/// Writes the Swift an app compiles for its flows (docs/format.md, "Generated Swift"): per flow, an enum of its
/// steps, events and outcomes, a struct per step's result, its state, inputs and entries, where a run is, how each
/// step completes, and a typed run over `FlowRun`. `flowkit generate swift` and the `FlowKitPlugin` build plugin are
/// two shells over it. The output depends only on the files' bytes and their names relative to each other.
///
/// This is the driver: it reads and checks the files, follows their nested flows, decides the names and types all
/// files share (`Context`), and hands each flow to the emitter (`SwiftEmitter`), which writes its text.
package enum SwiftGenerator {
    /// A flow file given to the generator: its name (as given on the command line, or a path) and its bytes.
    package struct Input: Sendable {
        /// The file's name; nested flows are found by joining their references to its directory.
        package var name: String
        /// The file's bytes.
        package var bytes: [UInt8]

        /// Creates an input.
        package init(name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    /// One generated Swift file.
    package struct Output: Sendable, Equatable {
        /// The flow file it was generated from, as named in its input (or found from a `flow` step).
        package var flowFile: String
        /// The Swift file's name (`transfer.flowkit.swift`).
        package var fileName: String
        /// The Swift source.
        package var contents: String
    }

    /// What a generation gives: the files, and the lint warnings (and notes) of the flows.
    package struct Generated: Sendable {
        /// One Swift file per flow file, inputs first, then the nested flows found from them.
        package var outputs: [Output]
        /// What lint warns about in the flows.
        package var warnings: [Diagnostic]
    }

    /// Why nothing was generated: lint errors in the flows, or a problem with the set of files.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The lint findings, errors and warnings, when the flows have errors.
        package var diagnostics: [Diagnostic]
        /// What went wrong, in one line.
        package var message: CommandMessage

        package var description: String { message.description }
    }

    /// The Swift file generated from the flow file `file`: its base name without the extension, then
    /// `.flowkit.swift`.
    package static func outputName(for file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        let stem = base.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        return (stem.isEmpty ? base : stem) + ".flowkit.swift"
    }

    /// Generates one Swift file per input, and per nested flow the inputs name that `read` gives (a nested flow not
    /// among the inputs is an error when `read` is nil). A flow with lint errors refuses the whole set.
    /// With `othersAmongInputs` (the build plugin's mode, given every `.json`, `.yaml` and `.yml` file of a target),
    /// an input that cannot be read as a document and shows no top-level `flowkit` key in its text is taken for
    /// another file (a `settings.json` being edited), not for a broken flow: it gets a file with only a comment.
    package static func generate(_ inputs: [Input], read: ((String) throws -> [UInt8])? = nil,
                                othersAmongInputs: Bool = false) throws(Failure) -> Generated {
        // Every file, inputs first, then nested flows in the order they are first named.
        var files: [(name: String, bytes: [UInt8], listed: Bool)] = []
        var index: [String: Int] = [:]
        for input in inputs {
            let name = EmbeddedFlowSource.name(of: input.name, from: "")
            guard index[name] == nil else { continue }
            index[name] = files.count
            files.append((name, input.bytes, true))
        }
        var documents: [String: LoadedDocument] = [:]
        var position = 0
        while position < files.count {
            let file = files[position]
            position += 1
            let document = FlowLoader.load(bytes: file.bytes, file: file.name, format: DocumentFormat(path: file.name))
            documents[file.name] = document
            guard let flow = document.flow, !document.isScript, document.isFlowFile else { continue }
            for step in flow.steps where step.kind == .flow {
                guard let reference = step.flowPath else { continue }
                let name = EmbeddedFlowSource.name(of: reference, from: file.name)
                guard index[name] == nil else { continue }
                guard let read else {
                    throw Failure(diagnostics: [], message: "nested flow '\(name: reference)' of step '\(name: step.name.text)' in '\(name: file.name)' is not among the flow files; add '\(name: name)' to them")
                }
                let bytes: [UInt8]
                do {
                    bytes = try read(name)
                } catch {
                    throw Failure(diagnostics: [], message: "nested flow '\(name: reference)' of step '\(name: step.name.text)' in '\(name: file.name)': \(verbatim: (error as? LocalizedError)?.errorDescription ?? "\(error)")")
                }
                index[name] = files.count
                files.append((name, bytes, false))
            }
        }

        // Lint: every flow with its nested flows, from the same files.
        let texts = Dictionary(uniqueKeysWithValues: files.map { ($0.name, String(decoding: $0.bytes, as: UTF8.self)) })
        let source = EmbeddedFlowSource(files: texts)
        var findings: [Diagnostic] = []
        var flows: [String: Flow] = [:]
        for file in files {
            guard let document = documents[file.name], !document.isScript, document.isFlowFile else { continue }
            if othersAmongInputs, file.listed, document.root == nil, !SourceText.showsKey("flowkit", in: file.bytes) { continue }
            if String(decoding: file.bytes, as: UTF8.self).utf8.elementsEqual(file.bytes) == false {
                throw Failure(diagnostics: [], message: "'\(name: file.name)' is not UTF-8 text")
            }
            do {
                let checked = try CompiledFlow.checked(file.bytes, name: file.name, source: source)
                findings += checked.warnings.filter { $0.file == file.name }
                flows[file.name] = checked.flow.flow
            } catch {
                findings += (error.errors + error.warnings).filter { $0.file == file.name }
            }
        }
        var seenFindings: Set<String> = []
        findings = findings.filter { seenFindings.insert("\($0.file):\($0.line):\($0.column):\($0.rule):\($0.message)").inserted }
        let errors = findings.filter { $0.severity == .error }
        if !errors.isEmpty {
            throw Failure(diagnostics: findings, message: "no Swift written: \(errors.count) error\(verbatim: errors.count == 1 ? "" : "s") in the flows")
        }

        // Names across files: one Swift file and one type per flow.
        var outputNames: [String: String] = [:]
        var typeNames: [String: String] = [:]
        for file in files {
            let output = outputName(for: file.name)
            if let other = outputNames[output] {
                throw Failure(diagnostics: [], message: "'\(name: other)' and '\(name: file.name)' would both be generated as '\(name: output)'; rename one")
            }
            outputNames[output] = file.name
            guard let flow = flows[file.name] else { continue }
            let typeName = flowTypeName(flow)
            if let other = typeNames[typeName] {
                throw Failure(diagnostics: [], message: "the flows of '\(name: other)' and '\(name: file.name)' would both be the Swift type '\(name: typeName)'; rename one flow")
            }
            typeNames[typeName] = file.name
        }

        let context = Context(flows: flows, texts: texts)
        let outputs = files.map { file in
            let fileName = outputName(for: file.name)
            guard let flow = flows[file.name] else {
                let base = file.name.split(separator: "/").last.map(String.init) ?? file.name
                let contents = "// Generated by flowkit: \(SwiftNames.comment(base)) is not a flow file (it has no top-level 'flowkit' key), so it gives no Swift.\n"
                return Output(flowFile: file.name, fileName: fileName, contents: contents)
            }
            var emitter = SwiftEmitter(flow: flow, file: file.name, context: context)
            return Output(flowFile: file.name, fileName: fileName, contents: emitter.write())
        }
        return Generated(outputs: outputs, warnings: findings)
    }

    /// The Swift type of a flow: its name's first letter upper-cased, then `Flow`.
    static func flowTypeName(_ flow: Flow) -> String {
        SwiftNames.capitalized(flow.name.text) + "Flow"
    }

    /// What every flow's writer may look up: the other flows, by file name, and their text.
    struct Context {
        let flows: [String: Flow]
        let texts: [String: String]
        /// The files whose `Current`, `Completion` and `EventCompletion` enums have a case. An empty enum is still
        /// declared, but nothing takes it (Swift warns of code that takes a value no one can make), and a `flow`
        /// step carries its nested flow's enum only when that has a case.
        let hasCurrent: Set<String>
        let hasCompletion: Set<String>
        let hasEventCompletion: Set<String>

        init(flows: [String: Flow], texts: [String: String]) {
            self.flows = flows
            self.texts = texts
            func closure(_ direct: (Step, Flow) -> Bool) -> Set<String> {
                var found: Set<String> = []
                var changed = true
                while changed {
                    changed = false
                    for (file, flow) in flows where !found.contains(file) {
                        let inhabited = flow.steps.contains { step in
                            if direct(step, flow) { return true }
                            guard step.kind == .flow, let reference = step.flowPath else { return false }
                            return found.contains(EmbeddedFlowSource.name(of: reference, from: file))
                        }
                        if inhabited {
                            found.insert(file)
                            changed = true
                        }
                    }
                }
                return found
            }
            hasCurrent = closure { step, _ in step.kind == .screen || step.kind == .action }
            hasCompletion = closure { step, flow in
                (step.result != nil && (step.kind == .screen || step.kind == .action)) || FlowInterface.completesBare(step, in: flow)
            }
            hasEventCompletion = closure { step, flow in !FlowInterface.explicitEvents(of: step, in: flow).isEmpty }
        }

        /// The nested flow a `flow` step of the flow in `file` names.
        func nested(_ step: Step, in file: String) -> (name: String, flow: Flow)? {
            guard let reference = step.flowPath else { return nil }
            let name = EmbeddedFlowSource.name(of: reference, from: file)
            return flows[name].map { (name, $0) }
        }
    }
}

extension SwiftGenerator {
    /// `path` relative to the directory of `file`, by their text (both named as `EmbeddedFlowSource.name(of:from:)`
    /// names them): `../common/x.yaml` when it lies beside that directory.
    static func relative(_ path: String, to file: String) -> String {
        func absolute(_ name: String) -> [Substring] {
            let joined = name.hasPrefix("/") ? name : FileManager.default.currentDirectoryPath + "/" + name
            return EmbeddedFlowSource.name(of: joined, from: "").split(separator: "/")
        }
        let directory = Array(absolute(file).dropLast())
        let target = absolute(path)
        var common = 0
        while common < directory.count, common < target.count - 1, directory[common] == target[common] { common += 1 }
        let ups = Array(repeating: "..", count: directory.count - common)
        return (ups + target[common...].map(String.init)).joined(separator: "/")
    }
}
