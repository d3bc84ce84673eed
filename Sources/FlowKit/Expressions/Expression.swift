/// A range of an expression's text, in Unicode scalar offsets: where a sub-expression starts and ends.
package struct ExpressionSpan: Hashable, Sendable {
    /// The offset of the sub-expression's first scalar.
    package var start: Int
    /// The offset just past its last scalar.
    package var end: Int

    /// Creates a span.
    package init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }
}

/// Where a path starts: `state.…` or `result.…`.
package enum PathRoot: String, Hashable, Sendable {
    /// The flow's state: `state.key`.
    case state
    /// The step's result: `result.key` or `result.key.field`.
    case result
}

/// A path read by an expression: `state.amount`, `result.user.name`.
package struct ExpressionPath: Hashable, Sendable, CustomStringConvertible {
    /// Where the path starts.
    package var root: PathRoot
    /// The keys after the root, at least one (exactly one for `state`).
    package var keys: [String]
    /// Where the path is written.
    package var span: ExpressionSpan

    /// Creates a path.
    package init(root: PathRoot, keys: [String], span: ExpressionSpan) {
        self.root = root
        self.keys = keys
        self.span = span
    }

    /// The path as written: `state.amount`.
    package var description: String { ([root.rawValue] + keys).joined(separator: ".") }
}

/// A prefix operator.
package enum UnaryOperator: String, Hashable, Sendable {
    /// `!`: logical not.
    case not = "!"
    /// `-`: negation.
    case negate = "-"
}

/// An infix operator.
package enum BinaryOperator: String, Hashable, Sendable {
    /// `* / %`: int stays int (truncating, remainder with the dividend's sign), mixing with number gives number.
    case multiply = "*", divide = "/", remainder = "%"
    /// `+ -`: `+` also concatenates two strings.
    case add = "+", subtract = "-"
    /// `< <= > >=`: numbers, or strings by Unicode scalar values.
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    /// `== !=`: equal types, int and number numerically, anything with null.
    case equal = "==", notEqual = "!="
    /// `&& ||`: bools, short-circuiting.
    case and = "&&", or = "||"

    /// Whether it is one of the six comparisons (`== != < <= > >=`).
    var isComparison: Bool {
        switch self {
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .equal, .notEqual: return true
        default: return false
        }
    }
}

/// A node of a parsed expression; every node knows the span of text it was parsed from.
package indirect enum ExpressionNode: Hashable, Sendable {
    /// A literal value.
    case literal(Value, ExpressionSpan)
    /// A path read.
    case path(ExpressionPath)
    /// `exists(path)`.
    case exists(ExpressionPath, ExpressionSpan)
    /// `!x` or `-x`.
    case unary(UnaryOperator, ExpressionNode, ExpressionSpan)
    /// `x op y`.
    case binary(BinaryOperator, ExpressionNode, ExpressionNode, ExpressionSpan)
    /// `condition ? then : else`.
    case conditional(ExpressionNode, ExpressionNode, ExpressionNode, ExpressionSpan)
    /// `x in [a, b]`.
    case membership(ExpressionNode, [ExpressionNode], ExpressionSpan)

    /// The text range the node was parsed from (parentheses around it included).
    package var span: ExpressionSpan {
        switch self {
        case .literal(_, let span), .exists(_, let span), .unary(_, _, let span), .binary(_, _, _, let span),
             .conditional(_, _, _, let span), .membership(_, _, let span):
            return span
        case .path(let path):
            return path.span
        }
    }

    /// The same node covering `span` instead (used to include the parentheses written around it).
    func with(span: ExpressionSpan) -> ExpressionNode {
        switch self {
        case .literal(let value, _): return .literal(value, span)
        case .path(var path):
            path.span = span
            return .path(path)
        case .exists(let path, _): return .exists(path, span)
        case .unary(let op, let operand, _): return .unary(op, operand, span)
        case .binary(let op, let lhs, let rhs, _): return .binary(op, lhs, rhs, span)
        case .conditional(let condition, let then, let otherwise, _): return .conditional(condition, then, otherwise, span)
        case .membership(let value, let list, _): return .membership(value, list, span)
        }
    }

    /// The direct sub-expressions, in text order.
    package var children: [ExpressionNode] {
        switch self {
        case .literal, .path, .exists: return []
        case .unary(_, let operand, _): return [operand]
        case .binary(_, let lhs, let rhs, _): return [lhs, rhs]
        case .conditional(let condition, let then, let otherwise, _): return [condition, then, otherwise]
        case .membership(let value, let list, _): return [value] + list
        }
    }
}

/// A parsed expression, ready to evaluate many times.
package struct FlowExpression: Hashable, Sendable {
    /// The text it was parsed from.
    package let source: ExpressionSource
    /// The syntax tree.
    package let root: ExpressionNode

    /// Wraps a parsed tree; `ExpressionParser.parse` is the way to make one.
    init(source: ExpressionSource, root: ExpressionNode) {
        self.source = source
        self.root = root
    }

    /// Every path the expression reads (inside `exists(…)` too), in text order.
    package var paths: [ExpressionPath] {
        var found: [ExpressionPath] = []
        var pending = [root]
        while let node = pending.popLast() {
            switch node {
            case .path(let path), .exists(let path, _): found.append(path)
            default: pending.append(contentsOf: node.children.reversed())
            }
        }
        return found
    }
}

