import Foundation

/// Finds and compiles the nested flow a `flow` step names.
public protocol FlowResolver: Sendable {
    /// The compiled flow at `path`, written in the flow file `parentFile`.
    func resolve(_ path: String, from parentFile: String) throws(RunError) -> CompiledFlow
}

/// Loads nested flows from disk, relative to the file that names them and never outside `root`.
///
/// A reference must be a relative path without `~`, backslashes, NUL or a URL scheme; after `..` and symbolic
/// links are resolved it must stay inside `root`, and it must name a regular file that loads without errors.
public final class FileFlowResolver: FlowResolver, @unchecked Sendable {
    private let root: String
    private var cache: [String: CompiledFlow] = [:]
    private let lock = NSLock()

    /// A resolver confined to the directory `root` (symbolic links resolved).
    public init(root: String) {
        self.root = FileFlowResolver.canonical(root)
    }

    public func resolve(_ path: String, from parentFile: String) throws(RunError) -> CompiledFlow {
        let file = try Self.locate(path, from: parentFile, root: root)
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[file] { return cached }
        let document: LoadedDocument
        do {
            document = try FlowLoader.load(path: file)
        } catch {
            throw RunError("nested flow '\(path)' cannot be read: \(error.localizedDescription)")
        }
        guard let flow = document.flow, document.isWellFormed else {
            let first = document.diagnostics.first { $0.severity == .error }
            throw RunError("nested flow '\(path)' does not load" + (first.map { ": \($0.file):\($0.line):\($0.column): \($0.message)" } ?? ""))
        }
        let compiled = try CompiledFlow(flow: flow)
        cache[file] = compiled
        return compiled
    }

    /// The absolute path a nested-flow reference names, or an error saying why it is refused.
    public static func locate(_ reference: String, from parentFile: String, root: String) throws(RunError) -> String {
        if reference.isEmpty || reference.hasPrefix("/") || reference.hasPrefix("~") || reference.contains("\\")
            || reference.contains("\0") || reference.contains("://") {
            throw RunError("nested flow '\(Identifier.display(reference))' must be a relative path inside the flows being checked")
        }
        let directory = URL(fileURLWithPath: parentFile).deletingLastPathComponent()
        let candidate = directory.appendingPathComponent(reference).standardizedFileURL.path
        let resolved = canonical(candidate)
        let rootPath = canonical(root)
        guard resolved == rootPath || resolved.hasPrefix(rootPath.hasSuffix("/") ? rootPath : rootPath + "/") else {
            throw RunError("nested flow '\(Identifier.display(reference))' is outside the directories being checked")
        }
        return resolved
    }

    /// `path` made absolute with symbolic links resolved (as far as it exists).
    static func canonical(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
