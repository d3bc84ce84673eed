import Foundation

/// The files a lint run may read: the nested flows that flows name are loaded once each, and only inside the
/// directory trees given on the command line unless reading outside them is allowed.
public final class LintWorkspace: @unchecked Sendable {
    /// What a nested-flow reference leads to.
    public enum Nested: Sendable {
        /// The nested flow, loaded (it may have findings of its own).
        case loaded(LoadedDocument, path: String)
        /// Why the reference leads nowhere.
        case unavailable(String)
    }

    private let roots: [String]
    private let allowOutside: Bool
    private let lock = NSLock()
    private var documents: [String: LoadedDocument] = [:]
    private var order: [String] = []

    /// A workspace confined to `roots` (directories), or unconfined with `allowOutside`.
    public init(roots: [String], allowOutside: Bool = false) {
        self.roots = roots.map(FileFlowResolver.canonical)
        self.allowOutside = allowOutside
    }

    /// The nested flow `reference` names in the flow file `file`.
    public func nested(_ reference: String, from file: String) -> Nested {
        let path: String
        do {
            path = try locate(reference, from: file)
        } catch {
            return .unavailable(error.message)
        }
        lock.lock()
        if let cached = documents[path] {
            lock.unlock()
            return .loaded(cached, path: path)
        }
        lock.unlock()
        let document: LoadedDocument
        do {
            document = try FlowLoader.load(path: path)
        } catch FlowKitError.noSuchFile {
            return .unavailable("nested flow '\(Identifier.display(reference))' does not exist")
        } catch FlowKitError.notAFile {
            return .unavailable("nested flow '\(Identifier.display(reference))' is not a regular file")
        } catch FlowKitError.unreadable(_, let reason) {
            return .unavailable("nested flow '\(Identifier.display(reference))' cannot be read: \(reason)")
        } catch {
            return .unavailable("nested flow '\(Identifier.display(reference))' cannot be read")
        }
        lock.lock()
        defer { lock.unlock() }
        if let cached = documents[path] { return .loaded(cached, path: path) }
        documents[path] = document
        order.append(path)
        return .loaded(document, path: path)
    }

    /// The nested flow files loaded so far, in the order they were first named.
    public var loadedFiles: [String] {
        lock.lock()
        defer { lock.unlock() }
        return order
    }

    /// The chain of files `file` → `reference` → … → `file` when flows nest each other in a cycle through this
    /// reference; nil otherwise. Breadth-first, so the chain is a shortest one.
    public func cycle(through reference: String, from file: String) -> [String]? {
        let start = FileFlowResolver.canonical(file)
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

    /// The nested flow files the flow at `path` names that load.
    private func children(of path: String) -> [String] {
        lock.lock()
        let document = documents[path]
        lock.unlock()
        guard let flow = document?.flow else { return [] }
        return flow.steps.compactMap { step in
            guard step.kind == .flow, let reference = step.flowPath, case .loaded(_, let child) = nested(reference, from: path) else { return nil }
            return child
        }
    }

    private func locate(_ reference: String, from file: String) throws(RunError) -> String {
        if allowOutside || roots.isEmpty {
            return try FileFlowResolver.locate(reference, from: file, root: "/")
        }
        var last: RunError?
        for root in roots {
            do {
                return try FileFlowResolver.locate(reference, from: file, root: root)
            } catch {
                last = error
            }
        }
        throw RunError((last?.message ?? "nested flow '\(reference)' is outside the tree") + " (give --allow-outside to read it)")
    }
}
