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
        } catch FlowKitError.noSuchFile {
            throw RunError("nested flow '\(path)' does not exist", kind: .nestedFlowUnavailable)
        } catch FlowKitError.notAFile {
            throw RunError("nested flow '\(path)' is not a regular file", kind: .nestedFlowUnavailable)
        } catch {
            throw RunError("nested flow '\(path)' cannot be read", kind: .nestedFlowUnavailable)
        }
        guard let flow = document.flow, document.isWellFormed else {
            let first = document.diagnostics.first { $0.severity == .error }
            throw RunError("nested flow '\(path)' does not load" + (first.map { ": line \($0.line), column \($0.column): \($0.message)" } ?? ""), kind: .nestedFlowUnavailable)
        }
        let compiled = try CompiledFlow(flow: flow)
        cache[file] = compiled
        return compiled
    }

    /// The absolute path a nested-flow reference names, or an error saying why it is refused.
    public static func locate(_ reference: String, from parentFile: String, root: String) throws(RunError) -> String {
        try locate(reference, from: parentFile, roots: [canonical(root)], allowOutside: false)
    }

    /// The longest nested-flow reference accepted, in UTF-8 bytes: a longer one is refused before any path work.
    public static let maxReferenceBytes = 1_024

    /// The canonical path a nested-flow reference names, inside one of `roots` (canonical paths) unless
    /// `allowOutside`. References that are absolute, use `~`, backslashes, NUL or a URL scheme, or are longer than
    /// `maxReferenceBytes`, are always refused.
    public static func locate(_ reference: String, from parentFile: String, roots: [String], allowOutside: Bool) throws(RunError) -> String {
        try locate(reference, from: parentFile, roots: roots, allowOutside: allowOutside, outsideNote: nil)
    }

    /// `locate(_:from:roots:allowOutside:)`, with `outsideNote` (how the caller's user reads such a flow anyway)
    /// in parentheses after the error of a reference outside `roots`.
    package static func locate(_ reference: String, from parentFile: String, roots: [String], allowOutside: Bool,
                               outsideNote: String?) throws(RunError) -> String {
        if reference.utf8.count > maxReferenceBytes {
            throw RunError("nested flow '\(name: reference)' is a path of \(reference.utf8.count) bytes; the limit is \(maxReferenceBytes) bytes", kind: .nestedFlowUnavailable)
        }
        if reference.isEmpty || reference.hasPrefix("/") || reference.hasPrefix("~") || reference.contains("\\")
            || reference.contains("\0") || reference.contains("://") {
            throw RunError("nested flow '\(name: reference)' must be a relative path inside the flows being checked", kind: .nestedFlowUnavailable)
        }
        let directory = URL(fileURLWithPath: parentFile).deletingLastPathComponent()
        let resolved = canonical(directory.appendingPathComponent(reference).path)
        guard allowOutside || roots.contains(where: { resolved == $0 || resolved.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
            throw RunError("nested flow '\(name: reference)' is outside the directories being checked" + (outsideNote.map { " (\(verbatim: $0))" } ?? ""),
                           kind: .nestedFlowUnavailable)
        }
        return resolved
    }

    /// `path` made absolute with `.`, `..` and symbolic links resolved (as far as the path exists), with
    /// `realpath` so that long paths are never cut. A path that does not exist has `.` and `..` removed by name,
    /// then its longest existing prefix resolved (found by bisection: a prefix exists when a longer one does), and
    /// the rest added by name; so the work stays near linear in the path's length, however many components it has.
    public static func canonical(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        if let resolved = realPath(absolute) { return resolved }
        var components: [Substring] = []
        for component in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        // Offsets of the end of each prefix in the joined path, so that no prefix is built twice.
        var joined = ""
        var ends: [String.Index] = []
        for component in components {
            joined += "/"
            joined += component
            ends.append(joined.endIndex)
        }
        // The longest prefix (of `known` components, 0 for the root) that realpath resolves.
        var known = 0
        var base = "/"
        var unknown = components.count
        while known < unknown {
            let middle = (known + unknown + 1) / 2
            if let resolved = realPath(String(joined[..<ends[middle - 1]])) {
                known = middle
                base = resolved
            } else {
                unknown = middle - 1
            }
        }
        guard known < components.count else { return base }
        let rest = components[known...].joined(separator: "/")
        return (base.hasSuffix("/") ? base : base + "/") + rest
    }

    /// `realpath` of `path`, nil when it does not resolve (or is longer than the system allows).
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension DisplayPath {
    /// `path` as reports show it: its real path relative to the working directory, with `..` only where the file
    /// lies outside it (`flows/scripts/../transfer.yaml` is shown as `flows/transfer.yaml`). An absolute path stays
    /// absolute.
    public static func normalized(_ path: String) -> String {
        let canonical = FileFlowResolver.canonical(path)
        if path.hasPrefix("/") { return canonical }
        return relative(canonical, to: FileFlowResolver.canonical(FileManager.default.currentDirectoryPath))
    }
}
