import Foundation

/// The normal forms changes are compared in: expressions parsed, fields and assignments sorted.
package enum NormalForm {
    /// Where an option moves, in words: `'name'`, `back to 'name'`, `back`, `restart`; step names read through
    /// `renamed` (old name to new), so that a move to a renamed step reads as the move to its new name.
    package static func move(_ target: Target, renamed: [String: String] = [:]) -> String {
        move(target) { renamed[$0] ?? $0 }
    }

    /// Where an option moves, with step names read through `name`.
    package static func move(_ target: Target, name: (String) -> String) -> String {
        switch target.move {
        case .forward(let step): return "'\(name(step.text))'"
        case .back(let step): return "back to '\(name(step.text))'"
        case .backOne: return "back"
        case .restart: return "restart"
        }
    }

    /// A target list in a normal form: each option's move, condition and assignments, in order.
    package static func list(_ targets: [Target], renamed: [String: String] = [:]) -> String {
        list(targets) { renamed[$0] ?? $0 }
    }

    /// A target list in a normal form, with step names read through `name`.
    package static func list(_ targets: [Target], name: (String) -> String) -> String {
        targets.map { "\(move($0, name: name)) if \(expression($0.condition) ?? "-") set \(assignments($0.set) ?? "-")" }.joined(separator: "; ")
    }

    package static func fields(_ fields: [Field]?) -> String? {
        fields.map { "{ " + $0.map { "\($0.name.text): \($0.type)" }.sorted().joined(separator: ", ") + " }" }
    }

    package static func assignments(_ list: [Assignment]) -> String? {
        list.isEmpty ? nil : "{ " + list.map { "\($0.key.text): \(expression($0.expression) ?? "")" }.sorted().joined(separator: ", ") + " }"
    }

    /// An expression in a normal form: parsed and printed with single spaces and full parentheses, so that
    /// spacing and redundant parentheses do not count; the text itself when it does not parse.
    package static func expression(_ source: ExpressionSource?) -> String? {
        guard let source else { return nil }
        switch ExpressionParser.parse(source) {
        case .success(let parsed): return normal(parsed.root)
        case .failure: return source.text
        }
    }

    static func normal(_ node: ExpressionNode) -> String {
        switch node {
        case .literal(let value, _): return value.jsonText
        case .path(let path): return path.description
        case .exists(let path, _): return "exists(\(path.description))"
        case .unary(let op, let operand, _): return op.rawValue + normal(operand)
        case .binary(let op, let lhs, let rhs, _): return "(\(normal(lhs)) \(op.rawValue) \(normal(rhs)))"
        case .conditional(let condition, let then, let otherwise, _): return "(\(normal(condition)) ? \(normal(then)) : \(normal(otherwise)))"
        case .membership(let value, let list, _): return "(\(normal(value)) in [\(list.map(normal).joined(separator: ", "))])"
        }
    }
}
