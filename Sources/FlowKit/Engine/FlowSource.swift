import Foundation

/// Where an app's flows come from: a server, the app bundle, a cache (docs/format.md, "Flows in an app"). The
/// app implements it; FlowKit asks it for the bytes of each nested flow a flow names, to check and to run it.
public protocol FlowSource: Sendable {
    /// The flow `reference` names in the flow `file`: the name it goes by (the same flow always under the same
    /// name; its extension, `.json`, `.yaml` or `.yml`, says how to read it, else the first character does) and
    /// its bytes. A flow that cannot be had is an error whose message says why (`nestedFlowUnavailable`).
    func flow(_ reference: String, from file: String) throws(RunError) -> (name: String, bytes: [UInt8])
}

/// A flow checked before an app runs it: lint found no errors. Its warnings are kept for the app to report.
public struct CheckedFlow: Sendable {
    /// The flow, ready to run.
    public let flow: CompiledFlow
    /// What lint warns about (and notes), in the flow and the nested flows it names.
    public let warnings: [Diagnostic]
    /// The resolver that runs its nested flows from the same source, each checked the same way.
    public let resolver: any FlowResolver
}

/// A flow refused because lint found errors in it or in a nested flow it names.
public struct FlowRejection: Error, Sendable, CustomStringConvertible {
    /// Every error, in the flow and its nested flows.
    public let errors: [Diagnostic]
    /// The warnings too.
    public let warnings: [Diagnostic]

    /// The first error as `file:line:column: message [rule]`, and how many more there are.
    public var description: String {
        guard let first = errors.first else { return "the flow was refused" }
        return "\(first.file):\(first.line):\(first.column): \(first.message) [\(first.rule)]"
            + (errors.count > 1 ? " (and \(errors.count - 1) more errors)" : "")
    }
}

extension CompiledFlow {
    /// Reads the flow `name` from `bytes` (JSON or YAML, by the name's extension, else the first character), lints
    /// it with every rule, nested flows from `source` included, and compiles it: a flow with any error is refused
    /// (`FlowRejection`), warnings are returned with the flow. The limits of a lint apply (`ReaderLimits`).
    public static func checked(_ bytes: [UInt8], name: String, source: (any FlowSource)? = nil) throws(FlowRejection) -> CheckedFlow {
        let document = FlowLoader.load(bytes: bytes, file: name, format: DocumentFormat(path: name))
        let workspace = source.map { LintWorkspace(source: $0) }
        var findings = FlowPipeline.analyse(document, workspace: workspace)
        // Nested flows are checked as files of their own, each once.
        var checked: Set<String> = [name]
        var queue = workspace?.loadedFiles ?? []
        while let next = queue.first {
            queue.removeFirst()
            guard checked.insert(next).inserted, let nested = workspace?.document(named: next) else { continue }
            findings += FlowPipeline.analyse(nested, workspace: workspace)
            queue += (workspace?.loadedFiles ?? []).filter { !checked.contains($0) }
        }
        let errors = findings.filter { $0.severity == .error }
        let warnings = findings.filter { $0.severity != .error }
        guard errors.isEmpty, !document.isScript, let flow = document.flow else {
            throw FlowRejection(errors: errors.isEmpty ? [Diagnostic(file: name, position: .start, severity: .error, rule: .schema,
                                                                     message: "this is a simulation script, not a flow")] : errors,
                                warnings: warnings)
        }
        do {
            return CheckedFlow(flow: try FlowPipeline.compile(flow), warnings: warnings,
                               resolver: SourceFlowResolver(source: source))
        } catch {
            throw FlowRejection(errors: [Diagnostic(file: name, position: .start, severity: .error, rule: .schema, message: error.message)],
                                warnings: warnings)
        }
    }
}

/// Runs nested flows from a `FlowSource`, each checked as `CompiledFlow.checked` does: a nested flow with lint
/// errors is refused at the step that names it.
public final class SourceFlowResolver: FlowResolver, @unchecked Sendable {
    private let source: (any FlowSource)?
    private let lock = NSLock()
    private var cache: [String: CompiledFlow] = [:]

    /// A resolver over `source`; without one, every nested flow is unavailable.
    public init(source: (any FlowSource)?) {
        self.source = source
    }

    public func resolve(_ path: String, from parentFile: String) throws(RunError) -> CompiledFlow {
        guard let source else { throw RunError("nested flow '\(name: path)' cannot be loaded: no flow source was given", kind: .nestedFlowUnavailable) }
        let (name, bytes) = try source.flow(path, from: parentFile)
        lock.lock()
        let cached = cache[name]
        lock.unlock()
        if let cached { return cached }
        let checked: CheckedFlow
        do {
            checked = try CompiledFlow.checked(bytes, name: name, source: source)
        } catch {
            throw RunError("nested flow '\(name: path)' is refused: \(verbatim: error.description)", kind: .nestedFlowUnavailable)
        }
        lock.lock()
        cache[name] = checked.flow
        lock.unlock()
        return checked.flow
    }
}

/// Flows held in memory under their names: the flow files that generated Swift embeds, or any set of flows an app
/// has at hand. A reference is looked up by `name(of:from:)`, relative to the file that names it.
public struct EmbeddedFlowSource: FlowSource {
    /// The flows' text by name (`checkout.yaml`, `auth/signIn.yaml`).
    public let files: [String: String]

    /// A source over `files`, text by name.
    public init(files: [String: String]) {
        self.files = files
    }

    public func flow(_ reference: String, from file: String) throws(RunError) -> (name: String, bytes: [UInt8]) {
        let name = EmbeddedFlowSource.name(of: reference, from: file)
        guard let text = files[name] else {
            let hint = Suggestions.didYouMean(name, in: files.keys.sorted())
            throw RunError("nested flow '\(name: reference)' is not among the embedded flows (looked up as '\(name: name)')\(verbatim: hint)",
                           kind: .nestedFlowUnavailable)
        }
        return (name, Array(text.utf8))
    }

    /// The name `reference` has when the file `file` names it: joined to `file`'s directory, with `.` and `..`
    /// resolved by the text alone (`..` past the first directory is kept: `../common/x.yaml`).
    public static func name(of reference: String, from file: String) -> String {
        let directory = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let joined = reference.hasPrefix("/") || directory.isEmpty ? reference : directory + "/" + reference
        var components: [Substring] = []
        for component in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                if let last = components.last, last != ".." { components.removeLast() } else if !joined.hasPrefix("/") { components.append(component) }
            default: components.append(component)
            }
        }
        return (joined.hasPrefix("/") ? "/" : "") + components.joined(separator: "/")
    }
}
