import FlowKit
import Foundation

/// `flowkit lsp`'s server (docs/format.md, "The editor server"): takes the client's messages one by one and gives
/// the messages to send back. It does no input or output of its own (`LanguageServerLoop` does), so tests drive it
/// message by message. Edits only mark documents stale; `lintStale()` lints them, once however many edits came.
package final class LanguageServer: @unchecked Sendable {
    /// Where the server logs (standard error, for `flowkit lsp`).
    private let log: (String) -> Void
    private var documents: [String: EditorDocument] = [:]
    /// Open documents whose diagnostics are stale, in the order they changed.
    private var stale: [String] = []
    /// Documents (by URI) whose diagnostics were published, with the files their lint read (given and nested,
    /// canonical): a change of one of those files makes them stale too.
    private var reads: [String: Set<String>] = [:]
    /// The last findings of each document, with their fixes.
    private var findings: [String: [Diagnostic]] = [:]
    /// Files on disk, not open, that depend on a file (canonical path): the flows that nest it and the scripts of
    /// it; worked out from the workspace once, and again after a save, an open or a close.
    private var dependentsOnDisk: [String: [String]]?
    /// Files on disk whose diagnostics are stale because a file they depend on changed, by path.
    private var staleOnDisk: [String] = []
    /// The folder nested flows must stay inside (the workspace root), when the client named one.
    private var root: String?
    private var initialized = false
    private var shutdownRequested = false
    /// The exit status once `exit` came (0 after `shutdown`, 1 without).
    package private(set) var exitStatus: Int32?

    package init(log: @escaping (String) -> Void = { _ in }) {
        self.log = log
    }

    /// Whether documents wait for their lint.
    package var hasStaleDocuments: Bool { !stale.isEmpty || !staleOnDisk.isEmpty }

    // MARK: - Messages

    /// Handles one message body; gives the bodies to send (responses, and notifications such as diagnostics for a
    /// document just opened).
    package func handle(_ message: Data) -> [Data] {
        let header: JSONRPC.Header
        do {
            header = try JSONDecoder().decode(JSONRPC.Header.self, from: message)
        } catch {
            log("flowkit lsp: a message that is not JSON-RPC: \(error)")
            return [JSONRPC.error(id: nil, LSPResponseError(code: -32700, message: "parse error: the message is not a JSON-RPC object"))]
        }
        guard let method = header.method else {
            // A response to a request of ours (the server sends none that needs one): nothing to do.
            return []
        }
        let id = header.id
        func params<P: Decodable>(_ type: P.Type) throws -> P {
            let decoded = try JSONDecoder().decode(JSONRPC.Params<P>.self, from: message)
            return decoded.params
        }
        func reply<R: Encodable>(_ body: () throws -> R?) -> [Data] {
            guard let id else { return [] }
            do {
                return [JSONRPC.response(id: id, result: try body())]
            } catch let error as LSPResponseError {
                return [JSONRPC.error(id: id, error)]
            } catch {
                return [JSONRPC.error(id: id, .invalidParams("invalid params for '\(method)': \(error)"))]
            }
        }
        if !initialized && method != "initialize" && method != "exit" {
            return id == nil ? [] : [JSONRPC.error(id: id, LSPResponseError(code: -32002, message: "the server is not initialized"))]
        }
        if shutdownRequested && method != "exit" {
            return id == nil ? [] : [JSONRPC.error(id: id, LSPResponseError(code: -32600, message: "the server is shutting down"))]
        }
        switch method {
        case "initialize":
            if initialized { return id == nil ? [] : [JSONRPC.error(id: id, LSPResponseError(code: -32600, message: "the server is initialized already"))] }
            return reply { () -> InitializeResult in
                struct Params: Decodable {
                    var rootUri: String?
                    var rootPath: String?
                }
                let given = try? params(Params.self)
                root = (given?.rootUri).flatMap(Self.path(ofURI:)) ?? given?.rootPath
                initialized = true
                return InitializeResult()
            }
        case "initialized", "$/cancelRequest", "$/setTrace", "workspace/didChangeConfiguration", "textDocument/willSave":
            return []
        case "shutdown":
            shutdownRequested = true
            return reply { () -> String? in nil }
        case "exit":
            exitStatus = shutdownRequested ? 0 : 1
            return []
        case "textDocument/didOpen":
            guard let opened = try? params(LSPDidOpenParams.self) else { return [] }
            let item = opened.textDocument
            guard let path = Self.path(ofURI: item.uri) else { return [] }
            documents[item.uri] = EditorDocument(uri: item.uri, path: path, version: item.version, text: item.text)
            markStale(item.uri)
            return []
        case "textDocument/didChange":
            guard let changed = try? params(LSPDidChangeParams.self), let document = documents[changed.textDocument.uri] else { return [] }
            for change in changed.contentChanges { document.change(change, version: changed.textDocument.version) }
            markStale(document.uri)
            return []
        case "textDocument/didSave":
            dependentsOnDisk = nil
            return []
        case "workspace/didChangeWatchedFiles":
            // Files changed on disk (a nested flow, a configuration): which files depend on which is found again,
            // and every open document is linted again.
            dependentsOnDisk = nil
            for uri in documents.keys.sorted() where !stale.contains(uri) { stale.append(uri) }
            return []
        case "textDocument/didClose":
            guard let closed = try? params(LSPDidCloseParams.self) else { return [] }
            let uri = closed.textDocument.uri
            guard let document = documents.removeValue(forKey: uri) else { return [] }
            stale.removeAll { $0 == uri }
            findings[uri] = nil
            reads[uri] = nil
            // Its diagnostics go with it; the documents that read its unsaved text read the file again.
            var messages = [JSONRPC.notification("textDocument/publishDiagnostics", LSPPublishDiagnosticsParams(uri: uri, version: nil, diagnostics: []))]
            for (other, files) in reads where files.contains(FileFlowResolver.canonical(document.path)) { markStale(other) }
            messages += lintStale()
            return messages
        case "textDocument/definition":
            return reply { try definition(params(LSPTextDocumentPositionParams.self)) }
        case "textDocument/references":
            return reply { try references(params(LSPTextDocumentPositionParams.self)) }
        case "textDocument/prepareRename":
            return reply { try prepareRename(params(LSPTextDocumentPositionParams.self)) }
        case "textDocument/rename":
            return reply { try rename(params(LSPRenameParams.self)) }
        case "textDocument/completion":
            return reply { try completion(params(LSPTextDocumentPositionParams.self)) }
        case "textDocument/hover":
            return reply { try hover(params(LSPTextDocumentPositionParams.self)) }
        case "textDocument/documentSymbol":
            return reply { try documentSymbols(params(LSPDidCloseParams.self).textDocument.uri) }
        case "textDocument/codeAction":
            return reply { try codeActions(params(LSPCodeActionParams.self)) }
        default:
            return id == nil ? [] : [JSONRPC.error(id: id, LSPResponseError(code: -32601, message: "method not found: '\(method)'"))]
        }
    }

    /// What the server can do.
    package struct InitializeResult: Encodable {
        struct Capabilities: Encodable {
            struct Sync: Encodable {
                var openClose = true
                /// 1: the whole text on every change.
                var change = 1
            }
            struct Completion: Encodable {
                var triggerCharacters = [".", ":", " ", "[", "'", "\""]
            }
            struct Rename: Encodable {
                var prepareProvider = true
            }
            struct CodeActions: Encodable {
                var codeActionKinds = ["quickfix"]
            }
            var positionEncoding = "utf-16"
            var textDocumentSync = Sync()
            var definitionProvider = true
            var referencesProvider = true
            var renameProvider = Rename()
            var completionProvider = Completion()
            var hoverProvider = true
            var documentSymbolProvider = true
            var codeActionProvider = CodeActions()
        }
        struct ServerInfo: Encodable {
            var name = "flowkit"
            var version = FlowKitVersion.current
        }
        var capabilities = Capabilities()
        var serverInfo = ServerInfo()
    }

    // MARK: - Diagnostics

    private func markStale(_ uri: String) {
        if !stale.contains(uri) { stale.append(uri) }
        // Open documents that read it (its parents, its scripts) are stale too, and so are such files on disk.
        guard let document = documents[uri] else { return }
        let canonical = FileFlowResolver.canonical(document.path)
        for (other, files) in reads where other != uri && files.contains(canonical) && !stale.contains(other) { stale.append(other) }
        let open = Set(documents.values.map { FileFlowResolver.canonical($0.path) })
        for path in dependents(of: document)[canonical] ?? [] where !open.contains(FileFlowResolver.canonical(path)) && !staleOnDisk.contains(path) {
            staleOnDisk.append(path)
        }
    }

    /// The files on disk that depend on each file: flows by the files their `flow` steps nest, scripts by their
    /// flow's file (at most 2,000 files looked at, as for rename).
    private func dependents(of document: EditorDocument) -> [String: [String]] {
        if let dependentsOnDisk { return dependentsOnDisk }
        var found: [String: [String]] = [:]
        for candidate in workspaceDocuments(near: document) {
            let folder = (candidate.path as NSString).deletingLastPathComponent
            if let flow = candidate.loaded.flow {
                for step in flow.steps where step.kind == .flow {
                    guard let reference = step.flowPath else { continue }
                    found[FileFlowResolver.canonical((folder as NSString).appendingPathComponent(reference)), default: []].append(candidate.path)
                }
            } else if let (_, flowPath) = scriptNames(candidate) {
                found[FileFlowResolver.canonical(flowPath), default: []].append(candidate.path)
            }
        }
        dependentsOnDisk = found
        return found
    }

    /// Lints the stale documents (each once, with every open document's text in place of its file) and gives
    /// their diagnostics.
    package func lintStale() -> [Data] {
        let uris = stale
        let onDisk = staleOnDisk
        stale = []
        staleOnDisk = []
        var messages: [Data] = []
        for uri in uris {
            guard let document = documents[uri] else { continue }
            let diagnostics = lint(document)
            messages.append(JSONRPC.notification("textDocument/publishDiagnostics",
                                                 LSPPublishDiagnosticsParams(uri: uri, version: document.version, diagnostics: diagnostics)))
        }
        // Files not open that read a changed one: linted as on disk (the open documents' texts in place of theirs).
        for path in onDisk {
            guard let bytes = try? FlowLoader.read(path: path, limit: ReaderLimits.standard.maxBytes), bytes.count <= ReaderLimits.standard.maxBytes else { continue }
            let document = EditorDocument(uri: Self.uri(ofPath: path), path: path, bytes: bytes)
            let diagnostics = lint(document)
            messages.append(JSONRPC.notification("textDocument/publishDiagnostics",
                                                 LSPPublishDiagnosticsParams(uri: document.uri, version: nil, diagnostics: diagnostics)))
        }
        return messages
    }

    /// The overlay of every open document's text, by canonical path.
    private var overlay: [String: [UInt8]] {
        Dictionary(documents.values.map { (FileFlowResolver.canonical($0.path), $0.bytes) }, uniquingKeysWith: { first, _ in first })
    }

    /// `document`'s findings as lint gives them for its file (its nearest `.flowkit.yml` applied), as protocol
    /// diagnostics.
    private func lint(_ document: EditorDocument) -> [LSPDiagnostic] {
        // A YAML or JSON document that is not a flow or a script (a CI workflow, a package manifest) is not
        // flowkit's: as a directory walk skips it, the server says nothing about it.
        guard document.loaded.isFlowFile else {
            findings[document.uri] = []
            reads[document.uri] = []
            return []
        }
        let folder = (document.path as NSString).deletingLastPathComponent
        let session = { () -> LintSession in
            var session = LintSession(roots: [root.map { Self.contains($0, document.path) ? $0 : folder } ?? folder])
            session.overlay = overlay
            return session
        }()
        let outcome = session.run([document.path])
        for failure in outcome.failures { log("flowkit lsp: \(failure)") }
        let canonical = FileFlowResolver.canonical(document.path)
        let own = outcome.diagnostics.filter { FileFlowResolver.canonical($0.file) == canonical }
        findings[document.uri] = own
        reads[document.uri] = Set(outcome.files.map(FileFlowResolver.canonical))
        return own.map { Self.diagnostic(finding: $0, in: document) }
    }

    /// A finding as the protocol's diagnostic: its rule as `code`, from its position to the end of its token.
    private static func diagnostic(finding: Diagnostic, in document: EditorDocument) -> LSPDiagnostic {
        LSPDiagnostic(range: document.tokenRange(at: finding.position), severity: severity(finding.severity), code: finding.rule.rawValue,
                      source: "flowkit", message: finding.message, relatedInformation: nil)
    }

    private static func severity(_ severity: Severity) -> Int {
        switch severity {
        case .error: return 1
        case .warning: return 2
        case .note: return 3
        }
    }

    // MARK: - Navigation

    private func document(_ uri: String) throws -> EditorDocument {
        if let document = documents[uri] { return document }
        // A document the client has not opened: read from disk.
        guard let path = Self.path(ofURI: uri), let bytes = try? FlowLoader.read(path: path, limit: ReaderLimits.standard.maxBytes) else {
            throw LSPResponseError.invalidParams("the document '\(uri)' is not open and cannot be read")
        }
        return EditorDocument(uri: uri, path: path, bytes: bytes)
    }

    private func occurrence(_ params: LSPTextDocumentPositionParams) throws -> (EditorDocument, FlowSymbols.Occurrence)? {
        let document = try document(params.textDocument.uri)
        guard let occurrence = document.symbols.occurrence(at: document.sourcePosition(params.position)) else { return nil }
        return (document, occurrence)
    }

    private func location(_ document: EditorDocument, _ occurrence: FlowSymbols.Occurrence) -> LSPLocation {
        LSPLocation(uri: document.uri, range: document.range(occurrence.start, occurrence.end))
    }

    func definition(_ params: LSPTextDocumentPositionParams) throws -> LSPLocation? {
        let current = try document(params.textDocument.uri)
        if current.loaded.isScript { return scriptDefinition(current, at: current.sourcePosition(params.position)) }
        guard let (document, occurrence) = try occurrence(params) else { return nil }
        if occurrence.kind == .file {
            let folder = (document.path as NSString).deletingLastPathComponent
            let path = ((folder as NSString).appendingPathComponent(occurrence.name) as NSString).standardizingPath
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            return LSPLocation(uri: Self.uri(ofPath: path), range: LSPRange(start: LSPPosition(line: 0, character: 0), end: LSPPosition(line: 0, character: 0)))
        }
        guard let definition = document.symbols.definition(occurrence.kind, occurrence.name) else { return nil }
        return location(document, definition)
    }

    func references(_ params: LSPTextDocumentPositionParams) throws -> [LSPLocation] {
        guard let (document, occurrence) = try occurrence(params) else { return [] }
        var found = document.symbols.all(occurrence.kind, occurrence.name).map { location(document, $0) }
        guard occurrence.kind == .step || occurrence.kind == .event else { return found }
        // The scripts that name it, and for a step, the scripts of the parents (`pay/card`); for a finish step that
        // is the flow's outcome, the parents' handlers of it at the steps that nest this flow.
        let workspace = workspaceDocuments(near: document)
        for script in scripts(of: document, among: workspace) {
            found += script.places(occurrence.kind, occurrence.name).map { LSPLocation(uri: script.document.uri, range: script.document.range($0.start, $0.end)) }
        }
        if occurrence.kind == .step {
            let step = document.symbols.flow?.steps.first { $0.name.text == occurrence.name }
            for (parent, nesting) in parents(of: document, among: workspace) {
                for script in scripts(of: parent, among: workspace) {
                    found += script.places(.step, occurrence.name, depth: 1, under: nesting)
                        .map { LSPLocation(uri: script.document.uri, range: script.document.range($0.start, $0.end)) }
                }
                if step?.kind == .finish, step?.outcome == nil {
                    found += parent.symbols.all(.event, occurrence.name).filter { !$0.isDefinition && nesting.contains($0.step ?? "") }
                        .map { location(parent, $0) }
                }
            }
        }
        return found
    }

    func prepareRename(_ params: LSPTextDocumentPositionParams) throws -> LSPPrepareRenameResult? {
        guard let (document, occurrence) = try occurrence(params), Self.renames(occurrence.kind),
              document.symbols.definition(occurrence.kind, occurrence.name) != nil else { return nil }
        return LSPPrepareRenameResult(range: document.range(occurrence.start, occurrence.end), placeholder: occurrence.name)
    }

    private static func renames(_ kind: FlowSymbols.Kind) -> Bool {
        switch kind {
        case .step, .event, .stateKey, .resultKey: return true
        // Entries are named by scripts and links outside the flow, which a rename cannot see.
        case .entry, .file, .rule: return false
        }
    }

    func rename(_ params: LSPRenameParams) throws -> LSPWorkspaceEdit? {
        guard let (document, occurrence) = try occurrence(LSPTextDocumentPositionParams(textDocument: params.textDocument, position: params.position)),
              Self.renames(occurrence.kind), document.symbols.definition(occurrence.kind, occurrence.name) != nil else {
            throw LSPResponseError.requestFailed("only a step, an event, a state key or a result key of this flow can be renamed")
        }
        let new = params.newName
        guard FlowSymbols.isName(new) else {
            throw LSPResponseError.requestFailed("'\(new)' is not a name: an ASCII letter or '_', then ASCII letters, digits or '_'")
        }
        guard new != occurrence.name else { return LSPWorkspaceEdit(changes: [:]) }
        if document.symbols.definition(occurrence.kind, new) != nil {
            throw LSPResponseError.requestFailed("'\(new)' is taken: the flow already declares it")
        }
        let all = document.symbols.all(occurrence.kind, occurrence.name)
        if let escaped = all.first(where: { !$0.isLiteral }) {
            throw LSPResponseError.requestFailed("'\(occurrence.name)' is written with escapes, an anchor or an alias at \(escaped.start.line):\(escaped.start.column); rename it by hand")
        }
        // An event a `flow` step handles may be its nested flow's outcome: renamed here, the outcome stays.
        if occurrence.kind == .event, let flow = document.symbols.flow,
           let step = flow.steps.first(where: { $0.kind == .flow && $0.on.contains { $0.event.text == occurrence.name } }) {
            throw LSPResponseError.requestFailed("'\(occurrence.name)' is handled at the flow step '\(step.name.text)', where it may be its nested flow's outcome; rename the finish step in the nested flow instead")
        }
        // The workspace's files, walked once for the parents and scripts below.
        let workspace = occurrence.kind == .step || occurrence.kind == .event ? workspaceDocuments(near: document) : []
        var changes: [String: [LSPTextEdit]] = [:]
        changes[document.uri] = all.map { LSPTextEdit(range: document.range($0.start, $0.end), newText: new) }
        // A finish step without 'outcome' is its flow's outcome: the parents handle it as an event at their `flow`
        // steps that nest this flow, and declare it; both are renamed (refused where a parent uses the event
        // otherwise too, which a rename here must not change).
        if occurrence.kind == .step, let step = document.symbols.flow?.steps.first(where: { $0.name.text == occurrence.name }),
           step.kind == .finish, step.outcome == nil {
            for (parent, nesting) in parents(of: document, among: workspace) {
                let uses = parent.symbols.all(.event, occurrence.name)
                guard !uses.isEmpty else { continue }
                if uses.contains(where: { !$0.isLiteral }) {
                    throw LSPResponseError.requestFailed("'\(parent.path)' writes '\(occurrence.name)' with escapes, an anchor or an alias; rename by hand")
                }
                if uses.contains(where: { !$0.isDefinition && !nesting.contains($0.step ?? "") }) {
                    throw LSPResponseError.requestFailed("'\(parent.path)' handles '\(occurrence.name)' at a step that does not nest this flow too; rename it there first")
                }
                if parent.symbols.definition(.event, new) != nil {
                    throw LSPResponseError.requestFailed("'\(new)' is taken in '\(parent.path)', which handles this flow's outcome '\(occurrence.name)'")
                }
                changes[parent.uri, default: []] += uses.map { LSPTextEdit(range: parent.range($0.start, $0.end), newText: new) }
            }
        }
        // Scripts of this flow name its steps and events; scripts of its parents name its steps under the parent's
        // step that nests it ('signIn/gaveUp').
        if occurrence.kind == .step || occurrence.kind == .event {
            for script in scripts(of: document, among: workspace) {
                if script.unreadable {
                    throw LSPResponseError.requestFailed("the script '\(script.document.path)' writes a step or event name with escapes; rename by hand")
                }
                let edits = script.places(occurrence.kind, occurrence.name).map { LSPTextEdit(range: script.document.range($0.start, $0.end), newText: new) }
                if !edits.isEmpty { changes[script.document.uri, default: []] += edits }
            }
            if occurrence.kind == .step {
                for (parent, nesting) in parents(of: document, among: workspace) {
                    for script in scripts(of: parent, among: workspace) {
                        let edits = script.places(.step, occurrence.name, depth: 1, under: nesting)
                            .map { LSPTextEdit(range: script.document.range($0.start, $0.end), newText: new) }
                        if !edits.isEmpty { changes[script.document.uri, default: []] += edits }
                    }
                }
            }
        }
        return LSPWorkspaceEdit(changes: changes)
    }

    // MARK: - Scripts

    /// Where a script names steps (its steps, `expect.path`, `expect.outcome`, as `a` or `pay/card` for a nested
    /// flow's) and events.
    struct ScriptNames {
        /// One name written, split at `/`, with where its text starts.
        struct Written {
            let parts: [String]
            let start: SourcePosition
            let isEvent: Bool
        }

        let document: EditorDocument
        let written: [Written]
        /// Whether some name is written with escapes (not in `written`).
        var unreadable = false

        /// The places of the step or event `name` at depth `depth` of the names (0: the flow's own, 1: the steps of
        /// a flow nested at a step in `under`).
        func places(_ kind: FlowSymbols.Kind, _ name: String, depth: Int = 0, under: Set<String> = []) -> [(start: SourcePosition, end: SourcePosition)] {
            written.compactMap { item in
                guard item.isEvent == (kind == .event), item.parts.count > depth, item.parts[depth] == name,
                      depth == 0 || under.contains(item.parts[0]) else { return nil }
                let column = item.start.column + item.parts[..<depth].reduce(0) { $0 + $1.unicodeScalars.count + 1 }
                return (SourcePosition(line: item.start.line, column: column), SourcePosition(line: item.start.line, column: column + name.unicodeScalars.count))
            }
        }
    }

    /// The scripts among `workspace` (`workspaceDocuments(near:)`, walked once per request) whose flow is `flow`'s
    /// file.
    func scripts(of flow: EditorDocument, among workspace: [EditorDocument]) -> [ScriptNames] {
        let target = FileFlowResolver.canonical(flow.path)
        return workspace.compactMap { document in
            guard let (names, flowPath) = scriptNames(document), FileFlowResolver.canonical(flowPath) == target else { return nil }
            return names
        }
    }

    /// The names a script document writes, and the path of the flow it names; nil for a document that is not a
    /// script (or names no flow).
    func scriptNames(_ document: EditorDocument) -> (ScriptNames, flowPath: String)? {
        let loaded = document.loaded
        guard loaded.isScript, let root = loaded.root, let script = ScriptDecoder.decode(root, file: document.path).script,
              let reference = script.flow else { return nil }
        let flowPath = ((document.path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(reference)
        var written: [ScriptNames.Written] = []
        var unreadable = false
        func add(_ name: Name, event: Bool = false) {
            let parts = name.text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            // A name written with escapes cannot be edited where it is: it is left out, and a rename refused.
            guard let start = Self.nameStart(name.position, name: name.text, in: document) else {
                unreadable = true
                return
            }
            written.append(.init(parts: parts, start: start, isEvent: event))
        }
        for scenario in script.scenarios {
            for step in scenario.steps {
                add(step.step)
                if let event = step.event { add(event, event: true) }
            }
            for name in scenario.expect?.path ?? [] { add(name) }
            if let outcome = scenario.expect?.outcome { add(outcome) }
        }
        return (ScriptNames(document: document, written: written, unreadable: unreadable), (flowPath as NSString).standardizingPath)
    }

    /// In a script, the declaration of the step or event named at `position` (`pay/card`: the nested flow's step
    /// `card`, through the `flow` step `pay`).
    func scriptDefinition(_ document: EditorDocument, at position: SourcePosition) -> LSPLocation? {
        guard let (names, flowPath) = scriptNames(document) else { return nil }
        for item in names.written where item.start.line == position.line {
            var column = item.start.column
            for (index, part) in item.parts.enumerated() {
                defer { column += part.unicodeScalars.count + 1 }
                guard column <= position.column && position.column <= column + part.unicodeScalars.count else { continue }
                // Down the nested flows to the one that holds the part.
                var path = flowPath
                for step in item.parts[..<index] {
                    guard let flow = try? self.document(Self.uri(ofPath: path)), let nested = flow.symbols.flow?.steps.first(where: { $0.name.text == step }),
                          nested.kind == .flow, let reference = nested.flowPath else { return nil }
                    path = (((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(reference) as NSString).standardizingPath
                }
                guard let flow = try? self.document(Self.uri(ofPath: path)),
                      let definition = flow.symbols.definition(item.isEvent ? .event : .step, part) else { return nil }
                return location(flow, definition)
            }
        }
        return nil
    }

    /// The flow and script documents of the workspace, by path: the open ones, then those on disk under the root
    /// (or `near`'s folder) that are not open; at most 2,000 files are looked at, hidden ones and `.build` skipped.
    func workspaceDocuments(near document: EditorDocument) -> [EditorDocument] {
        var candidates: [String: EditorDocument] = [:]
        for open in documents.values { candidates[FileFlowResolver.canonical(open.path)] = open }
        let folder = root ?? (document.path as NSString).deletingLastPathComponent
        if let walker = FileManager.default.enumerator(atPath: folder) {
            // Bounded in entries visited (20,000) as well as in flow files read (2,000): a root that holds a home
            // folder's worth of files is not walked whole.
            var seen = 0
            var visited = 0
            while let relative = walker.nextObject() as? String, seen < 2_000, visited < 20_000 {
                visited += 1
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") || name == ".build" || name == "node_modules" { walker.skipDescendants(); continue }
                guard ["yaml", "yml", "json"].contains((name as NSString).pathExtension) else { continue }
                seen += 1
                let path = (folder as NSString).appendingPathComponent(relative)
                let canonical = FileFlowResolver.canonical(path)
                guard candidates[canonical] == nil, let bytes = try? FlowLoader.read(path: path, limit: ReaderLimits.standard.maxBytes),
                      bytes.count <= ReaderLimits.standard.maxBytes, String(decoding: bytes.prefix(4_096), as: UTF8.self).contains("flowkit") else { continue }
                candidates[canonical] = EditorDocument(uri: Self.uri(ofPath: path), path: path, bytes: bytes)
            }
        }
        return candidates.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The flows among `workspace` with a `flow` step whose nested flow is `child`'s file, with those steps' names.
    func parents(of child: EditorDocument, among workspace: [EditorDocument]) -> [(document: EditorDocument, steps: Set<String>)] {
        let target = FileFlowResolver.canonical(child.path)
        return workspace.compactMap { document in
            guard let flow = document.loaded.flow else { return nil }
            let folder = (document.path as NSString).deletingLastPathComponent
            let steps = Set(flow.steps.filter { step in
                step.kind == .flow && step.flowPath.map { FileFlowResolver.canonical((folder as NSString).appendingPathComponent($0)) == target } == true
            }.map(\.name.text))
            return steps.isEmpty ? nil : (document, steps)
        }
    }

    /// Where `name` starts at `position` in `document`: there, or past an opening quote; nil when the file does not
    /// read the name there as it is (escapes), where no edit of it can be made.
    private static func nameStart(_ position: SourcePosition, name: String, in document: EditorDocument) -> SourcePosition? {
        if document.reads(name, at: position) { return position }
        let quoted = SourcePosition(line: position.line, column: position.column + 1)
        return document.reads(name, at: quoted) ? quoted : nil
    }

    // MARK: - Completion, hover, outline, fixes

    func completion(_ params: LSPTextDocumentPositionParams) throws -> LSPCompletionList {
        let document = try document(params.textDocument.uri)
        let prefix = document.linePrefix(params.position)
        let symbols = document.symbols
        func names(_ kind: FlowSymbols.Kind, detail: String, as itemKind: Int) -> [LSPCompletionItem] {
            var seen = Set<String>()
            return symbols.occurrences.filter { $0.isDefinition && $0.kind == kind && seen.insert($0.name).inserted }
                .map { LSPCompletionItem(label: $0.name, kind: itemKind, detail: detail) }
        }
        func matches(_ pattern: String) -> Bool { prefix.range(of: pattern, options: .regularExpression) != nil }
        var items: [LSPCompletionItem] = []
        if document.loaded.isScript {
            // A script's step names are its flow's steps (a `flow` step's, `pay/`, then its nested flow's).
            guard matches(#"^\s*-\s*["']?[A-Za-z0-9_/]*$"#) || matches(#"path:\s*\[[^\]]*$"#), let (_, flowPath) = scriptNames(document),
                  let flow = try? self.document(Self.uri(ofPath: flowPath)) else { return LSPCompletionList(isIncomplete: false, items: []) }
            var seen = Set<String>()
            items = flow.symbols.occurrences.filter { $0.isDefinition && $0.kind == .step && seen.insert($0.name).inserted }
                .map { LSPCompletionItem(label: $0.name, kind: 6, detail: "step of '\((flowPath as NSString).lastPathComponent)'") }
            return LSPCompletionList(isIncomplete: false, items: items)
        }
        if matches(#"state\.[A-Za-z0-9_]*$"#) {
            items = names(.stateKey, detail: "state key", as: 10)
        } else if matches(#"result\.[A-Za-z0-9_]*$"#) {
            // The result keys of the step the cursor is in.
            let here = document.sourcePosition(params.position)
            let step = symbols.occurrences.last { $0.isDefinition && $0.kind == .step && $0.start <= here }?.name
            items = step.map { names(.resultKey($0), detail: "result key of '\($0)'", as: 10) } ?? []
        } else if matches(#"(allow:\s*\[|allow:\s*$|^\s*-\s*)[^\]]*$"#) && matches(#"allow"#) {
            items = Linter.rules.map { LSPCompletionItem(label: $0.description.identifier.rawValue, kind: 21, detail: $0.description.summary) }
        } else if matches(#"flow:\s*["']?[^"']*$"#) && !matches(#"^\s*flow:\s*["']?[A-Za-z0-9_]*$"#) || matches(#"^\s+flow:\s*["']?[^"']*$"#) {
            let folder = (document.path as NSString).deletingLastPathComponent
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            items = files.filter { !$0.hasPrefix(".") && ["yaml", "yml", "json"].contains(($0 as NSString).pathExtension) && $0 != (document.path as NSString).lastPathComponent }
                .sorted().map { LSPCompletionItem(label: $0, kind: 17, detail: "nested flow file") }
        } else if matches(#"(next|forward|back|step|start)\s*"?:\s*["']?[A-Za-z0-9_]*$"#) || matches(#"^\s*-\s*["']?[A-Za-z0-9_]*$"#) {
            items = names(.step, detail: "step", as: 6)
        } else if matches(#"on\s*"?:\s*\{[^}]*$"#) || isInsideOn(document, params.position) {
            items = names(.event, detail: "event", as: 23)
        } else if matches(#":\s*["']?[A-Za-z0-9_]*$"#) {
            // A target of an event handler (`skip: …`).
            items = names(.step, detail: "step", as: 6)
        }
        return LSPCompletionList(isIncomplete: false, items: items)
    }

    /// Whether the line at `position` is a key of an `on:` block (block style: a line indented under `on:`).
    private func isInsideOn(_ document: EditorDocument, _ position: LSPPosition) -> Bool {
        let prefix = document.linePrefix(position)
        guard prefix.range(of: #"^\s*["']?[A-Za-z0-9_]*$"#, options: .regularExpression) != nil else { return false }
        let indent = prefix.prefix { $0 == " " }.count
        // From the line above, within the document (a client may send any line number).
        var line = min(max(position.line, 0), document.lineCount) - 1
        while line >= 0 {
            let text = document.linePrefix(LSPPosition(line: line, character: Int.max / 2))
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty && !trimmed.hasPrefix("#") {
                let lineIndent = text.prefix { $0 == " " }.count
                if lineIndent < indent { return trimmed.hasPrefix("on:") || trimmed.hasPrefix("\"on\":") }
            }
            line -= 1
        }
        return false
    }

    func hover(_ params: LSPTextDocumentPositionParams) throws -> LSPHover? {
        guard let (document, occurrence) = try occurrence(params) else {
            // Inside an expression but on no name: its type.
            let document = try document(params.textDocument.uri)
            guard let flow = document.symbols.flow, let (source, stepName) = document.symbols.expression(at: document.sourcePosition(params.position)),
                  let type = ExpressionTypes.typeDescription(of: source, state: flow.state, step: stepName.flatMap { name in flow.steps.first { $0.name.text == name } })
            else { return nil }
            return LSPHover(contents: LSPMarkupContent(kind: "markdown", value: "**expression** \(Self.markdownCode(source.text)): `\(type)`"), range: nil)
        }
        let flow = document.symbols.flow
        var text: String
        switch occurrence.kind {
        case .step:
            guard let step = flow?.steps.first(where: { $0.name.text == occurrence.name }) else { return nil }
            text = "**step** `\(occurrence.name)` (\(step.kind.rawValue))"
            if let title = step.title { text += ": " + Self.markdownText(title) }
            if let result = step.result { text += "\n\nresult: " + result.map { "`\($0.name.text): \($0.type.written)`" }.joined(separator: ", ") }
            let from = document.symbols.occurrences.filter { $0.kind == .step && !$0.isDefinition && $0.name == occurrence.name }.compactMap(\.step)
            var seen = Set<String>()
            let unique = from.filter { seen.insert($0).inserted && $0 != occurrence.name }
            text += "\n\nreached from: " + (unique.isEmpty ? (flow?.start.text == occurrence.name ? "the start" : "no step") : unique.map { "`\($0)`" }.joined(separator: ", "))
        case .stateKey:
            guard let field = flow?.state.first(where: { $0.name.text == occurrence.name }) else { return nil }
            text = "**state key** `\(occurrence.name)`: `\(field.type.written)`"
            // Where it is set: the steps whose own `set` or whose options' `set` write it.
            let setters = (flow?.steps ?? []).filter { step in
                (step.set + step.on.flatMap { $0.targets.flatMap(\.set) } + (step.next ?? []).flatMap(\.set)).contains { $0.key.text == occurrence.name }
            }.map(\.name.text)
            if flow?.inputs.contains(where: { $0.text == occurrence.name }) == true { text += "\n\nan input" }
            text += "\n\nset at: " + (setters.isEmpty ? "no step" : setters.map { "`\($0)`" }.joined(separator: ", "))
        case .resultKey(let step):
            guard let field = flow?.steps.first(where: { $0.name.text == step })?.result?.first(where: { $0.name.text == occurrence.name }) else { return nil }
            text = "**result key** `\(occurrence.name)` of step `\(step)`: `\(field.type.written)`"
        case .event:
            guard let event = flow?.events.first(where: { $0.name.text == occurrence.name }) else { return nil }
            text = "**event** `\(occurrence.name)`" + (event.expression.map { ", derived: " + Self.markdownCode($0.text) } ?? ", raised by the app")
        case .rule:
            guard let rule = Linter.rule(RuleID(rawValue: occurrence.name)) else { return nil }
            text = RuleCatalog.explanation(rule.description)
        case .file:
            text = "**nested flow** `\(occurrence.name)`"
        case .entry:
            guard let entry = flow?.entries.first(where: { $0.name.text == occurrence.name }) else { return nil }
            text = "**entry** `\(occurrence.name)`: \(Self.markdownCode(entry.path)) starts at `\(entry.step.text)`"
        }
        return LSPHover(contents: LSPMarkupContent(kind: "markdown", value: text), range: document.range(occurrence.start, occurrence.end))
    }

    func documentSymbols(_ uri: String) throws -> [LSPDocumentSymbol] {
        let document = try document(uri)
        guard let flow = document.symbols.flow else { return [] }
        func symbol(_ name: Name, kind: Int, detail: String?) -> LSPDocumentSymbol {
            let occurrence = document.symbols.occurrences.first { $0.isDefinition && $0.name == name.text && $0.start.line == name.position.line }
            let range = occurrence.map { document.range($0.start, $0.end) } ?? document.tokenRange(at: name.position)
            return LSPDocumentSymbol(name: name.text, detail: detail, kind: kind, range: range, selectionRange: range, children: nil)
        }
        var symbols: [LSPDocumentSymbol] = []
        symbols += flow.steps.map { symbol($0.name, kind: 12, detail: $0.kind.rawValue + ($0.title.map { ": " + $0 } ?? "")) }
        symbols += flow.events.map { symbol($0.name, kind: 24, detail: $0.expression.map { "derived: " + $0.text } ?? "event") }
        symbols += flow.entries.map { symbol($0.name, kind: 2, detail: "entry " + $0.path) }
        symbols += flow.state.map { symbol($0.name, kind: 8, detail: $0.type.written) }
        return symbols
    }

    func codeActions(_ params: LSPCodeActionParams) throws -> [LSPCodeAction] {
        let document = try document(params.textDocument.uri)
        // Findings of an older text (an edit not linted yet) could name a place that moved: none until the lint.
        guard !stale.contains(document.uri) else { return [] }
        var actions: [LSPCodeAction] = []
        for finding in findings[document.uri] ?? [] {
            guard let fix = finding.fix, let edit = FixEdits.edit(for: fix, in: document.bytes, format: document.format),
                  !FixPlan.readingBack([edit], in: document.bytes, path: document.path).isEmpty else { continue }
            let range = document.range(edit.start, edit.end)
            // The fixes of the findings on the lines asked about.
            guard range.start.line >= params.range.start.line - 0 && range.start.line <= params.range.end.line else { continue }
            let diagnostic = Self.diagnostic(finding: finding, in: document)
            actions.append(LSPCodeAction(title: fix.title, kind: "quickfix", diagnostics: [diagnostic], isPreferred: true,
                                         edit: LSPWorkspaceEdit(changes: [document.uri: [LSPTextEdit(range: range, newText: edit.newText)]])))
        }
        // Fixes that add text: declaring an event a step handles; guarding an option's `if` with `exists(…)`.
        for finding in findings[document.uri] ?? [] {
            let line = document.lspPosition(finding.position).line
            guard line >= params.range.start.line && line <= params.range.end.line, let subject = finding.subject else { continue }
            let diagnostic = Self.diagnostic(finding: finding, in: document)
            var title: String?
            var edits: [TextEdit] = []
            if finding.rule == .undeclaredEvent, finding.fix == nil, let edit = InsertionFixes.declaringEvent(subject, in: document) {
                title = "declare '\(subject)' in 'events'"
                edits = [edit]
            } else if finding.rule == .undeclaredState, finding.fix == nil, let flow = document.symbols.flow,
                      let (assignment, step) = flow.steps.lazy.compactMap({ step in
                          (step.set + step.on.flatMap { $0.targets.flatMap(\.set) } + (step.next ?? []).flatMap(\.set))
                              .first { $0.key.position == finding.position }.map { ($0, step) }
                      }).first,
                      let type = ExpressionTypes.typeDescription(of: assignment.expression, state: flow.state, step: step),
                      ["int", "number", "string", "bool"].contains(type.hasSuffix("?") ? String(type.dropLast()) : type),
                      let edit = InsertionFixes.declaringStateKey(subject, type: type, in: document) {
                // A key a `set` writes: declared with the type of what it stores.
                title = "declare '\(subject)' in 'state' as \(type)"
                edits = [edit]
            } else if finding.rule == .maybeNull, subject.hasPrefix("state.") || subject.hasPrefix("result."), let flow = document.symbols.flow,
                      let condition = flow.steps.flatMap({ $0.on.flatMap(\.targets) + ($0.next ?? []) }).compactMap(\.condition).first(where: { source in
                          source.position(ofOffset: 0).line == finding.position.line && source.position(ofOffset: 0) <= finding.position
                              && finding.position <= source.position(ofOffset: source.text.unicodeScalars.count)
                      }), let guarded = InsertionFixes.guarding(condition, with: subject, in: document) {
                title = "guard the option with exists(\(subject))"
                edits = guarded
            }
            guard let title else { continue }
            actions.append(LSPCodeAction(title: title, kind: "quickfix", diagnostics: [diagnostic], isPreferred: false,
                                         edit: LSPWorkspaceEdit(changes: [document.uri: edits.map { LSPTextEdit(range: document.range($0.start, $0.end), newText: $0.newText) }])))
        }
        return actions
    }

    /// Text shown as it is in Markdown: every punctuation character Markdown gives a meaning to escaped, line breaks
    /// as spaces.
    static func markdownText(_ text: String) -> String {
        var output = ""
        for character in text {
            if character.isNewline { output += " "; continue }
            if "\\`*_{}[]()<>#+-.!|~&".contains(character) { output += "\\" }
            output.append(character)
        }
        return output
    }

    /// Text as a Markdown code span: fenced with more backticks than it holds in a row, line breaks as spaces.
    static func markdownCode(_ text: String) -> String {
        let flat = String(text.map { $0.isNewline ? " " : $0 })
        var longest = 0
        var run = 0
        for character in flat {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        return fence + " " + flat + " " + fence
    }

    /// Whether `path` is `folder` or inside it (by path components, not by text: `/a/b` is not inside `/a/b2`).
    static func contains(_ folder: String, _ path: String) -> Bool {
        let folder = (folder as NSString).standardizingPath
        let path = (path as NSString).standardizingPath
        return path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    // MARK: - URIs

    /// The path of a `file:` URI (percent-decoded), or nil for another scheme.
    package static func path(ofURI uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        return url.path
    }

    /// The `file:` URI of a path.
    package static func uri(ofPath path: String) -> String {
        URL(fileURLWithPath: path).absoluteString
    }
}

extension TypeRef {
    /// The type as a flow file writes it: `int`, `string?`, `[gold, basic]`, `{ name: string }`.
    var written: String {
        let base: String
        switch self.base {
        case .int: base = "int"
        case .number: base = "number"
        case .string: base = "string"
        case .bool: base = "bool"
        case .enumeration(let values): base = "[" + values.joined(separator: ", ") + "]"
        case .object(let fields): base = "{ " + fields.map { "\($0.name.text): \($0.type.written)" }.joined(separator: ", ") + " }"
        }
        return optional ? base + "?" : base
    }
}
