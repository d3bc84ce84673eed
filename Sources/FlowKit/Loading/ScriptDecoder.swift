/// Checks a document against the script format and builds the `Script` model, reporting `script` findings.
package struct ScriptDecoder {
    private let file: String
    private var diagnostics: [Diagnostic] = []

    private init(file: String) {
        self.file = file
    }

    /// Decodes `root`, the document of the script `file`; nil when the scenarios cannot be read at all.
    package static func decode(_ root: Node, file: String) -> (script: Script?, diagnostics: [Diagnostic]) {
        var decoder = ScriptDecoder(file: file)
        let script = decoder.script(root)
        return (script, decoder.diagnostics)
    }

    private mutating func report(_ message: Message, at position: SourcePosition) {
        diagnostics.append(Diagnostic(file: file, position: position, severity: .error, rule: .script, message: message.text))
    }

    private mutating func checkKeys(_ node: Node, _ allowed: [String], in context: String) {
        for entry in node.entries ?? [] where !allowed.contains(entry.key) {
            report("unknown key '\(name: entry.key)' in \(verbatim: context)\(verbatim: Suggestions.didYouMean(entry.key, in: allowed))", at: entry.keyPosition)
        }
    }

    private mutating func script(_ root: Node) -> Script? {
        guard root.entries != nil else {
            report("a script must be a mapping with 'flowkit-script' and 'scenarios'", at: root.position)
            return nil
        }
        checkKeys(root, ["flowkit-script", "flow", "scenarios"], in: "the script")
        if let version = root["flowkit-script"], version.scalar?.kind != .int(1) {
            report("unsupported script version '\(name: version.scalar?.text ?? version.kindDescription)'; this flowkit reads version 1", at: version.position)
        }
        var flow: String?
        if let node = root["flow"] {
            if let scalar = node.scalar, scalar.kind != .null { flow = scalar.text } else { report("'flow' must be a path to the flow file", at: node.position) }
        }
        guard let list = root["scenarios"] else {
            report("the script has no 'scenarios'", at: root.position)
            return nil
        }
        guard let items = list.items else {
            report("'scenarios' must be a list, found \(verbatim: list.kindDescription)", at: list.position)
            return nil
        }
        var scenarios: [Scenario] = []
        var names = Set<String>()
        for item in items {
            guard let scenario = scenario(item) else { continue }
            if !names.insert(scenario.name).inserted { report("two scenarios are named '\(path: scenario.name)'", at: item.position) }
            scenarios.append(scenario)
        }
        return Script(file: file, flow: flow, flowPosition: root["flow"]?.position, scenarios: scenarios)
    }

    private mutating func scenario(_ node: Node) -> Scenario? {
        guard node.entries != nil else {
            report("a scenario must be a mapping with 'name' and 'steps', found \(verbatim: node.kindDescription)", at: node.position)
            return nil
        }
        checkKeys(node, ["name", "start", "steps", "expect"], in: "a scenario")
        guard let nameNode = node["name"], let name = nameNode.scalar?.text, !name.isEmpty else {
            report("a scenario needs a 'name'", at: node.position)
            return nil
        }
        var start = Scenario.Start.state([:])
        var startPositions: [String: SourcePosition] = [:]
        if let startNode = node["start"] {
            for entry in startNode["state"]?.entries ?? [] { startPositions["state." + entry.key] = entry.value.position }
            for entry in startNode["params"]?.entries ?? [] { startPositions["params." + entry.key] = entry.value.position }
            checkKeys(startNode, ["state", "entry", "params", "url"], in: "'start' of scenario '\(name)'")
            let state = startNode["state"].flatMap { values($0, what: "'state'") } ?? [:]
            if let urlNode = startNode["url"] {
                guard let link = urlNode.scalar?.text, urlNode.scalar?.kind != .null else {
                    report("'url' must be a link's path, such as \"/transfer/500/tariffs\"", at: urlNode.position)
                    return nil
                }
                if startNode["entry"] != nil || startNode["params"] != nil {
                    report("'url' names the entry and its parameters: give it without 'entry' or 'params'", at: urlNode.position)
                }
                start = .url(Name(link, at: urlNode.position), state: state)
            } else if let entryNode = startNode["entry"] {
                guard let entry = entryNode.scalar?.text else {
                    report("'entry' must be an entry name", at: entryNode.position)
                    return nil
                }
                var params: [String: String] = [:]
                for param in startNode["params"]?.entries ?? [] {
                    guard let scalar = param.value.scalar, scalar.kind != .null else {
                        report("path parameter '\(name: param.key)' must be text", at: param.value.position)
                        continue
                    }
                    params[param.key] = scalar.text
                }
                start = .entry(Name(entry, at: entryNode.position), params: params, state: state)
            } else {
                if let params = startNode["params"] { report("'params' goes with 'entry'", at: params.position) }
                start = .state(state)
            }
        }
        var steps: [ScriptStep] = []
        if let stepsNode = node["steps"] {
            guard let items = stepsNode.items else {
                report("'steps' of scenario '\(path: name)' must be a list, found \(verbatim: stepsNode.kindDescription)", at: stepsNode.position)
                return nil
            }
            for item in items {
                guard let entries = item.entries, entries.count == 1, let entry = entries.first else {
                    report("each step is a mapping of one step name to how it completes, e.g. '- amount: { result: { amount: 50 } }'", at: item.position)
                    continue
                }
                var event: Name?
                var result: [String: Value]?
                var back = false
                var positions: ScriptStep.ResultPositions?
                if entry.value.entries != nil {
                    checkKeys(entry.value, ["event", "result", "back"], in: "step '\(entry.key)'")
                    if let backNode = entry.value["back"] {
                        if backNode.scalar?.kind == .bool(true) {
                            back = true
                            if entry.value.entries!.count > 1 {
                                report("step '\(name: entry.key)' goes back with the back button: it takes no 'event' or 'result' as well", at: backNode.position)
                            }
                        } else {
                            report("'back' must be true (the back button), found \(verbatim: backNode.kindDescription)", at: backNode.position)
                        }
                    }
                    if let eventNode = entry.value["event"] {
                        if let text = eventNode.scalar?.text, eventNode.scalar?.kind != .null { event = Name(text, at: eventNode.position) } else {
                            report("'event' must be an event name", at: eventNode.position)
                        }
                    }
                    if let resultNode = entry.value["result"] {
                        if let keys = resultNode.entries {
                            result = values(resultNode, what: "'result'")
                            positions = ScriptStep.ResultPositions(result: resultNode.position, keys: Dictionary(
                                keys.map { ($0.key, (key: $0.keyPosition, value: $0.value.position)) }, uniquingKeysWith: { first, _ in first }))
                        } else {
                            report("'result' must be a mapping of result keys to values", at: resultNode.position)
                        }
                    }
                } else if entry.value.scalar?.kind != .null {
                    report("step '\(name: entry.key)' completes with a mapping of 'event' and 'result' (or {})", at: entry.value.position)
                }
                steps.append(ScriptStep(step: Name(entry.key, at: entry.keyPosition), event: event, result: result, back: back, resultPositions: positions))
            }
        }
        var expect: Expectation?
        if let expectNode = node["expect"] {
            checkKeys(expectNode, ["outcome", "path", "state"], in: "'expect'")
            let outcome = expectNode["outcome"].flatMap { $0.scalar.map { scalar in Name(scalar.text, at: expectNode["outcome"]!.position) } }
            var path: [Name]?
            if let pathNode = expectNode["path"] {
                if let items = pathNode.items {
                    path = items.compactMap { item in item.scalar.map { Name($0.text, at: item.position) } }
                } else {
                    report("'path' must be a list of step names", at: pathNode.position)
                }
            }
            var state: [(key: Name, value: Value)] = []
            for entry in expectNode["state"]?.entries ?? [] {
                if let value = value(entry.value) { state.append((Name(entry.key, at: entry.keyPosition), value)) }
            }
            expect = Expectation(outcome: outcome, path: path, state: state)
        }
        return Scenario(name: name, position: nameNode.position, start: start, steps: steps, expect: expect, startPositions: startPositions)
    }

    private mutating func values(_ node: Node, what: String) -> [String: Value]? {
        guard let entries = node.entries else {
            report("\(verbatim: what) must be a mapping, found \(verbatim: node.kindDescription)", at: node.position)
            return nil
        }
        var result: [String: Value] = [:]
        for entry in entries {
            if let value = value(entry.value) { result[entry.key] = value }
        }
        return result
    }

    /// A document node as a flow value; a list inside it is reported and left out.
    private mutating func value(_ node: Node) -> Value? {
        var lists: [Node] = []
        let value = node.flowValue { lists.append($0) }
        for list in lists { report("lists are not flow values", at: list.position) }
        return value
    }

}

extension Node {
    /// The node as a flow value: scalars by kind, mappings as objects. Lists are not flow values: each is given to
    /// `list` and left out (a list at the top gives nil).
    package func flowValue(list: (Node) -> Void) -> FlowKit.Value? {
        switch value {
        case .scalar(let scalar):
            switch scalar.kind {
            case .null: return .null
            case .bool(let flag): return .bool(flag)
            case .int(let number): return .int(number)
            case .number(let number): return .number(number)
            case .string: return .string(scalar.text)
            }
        case .mapping(let entries):
            var object: [String: FlowKit.Value] = [:]
            for entry in entries {
                if let value = entry.value.flowValue(list: list) { object[entry.key] = value }
            }
            return .object(object)
        case .sequence:
            list(self)
            return nil
        }
    }
}
