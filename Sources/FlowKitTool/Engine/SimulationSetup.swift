import Foundation
import FlowKit

/// What `flowkit simulate` runs, found from its arguments without the command line: the script (when there is one),
/// the flow (named, or the one the script names, relative to the script), compiled once it has no error that stops
/// a run (`Linter.runPrerequisites`), and the resolver of its nested flows (the flow's directory).
package struct SimulationSetup: Sendable {
    /// Why there is nothing to run.
    package enum Problem: Error, Sendable {
        /// The arguments do not say what to run (exit 2): a flow where a script is needed, a script naming no flow.
        case usage(CommandMessage)
        /// The script or the flow has errors (exit 1): their findings, or a message when there are none.
        case input(findings: [Diagnostic], message: CommandMessage)
    }

    /// The flow file, as the script names it relative to the working directory.
    package let flowPath: String
    /// The flow, compiled.
    package let flow: CompiledFlow
    /// Nested flows, from the flow's directory.
    package let resolver: FileFlowResolver
    /// The script, when one was given or `input` is one.
    package let script: Script?

    /// Finds what to run from `input` (a flow, or a script that names its flow) and `script`; with
    /// `needsScript` (neither moves nor play), a lone `input` must be a script. Throws a `Problem`, or a
    /// `FlowKitError` for a file that cannot be read.
    package init(input: String?, script scriptArgument: String?, needsScript: Bool) throws {
        var scriptPath = scriptArgument
        var flowPath = input
        if let input, scriptArgument == nil, needsScript {
            guard try FlowLoader.load(path: input).isScript else {
                throw Problem.usage("'\(name: input, limit: .max)' is a flow: give \(CommandOption.script) SCRIPT or \(CommandOption.events) e1,e2")
            }
            scriptPath = input
            flowPath = nil
        }
        var script: Script?
        if let scriptPath {
            let document = try FlowLoader.load(path: scriptPath)
            guard document.isScript, let root = document.root else {
                throw Problem.input(findings: document.diagnostics,
                                    message: "'\(name: scriptPath, limit: .max)' is not a simulation script (it has no 'flowkit-script' key)")
            }
            let decoded = ScriptDecoder.decode(root, file: scriptPath)
            guard let decodedScript = decoded.script, decoded.diagnostics.isEmpty else {
                throw Problem.input(findings: decoded.diagnostics, message: "'\(name: scriptPath, limit: .max)' is not a valid script")
            }
            script = decodedScript
            if flowPath == nil {
                guard let named = decodedScript.flow else {
                    throw Problem.usage("the script '\(name: scriptPath, limit: .max)' names no 'flow'; give the flow: flowkit simulate FLOW \(CommandOption.script) \(path: scriptPath)")
                }
                let directory = FilePath.directory(of: scriptPath)
                flowPath = DisplayPath.normalized(directory.isEmpty ? named : (directory as NSString).appendingPathComponent(named))
            }
        }
        guard let flowPath else { throw Problem.usage("no flow to run") }
        let document = try FlowLoader.load(path: flowPath)
        if document.isScript {
            throw Problem.usage("'\(name: flowPath, limit: .max)' is a simulation script, not a flow")
        }
        let blocking = Linter.lint(document, rules: Linter.runPrerequisites).filter { $0.severity == .error }
        guard let model = document.flow, blocking.isEmpty else {
            throw Problem.input(findings: blocking.isEmpty ? document.diagnostics : blocking,
                                message: "'\(name: flowPath, limit: .max)' is not a flow that can run")
        }
        do {
            flow = try CompiledFlow(flow: model)
        } catch {
            throw Problem.input(findings: [], message: CommandMessage(error.description))
        }
        let directory = FilePath.directory(of: flowPath)
        self.flowPath = flowPath
        self.resolver = FileFlowResolver(root: directory.isEmpty ? "." : directory)
        self.script = script
    }
}
