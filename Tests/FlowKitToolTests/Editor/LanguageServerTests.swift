import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// A client for tests: sends JSON messages to a `LanguageServer` and reads what it gives back.
final class TestClient {
    let server = LanguageServer()
    private var nextID = 0

    /// Sends a request and gives its response (as decoded JSON).
    @discardableResult
    func request(_ method: String, _ params: Any = [String: Any]()) throws -> [String: Any] {
        nextID += 1
        let replies = try send(["jsonrpc": "2.0", "id": nextID, "method": method, "params": params])
        return try #require(replies.first { ($0["id"] as? Int) == nextID })
    }

    /// Sends a notification; gives what came back (diagnostics after the lint of stale documents).
    @discardableResult
    func notify(_ method: String, _ params: Any) throws -> [[String: Any]] {
        try send(["jsonrpc": "2.0", "method": method, "params": params]) + lint()
    }

    func send(_ message: [String: Any]) throws -> [[String: Any]] {
        try raw(JSONSerialization.data(withJSONObject: message))
    }

    func raw(_ body: Data) throws -> [[String: Any]] {
        try server.handle(body).map { try #require(JSONSerialization.jsonObject(with: $0) as? [String: Any]) }
    }

    func lint() throws -> [[String: Any]] {
        try server.lintStale().map { try #require(JSONSerialization.jsonObject(with: $0) as? [String: Any]) }
    }

    func initialize(root: String) throws {
        try request("initialize", ["rootUri": URL(fileURLWithPath: root).absoluteString, "capabilities": [String: Any]()])
        try notify("initialized", [String: Any]())
    }

    /// Opens `path` with `text` (or its file's); gives the diagnostics published for it.
    func open(_ path: String, text: String? = nil) throws -> [[String: Any]] {
        let text = try text ?? String(contentsOfFile: path, encoding: .utf8)
        let published = try notify("textDocument/didOpen", ["textDocument": ["uri": uri(path), "languageId": "yaml", "version": 1, "text": text]])
        return Self.diagnostics(in: published, for: uri(path))
    }

    func change(_ path: String, text: String, version: Int) throws -> [[String: Any]] {
        let published = try notify("textDocument/didChange", ["textDocument": ["uri": uri(path), "version": version], "contentChanges": [["text": text]]])
        return Self.diagnostics(in: published, for: uri(path))
    }

    func uri(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }

    static func diagnostics(in messages: [[String: Any]], for uri: String) -> [[String: Any]] {
        messages.last { ($0["method"] as? String) == "textDocument/publishDiagnostics" && (($0["params"] as? [String: Any])?["uri"] as? String) == uri }
            .flatMap { ($0["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] } ?? []
    }
}

/// `{line, character}` as JSON.
func at(_ line: Int, _ character: Int) -> [String: Int] { ["line": line, "character": character] }

@Suite("flowkit lsp: the protocol")
struct LanguageServerTests {
    static let flow = """
        flowkit: 1
        flow: transfer
        start: amount
        state: { total: int }
        inputs: [total]
        events: { edit: }
        steps:
          amount:
            result: { total: int }
            set: { total: "result.total" }
            on: { edit: amount }
            next: tarifs
          tariffs: { next: done }
          done: { kind: finish }

        """

    func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "flowkit-lsp-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aTypoIsReportedFixedAndCleared() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/t.yaml"
        try Self.flow.write(toFile: path, atomically: true, encoding: .utf8)
        let client = TestClient()
        try client.initialize(root: root)
        let diagnostics = try client.open(path)
        #expect(diagnostics.count == 1)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic["code"] as? String == "undefined_step")
        #expect(diagnostic["message"] as? String == "step 'tarifs' is not defined; did you mean 'tariffs'?")
        let range = try #require(diagnostic["range"] as? [String: [String: Int]])
        #expect(range["start"] == at(11, 10) && range["end"] == at(11, 16))
        // Between an edit and its lint, the findings are of the older text: no quick fix is offered then.
        let shifted = "\n" + Self.flow
        _ = try client.send(["jsonrpc": "2.0", "method": "textDocument/didChange", "params": ["textDocument": ["uri": client.uri(path), "version": 5],
                                                                                              "contentChanges": [["text": shifted]]]])
        let early = try client.request("textDocument/codeAction", ["textDocument": ["uri": client.uri(path)], "range": ["start": at(0, 0), "end": at(20, 0)],
                                                                   "context": ["diagnostics": [diagnostic]]])
        #expect((early["result"] as? [Any])?.isEmpty == true)
        _ = try client.change(path, text: Self.flow, version: 6)
        // The quick fix, applied as the client would, clears it.
        let actions = try #require(try client.request("textDocument/codeAction", ["textDocument": ["uri": client.uri(path)], "range": ["start": at(11, 0), "end": at(11, 0)],
                                                                                  "context": ["diagnostics": [diagnostic]]])["result"] as? [[String: Any]])
        #expect(actions.count == 1)
        let action = try #require(actions.first)
        #expect(action["title"] as? String == "replace 'tarifs' with 'tariffs'" && action["kind"] as? String == "quickfix")
        let edit = try #require((((action["edit"] as? [String: Any])?["changes"] as? [String: Any])?[client.uri(path)] as? [[String: Any]])?.first)
        #expect(edit["newText"] as? String == "tariffs")
        let fixed = Self.flow.replacingOccurrences(of: "next: tarifs", with: "next: tariffs")
        #expect(try client.change(path, text: fixed, version: 7).isEmpty)
    }

    @Test func navigationRenameCompletionHoverAndOutline() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/t.yaml"
        let text = Self.flow.replacingOccurrences(of: "next: tarifs", with: "next: tariffs")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let script = "flowkit-script: 1\nflow: t.yaml\nscenarios:\n  - name: one\n    steps:\n      - amount: { result: { total: 1 } }\n      - tariffs: {}\n"
        try script.write(toFile: root + "/t.script.yaml", atomically: true, encoding: .utf8)
        let client = TestClient()
        try client.initialize(root: root)
        #expect(try client.open(path).isEmpty)
        let document = ["uri": client.uri(path)]
        // Definition: the target 'tariffs' (line 11) goes to its step's key (line 12).
        let definition = try #require(try client.request("textDocument/definition", ["textDocument": document, "position": at(11, 12)])["result"] as? [String: Any])
        #expect((definition["range"] as? [String: [String: Int]])?["start"] == at(12, 2))
        // A key a 'set' writes goes to the state key's declaration; 'result.total' to the step's result key.
        let key = try #require(try client.request("textDocument/definition", ["textDocument": document, "position": at(9, 12)])["result"] as? [String: Any])
        #expect((key["range"] as? [String: [String: Int]])?["start"] == at(3, 9))
        let resultKey = try #require(try client.request("textDocument/definition", ["textDocument": document, "position": at(9, 27)])["result"] as? [String: Any])
        #expect((resultKey["range"] as? [String: [String: Int]])?["start"] == at(8, 14))
        // References of 'tariffs': its declaration and its use.
        let references = try #require(try client.request("textDocument/references", ["textDocument": document, "position": at(12, 3), "context": ["includeDeclaration": true]])["result"] as? [[String: Any]])
        // Its declaration, its use, and the script's step that names it.
        #expect(references.count == 3)
        #expect(references.contains { $0["uri"] as? String == client.uri(root + "/t.script.yaml") })
        // Rename 'tariffs' to 'fares': the flow and its script.
        let prepared = try #require(try client.request("textDocument/prepareRename", ["textDocument": document, "position": at(12, 3)])["result"] as? [String: Any])
        #expect(prepared["placeholder"] as? String == "fares" || prepared["placeholder"] as? String == "tariffs")
        let rename = try #require(try client.request("textDocument/rename", ["textDocument": document, "position": at(12, 3), "newName": "fares"])["result"] as? [String: Any])
        let changes = try #require(rename["changes"] as? [String: [[String: Any]]])
        #expect(changes[client.uri(path)]?.count == 2)
        #expect(changes[client.uri(root + "/t.script.yaml")]?.count == 1)
        // Refused: a taken name, and not a name.
        let taken = try client.request("textDocument/rename", ["textDocument": document, "position": at(12, 3), "newName": "done"])
        #expect(((taken["error"] as? [String: Any])?["message"] as? String)?.contains("'done' is taken") == true)
        let invalid = try client.request("textDocument/rename", ["textDocument": document, "position": at(12, 3), "newName": "two words"])
        #expect((invalid["error"] as? [String: Any])?["code"] as? Int == -32803)
        // Completion after 'next: ' gives the steps; after 'state.' the keys.
        let edited = text.replacingOccurrences(of: "next: tariffs\n", with: "next: \n")
        _ = try client.change(path, text: edited, version: 2)
        let steps = try #require((try client.request("textDocument/completion", ["textDocument": document, "position": at(11, 10)])["result"] as? [String: Any])?["items"] as? [[String: Any]])
        #expect(Set(steps.compactMap { $0["label"] as? String }) == ["amount", "tariffs", "done"])
        let keys = edited.replacingOccurrences(of: "\"result.total\"", with: "\"state.\"")
        _ = try client.change(path, text: keys, version: 3)
        let state = try #require((try client.request("textDocument/completion", ["textDocument": document, "position": at(9, 25)])["result"] as? [String: Any])?["items"] as? [[String: Any]])
        #expect(state.compactMap { $0["label"] as? String } == ["total"])
        _ = try client.change(path, text: text, version: 4)
        // Hover on a step and a state key.
        let hover = try #require((try client.request("textDocument/hover", ["textDocument": document, "position": at(11, 12)])["result"] as? [String: Any])?["contents"] as? [String: Any])
        #expect((hover["value"] as? String)?.hasPrefix("**step** `tariffs` (screen)") == true)
        let keyHover = try #require((try client.request("textDocument/hover", ["textDocument": document, "position": at(3, 10)])["result"] as? [String: Any])?["contents"] as? [String: Any])
        #expect((keyHover["value"] as? String)?.hasPrefix("**state key** `total`: `int`") == true)
        #expect((keyHover["value"] as? String)?.hasSuffix("set at: `amount`") == true, "\(keyHover)")
        // Inside an expression but on no name: its type ('+' of two ints at the '+').
        let plus = text.replacingOccurrences(of: "\"result.total\"", with: "\"result.total + 1\"")
        _ = try client.change(path, text: plus, version: 5)
        let expression = try #require((try client.request("textDocument/hover", ["textDocument": document, "position": at(9, 32)])["result"] as? [String: Any])?["contents"] as? [String: Any])
        #expect(expression["value"] as? String == "**expression** ` result.total + 1 `: `int`")
        _ = try client.change(path, text: text, version: 6)
        // The outline.
        let symbols = try #require(try client.request("textDocument/documentSymbol", ["textDocument": document])["result"] as? [[String: Any]])
        #expect(symbols.compactMap { $0["name"] as? String } == ["amount", "tariffs", "done", "edit", "total"])
    }

    @Test func aChangedNestedFlowMakesItsOpenParentStale() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let child = "flowkit: 1\nflow: child\nstart: a\nsteps:\n  a: { next: done }\n  done: { kind: finish }\n"
        let parent = "flowkit: 1\nflow: parent\nstart: sub\nevents: { done: }\nsteps:\n  sub: { kind: flow, flow: child.yaml, on: { done: end } }\n  end: { kind: finish }\n"
        try child.write(toFile: root + "/child.yaml", atomically: true, encoding: .utf8)
        try parent.write(toFile: root + "/parent.yaml", atomically: true, encoding: .utf8)
        let client = TestClient()
        try client.initialize(root: root)
        #expect(try client.open(root + "/parent.yaml").isEmpty)
        _ = try client.open(root + "/child.yaml")
        // The child (unsaved) gains an outcome the parent does not handle: the parent's diagnostics say so.
        let published = try client.notify("textDocument/didChange", ["textDocument": ["uri": client.uri(root + "/child.yaml"), "version": 2],
                                                                     "contentChanges": [["text": child.replacingOccurrences(of: "a: { next: done }", with: "a: { next: done, on: { quit: gone } }\n  gone: { kind: finish }")
                                                                                        .replacingOccurrences(of: "start: a\n", with: "start: a\nevents: { quit: }\n")]]])
        let parentDiagnostics = TestClient.diagnostics(in: published, for: client.uri(root + "/parent.yaml"))
        #expect(parentDiagnostics.map { $0["code"] as? String } == ["unhandled_outcome"], "\(parentDiagnostics)")
    }

    @Test func aChangeReachesTheParentsAndScriptsOnDisk() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let child = "flowkit: 1\nflow: child\nstart: a\nsteps:\n  a: { next: done }\n  done: { kind: finish }\n"
        let parent = "flowkit: 1\nflow: parent\nstart: sub\nevents: { done: }\nsteps:\n  sub: { kind: flow, flow: child.yaml, on: { done: end } }\n  end: { kind: finish }\n"
        let script = "flowkit-script: 1\nflow: child.yaml\nscenarios:\n  - name: one\n    steps:\n      - a: {}\n"
        try child.write(toFile: root + "/child.yaml", atomically: true, encoding: .utf8)
        try parent.write(toFile: root + "/parent.yaml", atomically: true, encoding: .utf8)
        try script.write(toFile: root + "/child.script.yaml", atomically: true, encoding: .utf8)
        let client = TestClient()
        try client.initialize(root: root)
        // Only the child is open; its parent and its script are files.
        let opened = try client.notify("textDocument/didOpen", ["textDocument": ["uri": client.uri(root + "/child.yaml"), "languageId": "yaml", "version": 1, "text": child]])
        #expect(TestClient.diagnostics(in: opened, for: client.uri(root + "/parent.yaml")).isEmpty)
        // Step 'a' renamed to 'b' in the unsaved child: the parent on disk is still fine, the script names a step
        // that is gone.
        let edited = child.replacingOccurrences(of: "start: a", with: "start: b").replacingOccurrences(of: "  a: {", with: "  b: {")
        let published = try client.notify("textDocument/didChange", ["textDocument": ["uri": client.uri(root + "/child.yaml"), "version": 2],
                                                                     "contentChanges": [["text": edited]]])
        let scriptDiagnostics = TestClient.diagnostics(in: published, for: client.uri(root + "/child.script.yaml"))
        #expect(scriptDiagnostics.map { $0["code"] as? String } == ["script"], "\(published)")
        #expect(published.contains { (($0["params"] as? [String: Any])?["uri"] as? String) == client.uri(root + "/parent.yaml") })
    }

    @Test func aNestedFlowChangedOnDiskReachesItsOpenParent() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let child = "flowkit: 1\nflow: child\nstart: a\nsteps:\n  a: { next: done }\n  done: { kind: finish }\n"
        let parent = "flowkit: 1\nflow: parent\nstart: sub\nevents: { done: }\nsteps:\n  sub: { kind: flow, flow: child.yaml, on: { done: end } }\n  end: { kind: finish }\n"
        try child.write(toFile: root + "/child.yaml", atomically: true, encoding: .utf8)
        try parent.write(toFile: root + "/parent.yaml", atomically: true, encoding: .utf8)
        let client = TestClient()
        try client.initialize(root: root)
        #expect(try client.open(root + "/parent.yaml").isEmpty)
        // The child, not open, changes on disk (another tool wrote it): the editor says so, the parent is linted again.
        try child.replacingOccurrences(of: "start: a\n", with: "start: a\nevents: { quit: }\n")
            .replacingOccurrences(of: "a: { next: done }", with: "a: { next: done, on: { quit: gone } }\n  gone: { kind: finish }")
            .write(toFile: root + "/child.yaml", atomically: true, encoding: .utf8)
        let published = try client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": client.uri(root + "/child.yaml"), "type": 2]]])
        #expect(TestClient.diagnostics(in: published, for: client.uri(root + "/parent.yaml")).map { $0["code"] as? String } == ["unhandled_outcome"], "\(published)")
    }

    @Test func renamingAnOutcomeRenamesItInTheParents() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let child = "flowkit: 1\nflow: child\nstart: a\nevents: { quit: }\nsteps:\n  a: { on: { quit: cancelled }, next: done }\n  done: { kind: finish }\n  cancelled: { kind: finish }\n"
        let parent = "flowkit: 1\nflow: parent\nstart: sub\nevents: { done: , cancelled: }\nsteps:\n  sub: { kind: flow, flow: child.yaml, on: { done: end, cancelled: end } }\n  end: { kind: finish }\n"
        try child.write(toFile: root + "/child.yaml", atomically: true, encoding: .utf8)
        try parent.write(toFile: root + "/parent.yaml", atomically: true, encoding: .utf8)
        let client = TestClient()
        try client.initialize(root: root)
        #expect(try client.open(root + "/child.yaml").isEmpty)
        // 'cancelled' (line 7) is a finish step, the flow's outcome: its references reach the parent's handler.
        let references = try #require(try client.request("textDocument/references", ["textDocument": ["uri": client.uri(root + "/child.yaml")], "position": at(7, 3),
                                                                                     "context": ["includeDeclaration": true]])["result"] as? [[String: Any]])
        #expect(references.filter { $0["uri"] as? String == client.uri(root + "/parent.yaml") }.count == 1, "\(references)")
        // Renamed, the parent's handler and declaration follow.
        let rename = try #require(try client.request("textDocument/rename", ["textDocument": ["uri": client.uri(root + "/child.yaml")], "position": at(7, 3),
                                                                            "newName": "aborted"])["result"] as? [String: Any])
        let changes = try #require(rename["changes"] as? [String: [[String: Any]]])
        #expect(changes[client.uri(root + "/child.yaml")]?.count == 2)
        #expect(changes[client.uri(root + "/parent.yaml")]?.count == 2)
        // A parent that raises the event at a step of its own too is not changed behind its back: refused.
        let raising = parent.replacingOccurrences(of: "  end: { kind: finish }", with: "  end: { on: { cancelled: sub }, next: over }\n  over: { kind: finish }")
        try raising.write(toFile: root + "/parent.yaml", atomically: true, encoding: .utf8)
        let refused = try client.request("textDocument/rename", ["textDocument": ["uri": client.uri(root + "/child.yaml")], "position": at(7, 3), "newName": "aborted"])
        #expect(((refused["error"] as? [String: Any])?["message"] as? String)?.contains("rename it there first") == true)
    }

    @Test func aScriptsStepNamesLeadToTheFlowsSteps() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let child = "flowkit: 1\nflow: child\nstart: ask\nsteps:\n  ask: { result: { v: int }, next: done }\n  done: { kind: finish }\n"
        let parent = "flowkit: 1\nflow: parent\nstart: sub\nevents: { done: }\nsteps:\n  sub: { kind: flow, flow: child.yaml, on: { done: end } }\n  end: { kind: finish }\n"
        let script = "flowkit-script: 1\nflow: parent.yaml\nscenarios:\n  - name: one\n    steps:\n      - sub/ask: { result: { v: 1 } }\n"
        try child.write(toFile: root + "/child.yaml", atomically: true, encoding: .utf8)
        try parent.write(toFile: root + "/parent.yaml", atomically: true, encoding: .utf8)
        try script.write(toFile: root + "/one.script.yaml", atomically: true, encoding: .utf8)
        let client = TestClient()
        try client.initialize(root: root)
        #expect(try client.open(root + "/one.script.yaml").isEmpty)
        let document = ["uri": client.uri(root + "/one.script.yaml")]
        // 'sub' (line 5, from character 8) is the parent's step; 'ask' after the slash the child's.
        let sub = try #require(try client.request("textDocument/definition", ["textDocument": document, "position": at(5, 9)])["result"] as? [String: Any])
        #expect(sub["uri"] as? String == client.uri(root + "/parent.yaml") && (sub["range"] as? [String: [String: Int]])?["start"] == at(5, 2))
        let ask = try #require(try client.request("textDocument/definition", ["textDocument": document, "position": at(5, 13)])["result"] as? [String: Any])
        #expect(ask["uri"] as? String == client.uri(root + "/child.yaml") && (ask["range"] as? [String: [String: Int]])?["start"] == at(4, 2))
        // Completion of a new step line gives the flow's steps.
        _ = try client.change(root + "/one.script.yaml", text: script + "      - ", version: 2)
        let items = try #require((try client.request("textDocument/completion", ["textDocument": document, "position": at(6, 8)])["result"] as? [String: Any])?["items"] as? [[String: Any]])
        #expect(Set(items.compactMap { $0["label"] as? String }) == ["sub", "end"])
    }

    /// Applies protocol edits (one line each) to `text`.
    static func apply(_ edits: [[String: Any]], to text: String) -> String {
        var lines = text.components(separatedBy: "\n").map { Array($0.utf16) }
        let sorted = edits.sorted { a, b in
            let x = (a["range"] as! [String: [String: Int]])["start"]!, y = (b["range"] as! [String: [String: Int]])["start"]!
            return (x["line"]!, x["character"]!) > (y["line"]!, y["character"]!)
        }
        for edit in sorted {
            let range = edit["range"] as! [String: [String: Int]]
            let (line, start, end) = (range["start"]!["line"]!, range["start"]!["character"]!, range["end"]!["character"]!)
            while lines.count <= line { lines.append([]) }
            let inserted = Array((edit["newText"] as! String).utf16)
            lines[line].replaceSubrange(start..<end, with: inserted)
        }
        return lines.map { String(decoding: $0, as: UTF16.self) }.joined(separator: "\n")
    }

    @Test func quickFixesDeclareAnEventAndGuardAnOption() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let flows = [
            "flow.yaml": "flowkit: 1\nflow: x\nstart: a\nevents: { go: }\nsteps:\n  a: { on: { go: done, stop: done }, next: done }\n  done: { kind: finish }\n",
            "block.yaml": "flowkit: 1\nflow: x\nstart: a\nevents:\n  go:\nsteps:\n  a: { on: { go: done, stop: done }, next: done }\n  done: { kind: finish }\n",
            "none.yaml": "flowkit: 1\nflow: x\nstart: a\nsteps:\n  a: { on: { stop: done }, next: done }\n  done: { kind: finish }\n",
            "obj.json": "{\"flowkit\": 1, \"flow\": \"x\", \"start\": \"a\", \"events\": {\"go\": null},\n \"steps\": {\"a\": {\"on\": {\"go\": \"done\", \"stop\": \"done\"}, \"next\": \"done\"}, \"done\": {\"kind\": \"finish\"}}}\n",
            "guard.yaml": "flowkit: 1\nflow: x\nstart: a\nstate: { note: string? }\ninputs: [note]\nsteps:\n  a:\n    next:\n      - { forward: done, if: \"state.note + 'x' == 'ax'\" }\n      - done\n  done: { kind: finish }\n",
            "key.yaml": "flowkit: 1\nflow: x\nstart: a\nstate:\n  note: string?\nsteps:\n  a: { result: { n: int }, set: { count: \"result.n + 1\" }, next: done }\n  done: { kind: finish }\n",
            "key.json": "{\"flowkit\": 1, \"flow\": \"x\", \"start\": \"a\", \"state\": {},\n \"steps\": {\"a\": {\"result\": {\"n\": \"int\"}, \"set\": {\"count\": \"result.n\"}, \"next\": \"done\"}, \"done\": {\"kind\": \"finish\"}}}\n",
        ]
        let client = TestClient()
        try client.initialize(root: root)
        for (name, text) in flows.sorted(by: { $0.key < $1.key }) {
            let path = root + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let diagnostics = try client.open(path)
            let rule = name == "guard.yaml" ? "maybe_null" : name.hasPrefix("key") ? "undeclared_state" : "undeclared_event"
            let target = try #require(diagnostics.first { $0["code"] as? String == rule }, "\(name): \(diagnostics)")
            let actions = try #require(try client.request("textDocument/codeAction", ["textDocument": ["uri": client.uri(path)], "range": ["start": at(0, 0), "end": at(50, 0)],
                                                                                      "context": ["diagnostics": [target]]])["result"] as? [[String: Any]])
            let title = name == "guard.yaml" ? "guard the option" : name.hasPrefix("key") ? "declare 'count' in 'state' as int" : "declare 'stop'"
            let action = try #require(actions.first { ($0["title"] as? String)?.hasPrefix(title) == true }, "\(name): \(actions)")
            let edits = try #require(((action["edit"] as? [String: Any])?["changes"] as? [String: [[String: Any]]])?[client.uri(path)])
            let fixed = Self.apply(edits, to: text)
            // The fixed text reads back without the finding (and with no other finding of its rule).
            let after = try client.change(path, text: fixed, version: 2)
            #expect(!after.contains { $0["code"] as? String == rule } && !after.contains { $0["code"] as? String == "syntax" || $0["code"] as? String == "schema" },
                    "\(name): \(fixed)\n\(after)")
        }
    }

    /// The insertion fixes where they must not be made (through an anchor) and where they must keep the file's
    /// ways (its line breaks, the comments above the next key): issue 32's second review.
    @Test func insertionFixesKeepTheFilesWays() throws {
        func document(_ name: String, _ text: String) -> EditorDocument {
            EditorDocument(uri: "file:///tmp/" + name, path: "/tmp/" + name, version: 1, text: text)
        }
        // A `state` with an anchor that a step's result aliases: declaring a key there would change the result too.
        let anchored = document("a.yaml", "flowkit: 1\nflow: x\nstart: a\nstate: &s\n  note: string?\nsteps:\n  a:\n    result: *s\n    set: { count: \"1 + 1\" }\n    next: done\n  done: { kind: finish }\n")
        #expect(InsertionFixes.declaringStateKey("count", type: "int", in: anchored) == nil)
        // A condition with an anchor, aliased elsewhere: no guard.
        let condition = document("c.yaml", "flowkit: 1\nflow: x\nstart: a\nstate: { note: string?, flag: bool? }\ninputs: [note]\nsteps:\n  a:\n    next:\n      - { forward: b, if: &c \"state.note + 'x' == 'ax'\" }\n      - b\n  b: { result: { n: int }, set: { flag: *c }, next: done }\n  done: { kind: finish }\n")
        let source = try #require(condition.loaded.flow?.steps.first?.next?.first?.condition)
        #expect(InsertionFixes.guarding(source, with: "state.note", in: condition) == nil)
        // CRLF kept, and the line goes after the last entry, above the comment that belongs to 'steps'.
        let crlf = document("r.yaml", "flowkit: 1\r\nflow: x\r\nstart: a\r\nevents:\r\n  go:\r\n\r\n# the steps\r\nsteps:\r\n  a: { on: { go: done, stop: done }, next: done }\r\n  done: { kind: finish }\r\n")
        let edit = try #require(InsertionFixes.declaringEvent("stop", in: crlf))
        let fixed = String(decoding: FixEdits.apply([edit], to: crlf.bytes), as: UTF8.self)
        #expect(fixed.contains("  go:\r\n  stop:\r\n\r\n# the steps\r\nsteps:"), "\(fixed.debugDescription)")
        // A comment at the start of a line inside a flow mapping, with a quote in it.
        let comment = document("m.yaml", "flowkit: 1\nflow: x\nstart: a\nevents: {\n# it's\n  go: }\nsteps:\n  a: { on: { go: done, stop: done }, next: done }\n  done: { kind: finish }\n")
        #expect(InsertionFixes.declaringEvent("stop", in: comment) != nil)
        // A single-quoted value with a quote in it is one token.
        let quoted = document("q.yaml", "start: 'to''w'\n")
        #expect(quoted.tokenRange(at: SourcePosition(line: 1, column: 8)) == LSPRange(start: LSPPosition(line: 0, character: 7), end: LSPPosition(line: 0, character: 14)))
    }

    @Test func errorsFollowTheProtocol() throws {
        let client = TestClient()
        let early = try client.send(["jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": [String: Any]()])
        #expect((early.first?["error"] as? [String: Any])?["code"] as? Int == -32002)
        try client.initialize(root: NSTemporaryDirectory())
        let unknown = try client.send(["jsonrpc": "2.0", "id": 2, "method": "flowkit/nothing"])
        #expect((unknown.first?["error"] as? [String: Any])?["code"] as? Int == -32601)
        let invalid = try client.send(["jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": ["textDocument": 7]])
        #expect((invalid.first?["error"] as? [String: Any])?["code"] as? Int == -32602)
        let garbage = try client.raw(Data("{not json".utf8))
        #expect((garbage.first?["error"] as? [String: Any])?["code"] as? Int == -32700)
        #expect(garbage.first?["id"] is NSNull)
        // Notifications never get a reply, even unknown ones.
        #expect(try client.send(["jsonrpc": "2.0", "method": "flowkit/unknown"]).isEmpty)
        try client.request("shutdown")
        let late = try client.send(["jsonrpc": "2.0", "id": 9, "method": "textDocument/hover", "params": [String: Any]()])
        #expect((late.first?["error"] as? [String: Any])?["code"] as? Int == -32600)
        _ = try client.send(["jsonrpc": "2.0", "method": "exit"])
        #expect(client.server.exitStatus == 0)
    }

    /// What a client may send that the server must survive (issue 32's review): positions of any size, documents
    /// that are not flows, names written with escapes or through anchors, a root that is a prefix of another folder.
    @Test func hostileRequestsGetAnswers() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let client = TestClient()
        try client.initialize(root: root)
        let again = try client.request("initialize", ["capabilities": [String: Any]()])
        #expect((again["error"] as? [String: Any])?["code"] as? Int == -32600)
        let path = root + "/t.yaml"
        #expect(try client.open(path, text: Self.flow).count == 1)
        let document = ["uri": client.uri(path)]
        for line in [Int.max, Int.min, 100_000_000, -1] {
            for method in ["textDocument/hover", "textDocument/definition", "textDocument/completion", "textDocument/references", "textDocument/prepareRename"] {
                let reply = try client.request(method, ["textDocument": document, "position": ["line": line, "character": line], "context": ["includeDeclaration": true]])
                #expect(reply["result"] != nil || reply["error"] != nil, "\(method) at \(line)")
            }
        }
        // A YAML document that is not a flow (a CI workflow) gets no diagnostics.
        #expect(try client.open(root + "/ci.yaml", text: "on: push\njobs: { build: { runs-on: ubuntu } }\n").isEmpty)
        // A name written with an escape, and one behind an anchor: renaming them is refused, not half done.
        let escaped = "{\"flowkit\": 1, \"flow\": \"x\", \"start\": \"\\u006fne\", \"steps\": {\"one\": {\"next\": \"done\"}, \"done\": {\"kind\": \"finish\"}}}\n"
        _ = try client.open(root + "/e.json", text: escaped)
        let refused = try client.request("textDocument/rename", ["textDocument": ["uri": client.uri(root + "/e.json")], "position": at(0, 61), "newName": "first"])
        #expect(((refused["error"] as? [String: Any])?["message"] as? String)?.contains("escapes") == true, "\(refused)")
        let anchored = "flowkit: 1\nflow: x\nstart: one\nsteps:\n  one: { next: &t two }\n  three: { next: *t }\n  two: { kind: finish }\n"
        _ = try client.open(root + "/a.yaml", text: anchored)
        let viaAnchor = try client.request("textDocument/rename", ["textDocument": ["uri": client.uri(root + "/a.yaml")], "position": at(6, 3), "newName": "done"])
        #expect(((viaAnchor["error"] as? [String: Any])?["message"] as? String)?.contains("anchor") == true, "\(viaAnchor)")
        // A root that is a prefix of the document's folder's name is not that folder.
        #expect(!LanguageServer.contains(root, root + "x/parent.yaml") && LanguageServer.contains(root, root + "/sub/parent.yaml"))
    }

    @Test func linesEndAsTheProtocolSays() throws {
        // A lone CR ends a line for the protocol and for lint; U+2028 ends one for lint's YAML reader only.
        let document = EditorDocument(uri: "file:///x.yaml", path: "/x.yaml", version: 1, text: "a: 1\rb: 'x\u{2028}y' # c\n😀😀: z\n")
        #expect(document.lspPosition(SourcePosition(line: 2, column: 1)) == LSPPosition(line: 1, character: 0))
        // Line 3 to lint is 'y' # c' after the separator: on the protocol's line 1, after 'b: 'x' and the separator.
        #expect(document.lspPosition(SourcePosition(line: 3, column: 1)) == LSPPosition(line: 1, character: 6))
        #expect(document.sourcePosition(LSPPosition(line: 1, character: 6)) == SourcePosition(line: 3, column: 1))
        #expect(document.lspPosition(SourcePosition(line: 4, column: 3)) == LSPPosition(line: 2, character: 4))
        #expect(document.tokenRange(at: SourcePosition(line: 4, column: 3)) == LSPRange(start: LSPPosition(line: 2, character: 4), end: LSPPosition(line: 2, character: 5)))
    }

    @Test func framesAreReadWhateverTheChunks() throws {
        let bodies = [#"{"jsonrpc":"2.0","id":1,"method":"a"}"#, #"{"jsonrpc":"2.0","method":"é"}"#]
        var stream: [UInt8] = []
        for body in bodies { stream += Array("Content-Length: \(body.utf8.count)\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n".utf8) + Array(body.utf8) }
        // Fed one byte at a time, then all at once: the same two bodies.
        for chunk in [1, stream.count] {
            var reader = JSONRPC.Reader()
            var frames: [JSONRPC.Reader.Frame] = []
            var index = 0
            while index < stream.count {
                reader.feed(stream[index..<min(stream.count, index + chunk)])
                index += chunk
                while let frame = reader.next() { frames.append(frame) }
            }
            #expect(frames == bodies.map { .body(Data($0.utf8)) })
        }
        // A header without a length, then a good frame: an error, then the frame.
        var reader = JSONRPC.Reader()
        reader.feed(Array("X-Nothing: 1\r\n\r\nContent-Length: 2\r\n\r\n{}".utf8))
        #expect(reader.next() == .malformed("a message without a valid Content-Length header"))
        #expect(reader.next() == .body(Data("{}".utf8)))
        // A body over the limit is dropped, and the next frame read.
        reader.feed(Array("Content-Length: \(JSONRPC.maxBody + 1)\r\n\r\n".utf8))
        #expect(reader.next() == .malformed("a message of \(JSONRPC.maxBody + 1) bytes, more than \(JSONRPC.maxBody)"))
        reader.feed([UInt8](repeating: 32, count: JSONRPC.maxBody + 1))
        reader.feed(Array("Content-Length: 2\r\n\r\n{}".utf8))
        #expect(reader.next() == .body(Data("{}".utf8)))
    }

    @Test func positionsAreUTF16() throws {
        let document = EditorDocument(uri: "file:///x.yaml", path: "/x.yaml", version: 1, text: "a: 'é😀x'\n")
        // Column 7 (scalars: a, :, space, ', é, 😀, x) is 'x': UTF-16 offset 7 (the emoji is two code units).
        #expect(document.lspPosition(SourcePosition(line: 1, column: 7)) == LSPPosition(line: 0, character: 7))
        #expect(document.sourcePosition(LSPPosition(line: 0, character: 7)) == SourcePosition(line: 1, column: 7))
        #expect(document.tokenRange(at: SourcePosition(line: 1, column: 4)) == LSPRange(start: LSPPosition(line: 0, character: 3), end: LSPPosition(line: 0, character: 9)))
    }
}
