/// A document tree that renders as YAML (block style) or JSON, with every expression a quoted string written on
/// one line without escapes, so run errors and findings point at exact columns.
enum DocumentNode {
    /// A name or type word: plain in YAML, a string in JSON.
    case word(String)
    /// Text always quoted (expressions, `T?` types, paths).
    case text(String)
    /// An integer.
    case integer(Int)
    /// `true`.
    case yes
    /// `null` (an explicit event's empty declaration).
    case null
    /// A mapping, in order.
    indirect case map([(String, DocumentNode)])
    /// A list.
    indirect case list([DocumentNode])

    /// Quoted for both YAML (double quotes) and JSON; generated text has no `"`, `\` or control characters.
    static func quote(_ text: String) -> String { "\"" + text + "\"" }

    private var scalar: String? {
        switch self {
        case .word(let word): return word
        case .text(let text): return Self.quote(text)
        case .integer(let number): return String(number)
        case .yes: return "true"
        case .null: return ""
        case .map(let entries): return entries.isEmpty ? "{}" : nil
        case .list(let items): return items.isEmpty ? "[]" : nil
        }
    }

    private static func yamlKey(_ key: String) -> String {
        key == "*" ? quote(key) : key
    }

    /// The YAML lines of a mapping's or list's content at `indent` spaces.
    func yamlLines(indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        switch self {
        case .map(let entries):
            var out = ""
            for (key, value) in entries {
                if let scalar = value.scalar {
                    out += pad + Self.yamlKey(key) + ":" + (scalar.isEmpty ? "" : " " + scalar) + "\n"
                } else {
                    out += pad + Self.yamlKey(key) + ":\n" + value.yamlLines(indent: indent + 2)
                }
            }
            return out
        case .list(let items):
            var out = ""
            for item in items {
                if let scalar = item.scalar {
                    out += pad + "- " + scalar + "\n"
                } else {
                    let inner = item.yamlLines(indent: indent + 2)
                    out += pad + "- " + inner.dropFirst(indent + 2)
                }
            }
            return out
        default:
            return pad + (scalar ?? "") + "\n"
        }
    }

    /// The JSON text at `indent` spaces (the first line not indented).
    func json(indent: Int) -> String {
        let pad = String(repeating: " ", count: indent + 2)
        switch self {
        case .word(let word): return Self.quote(word)
        case .text(let text): return Self.quote(text)
        case .integer(let number): return String(number)
        case .yes: return "true"
        case .null: return "null"
        case .map(let entries):
            guard !entries.isEmpty else { return "{}" }
            let items = entries.map { pad + Self.quote($0.0) + ": " + $0.1.json(indent: indent + 2) }
            return "{\n" + items.joined(separator: ",\n") + "\n" + String(repeating: " ", count: indent) + "}"
        case .list(let items):
            guard !items.isEmpty else { return "[]" }
            return "[\n" + items.map { pad + $0.json(indent: indent + 2) }.joined(separator: ",\n") + "\n" + String(repeating: " ", count: indent) + "]"
        }
    }
}

extension BlueprintType {
    var node: DocumentNode {
        switch base {
        case .int: return optional ? .text("int?") : .word("int")
        case .number: return optional ? .text("number?") : .word("number")
        case .string: return optional ? .text("string?") : .word("string")
        case .bool: return optional ? .text("bool?") : .word("bool")
        case .enumeration(let values): return .list(values.map(DocumentNode.word))
        case .object(let fields): return .map(fields.map { ($0.name, $0.type.node) })
        }
    }
}

extension TargetBlueprint {
    var node: DocumentNode {
        if condition == nil && set.isEmpty, case .forward(let step) = move { return .word(step) }
        var entries: [(String, DocumentNode)]
        switch move {
        case .forward(let step): entries = [("forward", .word(step))]
        case .back(let step): entries = [("back", .word(step))]
        case .backOne: entries = [("back", .yes)]
        case .restart: entries = [("restart", .yes)]
        }
        if let condition { entries.append(("if", .text(condition))) }
        if !set.isEmpty { entries.append(("set", .map(set.map { ($0.key, .text($0.expression)) }))) }
        return .map(entries)
    }
}

func targetsNode(_ targets: [TargetBlueprint]) -> DocumentNode {
    targets.count == 1 ? targets[0].node : .list(targets.map(\.node))
}

extension StepBlueprint {
    var node: DocumentNode {
        var entries: [(String, DocumentNode)] = []
        if let kind { entries.append(("kind", .word(kind))) }
        if let flow { entries.append(("flow", .text(flow))) }
        if !input.isEmpty { entries.append(("input", .map(input.map { ($0.key, .text($0.expression)) }))) }
        if let result { entries.append(("result", .map(result.map { ($0.name, $0.type.node) }))) }
        if !set.isEmpty { entries.append(("set", .map(set.map { ($0.key, .text($0.expression)) }))) }
        if !on.isEmpty { entries.append(("on", .map(on.map { ($0.event, targetsNode($0.targets)) }))) }
        if let next { entries.append(("next", targetsNode(next))) }
        if let outcome { entries.append(("outcome", .word(outcome))) }
        return .map(entries)
    }
}

extension FlowBlueprint {
    var node: DocumentNode {
        var entries: [(String, DocumentNode)] = [("flowkit", .integer(1)), ("flow", .word(name)), ("start", .word(start))]
        if !state.isEmpty { entries.append(("state", .map(state.map { ($0.name, $0.type.node) }))) }
        if let inputs { entries.append(("inputs", .list(inputs.map(DocumentNode.word)))) }
        if !events.isEmpty { entries.append(("events", .map(events.map { ($0.name, $0.expression.map(DocumentNode.text) ?? .null) }))) }
        if !self.entries.isEmpty {
            entries.append(("entries", .map(self.entries.map { ($0.name, .map([("step", .word($0.step)), ("path", .text($0.path))])) })))
        }
        var steps: [(String, DocumentNode)] = []
        if let anyStep { steps.append(("*", anyStep.node)) }
        steps += self.steps.map { ($0.name, $0.node) }
        entries.append(("steps", .map(steps)))
        return .map(entries)
    }

    /// The flow's text in `format`.
    public func render(_ format: BlueprintFormat) -> String {
        switch format {
        case .yaml: return node.yamlLines(indent: 0)
        case .json: return node.json(indent: 0) + "\n"
        }
    }
}
