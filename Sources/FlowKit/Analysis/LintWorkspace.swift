import Foundation

/// The files a lint run may read: the nested flows that flows name are loaded once each, and only inside the
/// directory trees given on the command line unless reading outside them is allowed.
package final class LintWorkspace: @unchecked Sendable {
    /// What a nested-flow reference leads to.
    package enum Nested: Sendable {
        /// The nested flow, loaded (it may have findings of its own).
        case loaded(LoadedDocument, path: String)
        /// Why the reference leads nowhere.
        case unavailable(Message)
    }

    private let roots: [String]
    private let allowOutside: Bool
    /// How the user reads a nested flow outside `roots` anyway, said in the finding of one.
    private let outsideNote: String?
    /// Where nested flows come from instead of the disk, for flows an app is given (a server, a bundle).
    private let source: (any FlowSource)?
    /// Texts read instead of the files at these canonical paths (an editor's unsaved documents, `lint --fix`'s
    /// fixed files).
    private let overlay: [String: [UInt8]]
    private let lock = NSLock()
    private var documents: [String: LoadedDocument] = [:]
    private var order: [String] = []
    private var located: [String: Result<String, RunError>] = [:]
    private var childCache: [String: [String]] = [:]
    private var depthCache: [String: Int] = [:]
    private var missingHints: [String: String] = [:]

    /// A workspace confined to `roots` (directories), or unconfined with `allowOutside`; `outsideNote` says, in a
    /// finding about a nested flow outside them, how the user reads it anyway (a front end's option).
    package init(roots: [String], allowOutside: Bool = false, outsideNote: String? = nil, overlay: [String: [UInt8]] = [:]) {
        var unique: [String] = []
        for root in roots.map(FileFlowResolver.canonical) where !unique.contains(root) { unique.append(root) }
        self.roots = unique
        self.allowOutside = allowOutside
        self.outsideNote = outsideNote
        self.overlay = overlay
        source = nil
    }

    /// A workspace whose nested flows come from `source`, by the names it gives them.
    package init(source: any FlowSource) {
        roots = []
        allowOutside = false
        outsideNote = nil
        overlay = [:]
        self.source = source
    }

    /// The name a flow file goes by in this workspace: its canonical path, or the name a source gave it.
    private func identity(_ file: String) -> String {
        source == nil ? FileFlowResolver.canonical(file) : file
    }

    /// Whether `path` (canonical) lies inside the trees being checked (always, with `allowOutside`).
    package func contains(_ path: String) -> Bool {
        allowOutside || roots.isEmpty || roots.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }

    /// The canonical path `reference` names from `file`, remembered per folder and reference.
    private func locate(_ reference: String, from file: String) -> Result<String, RunError> {
        let key = URL(fileURLWithPath: file).deletingLastPathComponent().path + "\u{0}" + reference
        lock.lock()
        if let known = located[key] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let result: Result<String, RunError>
        do {
            result = .success(try FileFlowResolver.locate(reference, from: file, roots: roots, allowOutside: allowOutside || roots.isEmpty,
                                                                outsideNote: outsideNote))
        } catch {
            result = .failure(error)
        }
        lock.lock()
        located[key] = result
        lock.unlock()
        return result
    }

    /// The file at `path` loaded, its overlay's text in place of it when it has one (a script's flow, read as the
    /// editor holds it).
    package func load(path: String) throws -> LoadedDocument {
        if !overlay.isEmpty, let bytes = overlay[FileFlowResolver.canonical(path)] {
            return FlowLoader.load(bytes: bytes, file: path, format: DocumentFormat(path: path))
        }
        return try FlowLoader.load(path: path)
    }

    /// The nested flow `reference` names in the flow file `file`.
    package func nested(_ reference: String, from file: String) -> Nested {
        if let source { return nested(reference, from: file, source: source) }
        let path: String
        switch locate(reference, from: file) {
        case .success(let found): path = found
        case .failure(let error): return .unavailable(Message(verbatim: error.message))
        }
        lock.lock()
        if let cached = documents[path] {
            lock.unlock()
            return .loaded(cached, path: path)
        }
        lock.unlock()
        let document: LoadedDocument
        do {
            if let bytes = overlay[path] {
                document = FlowLoader.load(bytes: bytes, file: path, format: DocumentFormat(path: path))
            } else {
                document = try FlowLoader.load(path: path)
            }
        } catch FlowKitError.noSuchFile {
            return .unavailable("nested flow '\(name: reference)' does not exist\(verbatim: missingFileHint(reference, at: path))")
        } catch FlowKitError.notAFile {
            return .unavailable("nested flow '\(name: reference)' is not a regular file")
        } catch FlowKitError.unreadable(_, let reason) {
            return .unavailable("nested flow '\(name: reference)' cannot be read: \(verbatim: reason)")
        } catch {
            return .unavailable("nested flow '\(name: reference)' cannot be read")
        }
        lock.lock()
        defer { lock.unlock() }
        if let cached = documents[path] { return .loaded(cached, path: path) }
        documents[path] = document
        order.append(path)
        return .loaded(document, path: path)
    }

    /// The nested flow `reference` names, read from `source` and kept under the name it gives.
    private func nested(_ reference: String, from file: String, source: any FlowSource) -> Nested {
        let name: String
        let bytes: [UInt8]
        do {
            (name, bytes) = try source.flow(reference, from: file)
        } catch {
            return .unavailable(Message(verbatim: error.message))
        }
        lock.lock()
        defer { lock.unlock() }
        if let cached = documents[name] { return .loaded(cached, path: name) }
        let document = FlowLoader.load(bytes: bytes, file: name, format: DocumentFormat(path: name))
        documents[name] = document
        order.append(name)
        return .loaded(document, path: name)
    }

    /// `"; did you mean 'payments/signin.yaml'?"` for a nested flow `reference` whose file (canonical `path`) does
    /// not exist: the flow file (`.json`, `.yaml`, `.yml`, not hidden) in the same folder whose name is closest.
    /// The same name with another flow extension comes first; otherwise names are compared without their
    /// extension, as `Suggestions` does, and among files of the chosen name the written extension is preferred.
    /// Answers are remembered per path; an empty string when nothing is close or the folder cannot be listed.
    private func missingFileHint(_ reference: String, at path: String) -> String {
        lock.lock()
        if let known = missingHints[path] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let hint = Self.closestFlowFile(to: reference, at: path).map { ("; did you mean '\(name: $0)'?" as Message).text } ?? ""
        lock.lock()
        missingHints[path] = hint
        lock.unlock()
        return hint
    }

    /// The reference with its file name replaced by the closest flow file's (see `missingFileHint`), or nil.
    static func closestFlowFile(to reference: String, at path: String) -> String? {
        let folder = FilePath.directory(of: path)
        let written = (path as NSString).lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        func stem(_ name: String) -> String { (name as NSString).deletingPathExtension }
        func ext(_ name: String) -> String { (name as NSString).pathExtension }
        let flows = names.filter { !$0.hasPrefix(".") && ["json", "yaml", "yml"].contains(ext($0).lowercased()) }.sorted()
        let writtenStem = stem(written)
        var choice = flows.first { stem($0) == writtenStem && $0 != written }
        if choice == nil {
            var stems: [String] = []
            var seen: Set<String> = []
            for name in flows where seen.insert(stem(name)).inserted { stems.append(stem(name)) }
            if let best = Suggestions.closest(to: writtenStem, in: stems) {
                choice = flows.first { stem($0) == best && ext($0) == ext(written) } ?? flows.first { stem($0) == best }
            }
        }
        guard let choice else { return nil }
        let folderPart = reference.lastIndex(of: "/").map { String(reference[...$0]) } ?? ""
        return folderPart + choice
    }

    /// The nested flow files loaded so far, in the order they were first named.
    package var loadedFiles: [String] {
        lock.lock()
        defer { lock.unlock() }
        return order
    }

    /// The nested flow loaded under `name` (a canonical path, or the name a source gave), when one was.
    package func document(named name: String) -> LoadedDocument? {
        lock.lock()
        defer { lock.unlock() }
        return documents[name]
    }

    /// The chain of files `file` → `reference` → … → `file` when flows nest each other in a cycle through this
    /// reference; nil otherwise. Breadth-first, so the chain is a shortest one.
    package func cycle(through reference: String, from file: String) -> [String]? {
        let start = identity(file)
        guard case .loaded(_, let first) = nested(reference, from: file) else { return nil }
        if first == start { return [start, start] }
        var parent: [String: String] = [:]
        var queue = [first]
        var seen: Set<String> = [first]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for child in children(of: current) {
                if child == start {
                    var chain = [current]
                    var node = current
                    while let previous = parent[node] {
                        chain.append(previous)
                        node = previous
                    }
                    return [start] + Array(chain.reversed()) + [start]
                }
                if seen.insert(child).inserted {
                    parent[child] = current
                    queue.append(child)
                }
            }
        }
        return nil
    }

    /// How many levels of nested flows lie below the flow at `path` (canonical), cycles not counted.
    package func nestingDepth(below path: String) -> Int {
        lock.lock()
        if let known = depthCache[path] {
            lock.unlock()
            return known
        }
        lock.unlock()
        // Iterative post-order walk; a flow on the current path (a cycle) counts as depth 0.
        var depth: [String: Int] = [:]
        var onPath: Set<String> = [path]
        var stack: [(node: String, children: [String], next: Int)] = [(path, children(of: path), 0)]
        while let top = stack.last {
            if top.next < top.children.count {
                stack[stack.count - 1].next += 1
                let child = top.children[top.next]
                lock.lock()
                let cached = depthCache[child]
                lock.unlock()
                if depth[child] != nil || cached != nil || onPath.contains(child) { continue }
                onPath.insert(child)
                stack.append((child, children(of: child), 0))
            } else {
                stack.removeLast()
                onPath.remove(top.node)
                var best = 0
                for child in top.children where !onPath.contains(child) {
                    lock.lock()
                    let cached = depthCache[child]
                    lock.unlock()
                    best = max(best, 1 + (depth[child] ?? cached ?? 0))
                }
                depth[top.node] = best
            }
        }
        lock.lock()
        for (node, value) in depth where depthCache[node] == nil { depthCache[node] = value }
        lock.unlock()
        return depth[path] ?? 0
    }

    /// The nested flow files the flow at `path` names that load (remembered).
    private func children(of path: String) -> [String] {
        lock.lock()
        if let known = childCache[path] {
            lock.unlock()
            return known
        }
        let document = documents[path]
        lock.unlock()
        guard let flow = document?.flow else { return [] }
        let result: [String] = flow.steps.compactMap { step in
            guard step.kind == .flow, let reference = step.flowPath, case .loaded(_, let child) = nested(reference, from: path) else { return nil }
            return child
        }
        lock.lock()
        childCache[path] = result
        lock.unlock()
        return result
    }

}
