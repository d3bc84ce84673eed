/// The common shapes of expressions, evaluated without the evaluator's bookkeeping (spans, enum values, messages):
/// literals, a state key, a one-key `result` path, `!`, `-`, `? :` and the binary operators over ints, numbers and
/// bools. `value(state:result:)` gives nil whenever the shape or the values are outside what it handles (a key that
/// is not there, null, text, an overflow, a division by zero, an `exists` or `in`), and the full evaluator then
/// gives the value or the run error. Where it answers, it answers what the evaluator would (a property test holds
/// the two together), so the engine can try it first.
struct FastExpression: Sendable {
    /// A node of the fast form.
    /// Only the cases that hold nodes are boxed: a leaf, the usual whole expression, takes no allocation.
    enum Node: Sendable {
        case constant(Value)
        case state(String)
        case result(String)
        indirect case not(Node)
        indirect case negate(Node)
        indirect case binary(BinaryOperator, Node, Node)
        indirect case conditional(Node, Node, Node)
    }

    /// The root of the fast form.
    let root: Node

    /// The fast form of `expression`, nil when some part of it has none (`exists`, `in`, a path of several keys).
    init?(_ expression: FlowExpression) {
        guard let root = Self.node(expression.root) else { return nil }
        self.root = root
    }

    /// Recursion is bounded by the parser's nesting limit (`ExpressionParser.maxDepth`).
    private static func node(_ node: ExpressionNode) -> Node? {
        switch node {
        case .literal(let value, _):
            return .constant(value)
        case .path(let path):
            guard path.keys.count == 1 else { return nil }
            return path.root == .state ? .state(path.keys[0]) : .result(path.keys[0])
        case .unary(let op, let operand, _):
            guard let inner = Self.node(operand) else { return nil }
            return op == .not ? .not(inner) : .negate(inner)
        case .binary(let op, let lhs, let rhs, _):
            guard let left = Self.node(lhs), let right = Self.node(rhs) else { return nil }
            return .binary(op, left, right)
        case .conditional(let condition, let then, let otherwise, _):
            guard let test = Self.node(condition), let first = Self.node(then), let second = Self.node(otherwise) else { return nil }
            return .conditional(test, first, second)
        case .exists, .membership:
            return nil
        }
    }

    /// The value over `state` and `result`, or nil when the full evaluator must decide.
    func value(state: [String: Value], result: [String: Value]?) -> Value? {
        Self.value(root, state, result)
    }

    private static func value(_ node: Node, _ state: [String: Value], _ result: [String: Value]?) -> Value? {
        switch node {
        case .constant(let value):
            return value
        case .state(let key):
            return finite(state.value(comparingKeys: key))
        case .result(let key):
            return finite(result?.value(comparingKeys: key))
        case .not(let inner):
            guard case .bool(let flag)? = value(inner, state, result) else { return nil }
            return .bool(!flag)
        case .negate(let inner):
            switch value(inner, state, result) {
            case .int(let number)? where number != .min: return .int(-number)
            case .number(let number)?: return .number(-number)
            default: return nil
            }
        case .conditional(let condition, let then, let otherwise):
            guard case .bool(let flag)? = value(condition, state, result) else { return nil }
            return value(flag ? then : otherwise, state, result)
        case .binary(let op, let lhs, let rhs):
            if op == .and || op == .or {
                guard case .bool(let left)? = value(lhs, state, result) else { return nil }
                if op == .and ? !left : left { return .bool(left) }
                guard case .bool(let right)? = value(rhs, state, result) else { return nil }
                return .bool(right)
            }
            guard let left = value(lhs, state, result), let right = value(rhs, state, result) else { return nil }
            return binary(op, left, right)
        }
    }

    /// A value read from a key, unless it is missing or a number that is not finite.
    private static func finite(_ value: Value?) -> Value? {
        if case .number(let number)? = value, !number.isFinite { return nil }
        return value
    }

    /// The operators but `&&` and `||`, through the evaluator's own arithmetic and comparisons.
    private static func binary(_ op: BinaryOperator, _ left: Value, _ right: Value) -> Value? {
        switch op {
        case .equal, .notEqual:
            guard let same = NumberComparison.equal(left, right) else { return nil }
            return .bool(op == .equal ? same : !same)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard case .sign(let sign) = NumberComparison.order(left, right) else { return nil }
            return .bool(NumberComparison.holds(op, sign: sign))
        default:
            guard case .success(let value)? = Arithmetic.numeric(op, left, right) else { return nil }
            return value
        }
    }
}
