/// Checks a document tree against the flow format and builds the `Flow` model, reporting `schema` findings.
///
/// The decoder never stops at the first problem: it reports every one it can see and keeps what is well formed.
/// It returns no flow only when a required key (`flowkit`, `flow`, `start`, `steps`) is missing or unusable.
package struct FlowDecoder {
    /// The keys every flow has; a mapping with none of them is not taken for a flow.
    static let requiredKeys: Set<String> = ["flowkit", "flow", "start", "steps"]
    /// The keys a flow document may have at its top level.
    static let topLevelKeys = ["flowkit", "flow", "title", "description", "start", "state", "inputs", "events", "entries", "steps", "$schema"]
    /// The keys a step may have.
    static let stepKeys = ["kind", "title", "description", "result", "set", "on", "next", "outcome", "flow", "input", "lint"]
    /// The keys the `"*"` step may have.
    static let anyStepKeys = ["on", "next"]
    /// The keys a target written as a mapping may have.
    static let targetKeys = ["forward", "back", "restart", "if", "set"]
    /// The keys of a target's move, of which it has exactly one.
    static let moveKeys = ["forward", "back", "restart"]
    /// The keys of an entry.
    static let entryKeys = ["step", "path", "entry"]
    /// The scalar type names.
    package static let typeNames = ["int", "number", "string", "bool"]

    private let file: String
    private var diagnostics: [Diagnostic] = []
    /// The result shapes being decoded around the current one (the `result` mapping is the first).
    private var shapeDepth = 0

    /// The deepest a step's result shapes nest, the `result` mapping included (docs/format.md, "Limits"): it bounds
    /// the recursion of every pass over a result's type, some of which run on worker threads with small stacks.
    package static let maxShapeDepth = 32

    private init(file: String) {
        self.file = file
    }

    /// Decodes `root`, the document of `file`, into a flow and the `schema` findings met on the way (and the
    /// `undeclared_state` finding of an input that 'state' does not declare).
    package static func decode(_ root: Node, file: String) -> (flow: Flow?, diagnostics: [Diagnostic]) {
        var decoder = FlowDecoder(file: file)
        let flow = decoder.flow(root)
        return (flow, decoder.diagnostics)
    }

    // MARK: - Findings

    private mutating func report(_ message: Message, at position: SourcePosition, step: String? = nil, rule: RuleID = .schema, subject: String? = nil,
                                 fix: Fix? = nil) {
        var diagnostic = Diagnostic(file: file, position: position, severity: .error, rule: rule, step: step, message: message.text, subject: subject)
        diagnostic.fix = fix
        diagnostics.append(diagnostic)
    }

    private mutating func checkKeys(_ entries: [Node.Entry], allowed: [String], in context: @autoclosure () -> String, step: String? = nil) {
        // (A YAML merge key `<<` never gets here: the YAML reader reports it as a `syntax` finding.)
        for entry in entries where !allowed.contains(entry.key) {
            let suggestion = Suggestions.closest(to: entry.key, in: allowed)
            // A fix only where the suggested key is not there already (it would be written twice).
            let fix = suggestion.flatMap { key in entries.contains { $0.key == key } ? nil : Fix(at: entry.keyPosition, replacing: entry.key, with: key) }
            report("unknown key '\(name: entry.key)' in \(verbatim: context())\(verbatim: suggestion.map { "; did you mean '\($0)'?" } ?? "")", at: entry.keyPosition,
                   step: step, fix: fix)
        }
    }

    private mutating func mapping(_ node: Node, _ what: @autoclosure () -> String, step: String? = nil) -> [Node.Entry]? {
        if let entries = node.entries { return entries }
        report("\(verbatim: what()) must be a mapping, found \(verbatim: node.kindDescription)", at: node.position, step: step)
        return nil
    }

    /// A name in a name slot: any scalar's text, which must be an identifier.
    private mutating func nameValue(_ node: Node, _ what: @autoclosure () -> String, step: String? = nil) -> Name? {
        guard let scalar = node.scalar, scalar.kind != .null || scalar.quoted || !scalar.text.isEmpty else {
            report("\(verbatim: what()) must be a name, found \(verbatim: node.kindDescription)", at: node.position, step: step)
            return nil
        }
        return checkedName(scalar.text, at: node.position, what(), step: step)
    }

    private mutating func checkedName(_ text: String, at position: SourcePosition, _ what: @autoclosure () -> String, step: String? = nil) -> Name? {
        guard Identifier.isValid(text) else {
            report("'\(name: text)' is not a valid \(verbatim: what()): names start with an ASCII letter or '_' and go on with letters, digits or '_'", at: position, step: step)
            return nil
        }
        return Name(text, at: position)
    }

    private mutating func text(_ node: Node, _ what: @autoclosure () -> String, step: String? = nil) -> String? {
        if let scalar = node.scalar, scalar.kind != .null { return scalar.text }
        report("\(verbatim: what()) must be text, found \(verbatim: node.kindDescription)", at: node.position, step: step)
        return nil
    }

    private mutating func expression(_ node: Node, _ what: @autoclosure () -> String, step: String? = nil) -> ExpressionSource? {
        guard let scalar = node.scalar else {
            report("\(verbatim: what()) must be an expression (a string, number, boolean or null), found \(verbatim: node.kindDescription)", at: node.position, step: step)
            return nil
        }
        if case .string = scalar.kind { return ExpressionSource(text: scalar.text, position: node.position, quoted: scalar.quoted, raw: scalar.raw) }
        return ExpressionSource(text: scalar.text.isEmpty ? "null" : scalar.text, position: node.position, literal: scalar.kind)
    }

    // MARK: - The flow

    private mutating func flow(_ root: Node) -> Flow? {
        guard let entries = root.entries else {
            report("a flow file must be a mapping with the keys 'flowkit', 'flow', 'start' and 'steps', found \(verbatim: root.kindDescription)", at: root.position)
            return nil
        }
        guard entries.contains(where: { Self.requiredKeys.contains($0.key) }) else {
            report("this is not a flow file: a flow has the top-level keys 'flowkit', 'flow', 'start' and 'steps' (a simulation script has 'flowkit-script')", at: root.position)
            return nil
        }
        checkKeys(entries, allowed: Self.topLevelKeys, in: "the flow")
        var missing: [String] = []
        var complete = true

        var version = 1
        if let node = root["flowkit"] {
            // The version is the number 1; `1.0` is the same number (as JSON Schema's `const` has it).
            var number: Int64?
            switch node.scalar?.kind {
            case .int(let value)?: number = value
            case .number(let value)? where value == value.rounded() && abs(value) < 1e15: number = Int64(value)
            default: number = nil
            }
            if let value = number, !(node.scalar?.quoted ?? true) {
                if value != 1 {
                    report("unsupported format version \(value); this flowkit reads version 1", at: node.position)
                    complete = false
                }
                version = Int(value)
            } else {
                report("'flowkit' must be the format version 1, found \(verbatim: node.kindDescription)", at: node.position)
                complete = false
            }
        } else {
            missing.append("flowkit")
        }

        var flowName: Name?
        if let node = root["flow"] {
            flowName = nameValue(node, "flow name")
            if flowName == nil { complete = false }
        } else {
            missing.append("flow")
        }

        var start: Name?
        if let node = root["start"] {
            start = nameValue(node, "step name")
            if start == nil { complete = false }
        } else {
            missing.append("start")
        }

        let title = root["title"].flatMap { text($0, "'title'") }
        let description = root["description"].flatMap { text($0, "'description'") }
        if let node = root["$schema"] { _ = text(node, "'$schema'") }

        let state = root["state"].map { fieldList($0, what: "'state'", allowObjects: false) } ?? []
        let inputs = root["inputs"].map { inputList($0, state: state) } ?? []
        let events = root["events"].map { eventDeclarations($0) } ?? []
        let entryList = root["entries"].map { flowEntries($0) } ?? []

        var steps: [Step] = []
        var anyStep: Step?
        if let node = root["steps"] {
            if let stepEntries = mapping(node, "'steps'") {
                let decoded = Self.steps(stepEntries, file: file)
                steps = decoded.steps
                anyStep = decoded.anyStep
                diagnostics += decoded.diagnostics
            } else {
                complete = false
            }
        } else {
            missing.append("steps")
        }

        if !missing.isEmpty {
            let list = missing.map { "'\($0)'" }.joined(separator: ", ")
            report("the flow is missing the required key\(verbatim: missing.count == 1 ? "" : "s") \(verbatim: list)", at: root.position)
        }
        guard complete, missing.isEmpty, let flowName, let start else { return nil }
        return Flow(file: file, version: version, name: flowName, title: title, description: description, start: start,
                    state: state, inputs: inputs, events: events, entries: entryList, steps: steps, anyStep: anyStep)
    }

    /// Decodes the entries of 'steps' in order, with the findings in the order of the entries.
    private static func steps(_ entries: [Node.Entry], file: String) -> (steps: [Step], anyStep: Step?, diagnostics: [Diagnostic]) {
        var decoder = FlowDecoder(file: file)
        var steps: [Step] = []
        steps.reserveCapacity(entries.count)
        var anyStep: Step?
        for index in entries.indices {
            let entry = entries[index]
            if entry.key == "*" {
                anyStep = decoder.anyStep(entry)
            } else if let stepName = decoder.checkedName(entry.key, at: entry.keyPosition, "step name") {
                // A step's key (`next: b`) written as a step of its own was indented under the wrong parent: the
                // step above it.
                // (A mapping with none of a step's keys, such as `on: { retry: b }`, is one too.)
                let body = entry.value.entries.map { keys in !keys.contains { Self.stepKeys.contains($0.key) } && !keys.isEmpty }
                    ?? !(entry.value.scalar.map { $0.kind == .null && !$0.quoted } ?? false)
                if Self.stepKeys.contains(entry.key), body, index > 0, entries[index - 1].key != "*" {
                    decoder.report("'\(name: entry.key)' is a key of a step, but here it is a step of its own; is it indented under the wrong parent "
                                   + "(step '\(name: entries[index - 1].key)', above it)?", at: entry.keyPosition, step: entry.key)
                    steps.append(Step(name: stepName))
                    continue
                }
                steps.append(decoder.step(stepName, entry.value))
            }
        }
        return (steps, anyStep, decoder.diagnostics)
    }

    // MARK: - Types

    private mutating func fieldList(_ node: Node, what: @autoclosure () -> String, allowObjects: Bool, step: String? = nil) -> [Field] {
        guard let entries = mapping(node, what(), step: step) else { return [] }
        shapeDepth += 1
        defer { shapeDepth -= 1 }
        var fields: [Field] = []
        for entry in entries {
            guard let key = checkedName(entry.key, at: entry.keyPosition, "key name", step: step) else { continue }
            // A step's key (`next: b`) that ended up among the types was indented under the wrong parent.
            if Self.stepKeys.contains(entry.key), entry.key != "title", entry.key != "description",
               let scalar = entry.value.scalar, !Self.isType(scalar.text) {
                report("'\(name: entry.key)' is a key of a step, not a key with a type ('\(name: scalar.text)' is no type); "
                       + "is it indented under the wrong parent?", at: entry.keyPosition, step: step)
                continue
            }
            if let type = type(entry.value, allowObjects: allowObjects, step: step) {
                fields.append(Field(name: key, type: type))
            }
        }
        return fields
    }

    /// Whether `text` names a scalar type (`int`, `string?`).
    static func isType(_ text: String) -> Bool {
        typeNames.contains(text.hasSuffix("?") ? String(text.dropLast()) : text)
    }

    private mutating func type(_ node: Node, allowObjects: Bool, step: String?) -> TypeRef? {
        switch node.value {
        case .scalar(let scalar):
            var text = scalar.text
            let optional = text.hasSuffix("?")
            if optional { text.removeLast() }
            let base: TypeRef.Base
            switch text {
            case "int": base = .int
            case "number": base = .number
            case "string": base = .string
            case "bool": base = .bool
            default:
                let hint = Suggestions.didYouMean(text, in: Self.typeNames)
                report("unknown type '\(name: scalar.text)'\(verbatim: hint.isEmpty ? "; types are int, number, string, bool (with ? for optional), or a list of values" : hint)", at: node.position, step: step)
                return nil
            }
            return TypeRef(base: base, optional: optional, position: node.position)
        case .sequence(let items):
            var values: [String] = []
            for item in items {
                guard let scalar = item.scalar, case .string = scalar.kind, !scalar.text.isEmpty else {
                    let quote: Message = item.scalar.map { $0.kind != .null && !$0.text.isEmpty ? "; quote it: '\(name: $0.text)'" : "" } ?? ""
                    report("an enum value must be a non-empty string, found \(verbatim: item.kindDescription)\(quote)", at: item.position, step: step)
                    return nil
                }
                if values.contains(scalar.text) {
                    report("enum value '\(name: scalar.text)' is listed twice", at: item.position, step: step)
                } else {
                    values.append(scalar.text)
                }
            }
            guard !values.isEmpty else {
                report("an enum must list at least one value", at: node.position, step: step)
                return nil
            }
            return TypeRef(base: .enumeration(values), optional: false, position: node.position)
        case .mapping:
            guard allowObjects else {
                report("a state type must be int, number, string, bool or a list of values, found a mapping", at: node.position, step: step)
                return nil
            }
            guard shapeDepth < Self.maxShapeDepth else {
                report("a result shape may nest at most \(Self.maxShapeDepth) levels; this one is nested deeper", at: node.position, step: step)
                return nil
            }
            return TypeRef(base: .object(fieldList(node, what: "a result shape", allowObjects: true, step: step)), optional: false, position: node.position)
        }
    }

    /// `inputs`: a list of declared state keys, each once.
    private mutating func inputList(_ node: Node, state: [Field]) -> [Name] {
        guard case .sequence(let items) = node.value else {
            report("'inputs' must be a list of state keys, found \(verbatim: node.kindDescription)", at: node.position)
            return []
        }
        let declared = state.map(\.name.text)
        var names: [Name] = []
        for item in items {
            guard let name = nameValue(item, "state key") else { continue }
            if names.contains(where: { $0.text == name.text }) {
                report("input '\(name: name.text)' is listed twice", at: item.position)
            } else if !declared.contains(name.text) {
                // A reference to 'state', not a question of shape: the JSON Schema cannot see it, so it is not a
                // `schema` finding (docs/format.md, "The JSON Schema").
                report("input '\(name: name.text)' is not a declared state key\(verbatim: Suggestions.didYouMean(name.text, in: declared))", at: item.position,
                       rule: "undeclared_state", subject: name.text)
            } else {
                names.append(name)
            }
        }
        return names
    }

    // MARK: - Events and entries

    private mutating func eventDeclarations(_ node: Node) -> [EventDeclaration] {
        guard let entries = mapping(node, "'events'") else { return [] }
        var events: [EventDeclaration] = []
        for entry in entries {
            guard let eventName = checkedName(entry.key, at: entry.keyPosition, "event name") else { continue }
            if let scalar = entry.value.scalar, scalar.kind == .null, !scalar.quoted {
                events.append(EventDeclaration(name: eventName, expression: nil))
            } else if let source = expression(entry.value, "the expression of event '\(eventName.text)'") {
                events.append(EventDeclaration(name: eventName, expression: source))
            }
        }
        return events
    }

    private mutating func flowEntries(_ node: Node) -> [Entry] {
        guard let entries = mapping(node, "'entries'") else { return [] }
        var result: [Entry] = []
        for entry in entries {
            guard let entryName = checkedName(entry.key, at: entry.keyPosition, "entry name"),
                  let fields = mapping(entry.value, "entry '\(entryName.text)'") else { continue }
            checkKeys(fields, allowed: Self.entryKeys, in: "entry '\(entryName.text)'")
            let stepNode = entry.value["step"]
            let pathNode = entry.value["path"]
            if stepNode == nil || pathNode == nil {
                let missing = [stepNode == nil ? "'step'" : nil, pathNode == nil ? "'path'" : nil].compactMap { $0 }
                report("entry '\(name: entryName.text)' is missing \(verbatim: missing.joined(separator: " and "))", at: entry.keyPosition)
            }
            guard let stepNode, let pathNode,
                  let step = nameValue(stepNode, "step name"),
                  let path = text(pathNode, "the path of entry '\(entryName.text)'") else { continue }
            var nested: Name?
            if let node = entry.value["entry"] {
                nested = nameValue(node, "entry name")
                if nested == nil { continue }
            }
            result.append(Entry(name: entryName, step: step, path: path, pathPosition: pathNode.position, nestedEntry: nested))
        }
        return result
    }

    // MARK: - Steps

    private mutating func anyStep(_ entry: Node.Entry) -> Step? {
        let name = Name("*", at: entry.keyPosition)
        // `"*":` with no value shares nothing, as an empty step says nothing (the schema allows both).
        if let scalar = entry.value.scalar, scalar.kind == .null { return Step(name: name) }
        guard let fields = mapping(entry.value, "step '*'", step: "*") else { return nil }
        for field in fields where !Self.anyStepKeys.contains(field.key) {
            if Self.stepKeys.contains(field.key) {
                report("the '*' step only holds 'on' and 'next'; '\(name: field.key)' belongs on a real step", at: field.keyPosition, step: "*")
            } else {
                report("unknown key '\(name: field.key)' in step '*'\(verbatim: Suggestions.didYouMean(field.key, in: Self.anyStepKeys))", at: field.keyPosition, step: "*")
            }
        }
        return Step(name: name, on: handlers(entry.value["on"], step: "*"), next: entry.value["next"].flatMap { targets($0, step: "*") })
    }

    private mutating func step(_ name: Name, _ node: Node) -> Step {
        let label = name.text
        // Built only for a message (an autoclosure's argument), not for every step.
        func context() -> String { "step '\(label)'" }
        if let scalar = node.scalar, scalar.kind == .null {
            // `finish:` with no value is a screen with nothing to say; it keeps its position for the graph rules.
            return Step(name: name)
        }
        // A step whose body is malformed still exists as a name, so references to it give no second finding.
        guard let fields = mapping(node, context(), step: label) else { return Step(name: name) }
        checkKeys(fields, allowed: Self.stepKeys, in: context(), step: label)

        var kind = StepKind.screen
        if let kindNode = node["kind"] {
            if let scalar = kindNode.scalar, let value = StepKind(rawValue: scalar.text) {
                kind = value
            } else if kindNode.scalar == nil {
                report("a step's 'kind' must be one of screen, action, flow, finish, found \(verbatim: kindNode.kindDescription)", at: kindNode.position, step: label)
            } else {
                let written = kindNode.scalar?.text ?? ""
                report("unknown step kind '\(name: written)'\(verbatim: Suggestions.didYouMean(written, in: StepKind.allCases.map(\.rawValue)).nilIfEmpty ?? "; kinds are screen, action, flow, finish")", at: kindNode.position, step: label)
            }
        }
        var step = Step(name: name, kind: kind)
        step.title = node["title"].flatMap { text($0, "the title of \(context())", step: label) }
        step.description = node["description"].flatMap { text($0, "the description of \(context())", step: label) }
        step.result = node["result"].map { fieldList($0, what: "the result of \(context())", allowObjects: true, step: label) }
        step.set = node["set"].map { assignments($0, what: "'set' of \(context())", step: label) } ?? []
        step.on = handlers(node["on"], step: label)
        step.next = node["next"].flatMap { targets($0, step: label) }

        if let outcomeNode = node["outcome"] {
            if kind == .finish {
                step.outcome = nameValue(outcomeNode, "outcome name", step: label)
            } else {
                report("'outcome' only applies to finish steps; add 'kind: finish' to \(verbatim: context()) or remove it", at: fields.first { $0.key == "outcome" }!.keyPosition, step: label)
            }
        }
        if let flowNode = node["flow"] {
            if kind == .flow {
                step.flowPath = text(flowNode, "the nested flow of \(context())", step: label)
                step.flowPathPosition = flowNode.position
            } else {
                report("'flow' only applies to nested flow steps; add 'kind: flow' to \(verbatim: context())", at: fields.first { $0.key == "flow" }!.keyPosition, step: label)
            }
        } else if kind == .flow {
            report("\(verbatim: context()) is a nested flow step but names no 'flow' file", at: name.position, step: label)
        }
        if let inputNode = node["input"] {
            if kind == .flow {
                step.input = assignments(inputNode, what: "'input' of \(context())", step: label)
            } else {
                report("'input' only applies to nested flow steps; add 'kind: flow' to \(verbatim: context())", at: fields.first { $0.key == "input" }!.keyPosition, step: label)
            }
        }
        if let lintEntry = fields.first(where: { $0.key == "lint" }) {
            step.suppression = suppression(lintEntry, step: label)
        }
        return step
    }

    private mutating func suppression(_ entry: Node.Entry, step: String) -> Suppression? {
        guard let fields = mapping(entry.value, "'lint' of step '\(step)'", step: step) else { return nil }
        checkKeys(fields, allowed: ["allow", "reason"], in: "'lint' of step '\(step)'", step: step)
        var rules: [Name] = []
        if let allow = entry.value["allow"] {
            let items = allow.items ?? [allow]
            for item in items {
                if let scalar = item.scalar, scalar.kind == .string || !scalar.quoted {
                    rules.append(Name(scalar.text, at: item.position))
                } else {
                    report("'allow' lists rule identifiers, found \(verbatim: item.kindDescription)", at: item.position, step: step)
                }
            }
        } else {
            report("'lint' of step '\(name: step)' must list the rules it allows under 'allow'", at: entry.keyPosition, step: step)
        }
        let reason = entry.value["reason"].flatMap { text($0, "'reason'", step: step) }
        return Suppression(rules: rules, reason: reason, position: entry.keyPosition)
    }

    private mutating func assignments(_ node: Node, what: @autoclosure () -> String, step: String) -> [Assignment] {
        guard let entries = mapping(node, what(), step: step) else { return [] }
        var result: [Assignment] = []
        for entry in entries {
            guard let key = checkedName(entry.key, at: entry.keyPosition, "state key", step: step),
                  let source = expression(entry.value, "the value of '\(key.text)'", step: step) else { continue }
            result.append(Assignment(key: key, expression: source))
        }
        return result
    }

    private mutating func handlers(_ node: Node?, step: String) -> [Handler] {
        guard let node, let entries = mapping(node, "'on' of step '\(step)'", step: step) else { return [] }
        var result: [Handler] = []
        for entry in entries {
            guard let event = checkedName(entry.key, at: entry.keyPosition, "event name", step: step),
                  let targets = targets(entry.value, step: step) else { continue }
            result.append(Handler(event: event, targets: targets))
        }
        return result
    }

    private mutating func targets(_ node: Node, step: String) -> [Target]? {
        if let items = node.items {
            guard !items.isEmpty else {
                report("a target list must have at least one target", at: node.position, step: step)
                return nil
            }
            var result: [Target] = []
            for item in items {
                if item.items != nil {
                    report("a target list holds targets, not lists", at: item.position, step: step)
                } else if let target = target(item, step: step) {
                    result.append(target)
                }
            }
            return result.count == items.count ? result : nil
        }
        return target(node, step: step).map { [$0] }
    }

    private mutating func target(_ node: Node, step: String) -> Target? {
        if node.scalar != nil {
            return nameValue(node, "target step name", step: step).map { Target(move: .forward($0), position: node.position) }
        }
        guard let entries = node.entries else { return nil }
        checkKeys(entries, allowed: Self.targetKeys, in: "a target", step: step)
        // The first move key and the second, if any (no array of them: this runs for every target).
        var moveIndex: Int?
        var secondMove: Int?
        for index in entries.indices where Self.moveKeys.contains(entries[index].key) {
            if moveIndex == nil {
                moveIndex = index
            } else {
                secondMove = index
                break
            }
        }
        guard secondMove == nil, let moveIndex else {
            if let secondMove {
                report("a target takes only one of 'forward', 'back' or 'restart'", at: entries[secondMove].keyPosition, step: step)
            } else if entries.allSatisfy({ Self.targetKeys.contains($0.key) }) {
                // With a misspelt key the unknown-key finding already says what is wrong.
                report("a target needs one of 'forward', 'back' or 'restart'", at: node.position, step: step)
            }
            return nil
        }
        let value = entries[moveIndex].value
        let move: Target.Move
        switch entries[moveIndex].key {
        case "forward":
            guard let stepName = nameValue(value, "target step name", step: step) else { return nil }
            move = .forward(stepName)
        case "back":
            if case .bool(let flag)? = value.scalar?.kind, value.scalar?.quoted == false {
                guard flag else {
                    report("'back' takes a step name or true", at: value.position, step: step)
                    return nil
                }
                move = .backOne
            } else {
                guard let stepName = nameValue(value, "target step name", step: step) else { return nil }
                move = .back(stepName)
            }
        default:
            guard case .bool(true)? = value.scalar?.kind, value.scalar?.quoted == false else {
                report("'restart' takes true", at: value.position, step: step)
                return nil
            }
            move = .restart
        }
        let condition = node["if"].flatMap { expression($0, "'if'", step: step) }
        let set = node["set"].map { assignments($0, what: "'set' of a target", step: step) } ?? []
        return Target(move: move, condition: condition, set: set, position: node.position)
    }
}

extension String {
    /// Nil for an empty string, so that `??` can supply a fallback.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
