/// Conditions whose value their text decides (docs/format.md, "Parts of an expression no run evaluates"), and the
/// parts of an expression they rule out: a branch of `? :`, the right side of `&&` or `||`.
enum ConstantCondition {
    /// The value `node` has whenever it evaluates, when its text decides it: `true`, `false`, two constants
    /// compared (`constant(_:)`), two sides written alike compared, and `!`, `&&`, `||`, `? :` of these; nil otherwise.
    /// `domains`, when given, tells the values of a path whose declared type is an enum that is not optional: then
    /// `p in [...]` listing every one of them holds whenever it evaluates (docs/format.md, "Parts of an expression no
    /// run evaluates").
    static func value(of node: ExpressionNode, domains: ((ExpressionPath) -> [String]?)? = nil) -> Bool? {
        switch node {
        case .literal(.bool(let flag), _):
            return flag
        case .unary(.not, let operand, _):
            return value(of: operand, domains: domains).map { !$0 }
        case .binary(.and, let lhs, let rhs, _):
            let (a, b) = (value(of: lhs, domains: domains), value(of: rhs, domains: domains))
            if a == false || b == false { return false }
            return a == true && b == true ? true : nil
        case .binary(.or, let lhs, let rhs, _):
            let (a, b) = (value(of: lhs, domains: domains), value(of: rhs, domains: domains))
            if a == true || b == true { return true }
            return a == false && b == false ? false : nil
        case .conditional(let condition, let then, let otherwise, _):
            switch value(of: condition, domains: domains) {
            case true?: return value(of: then, domains: domains)
            case false?: return value(of: otherwise, domains: domains)
            case nil:
                let a = value(of: then, domains: domains)
                return a != nil && a == value(of: otherwise, domains: domains) ? a : nil
            }
        case .membership(.path(let path), let items, _):
            guard let domains, let values = domains(path) else { return nil }
            let listed = Set(items.compactMap { item -> String? in
                if case .literal(.string(let text), _) = item { return text }
                return nil
            })
            return values.allSatisfy(listed.contains) ? true : nil
        case .binary(let op, let lhs, let rhs, let span) where op.isComparison:
            if let x = constant(lhs), let y = constant(rhs) {
                // The evaluator's answer; a comparison it refuses is a type error, not a constant.
                guard case .bool(let flag)? = ExpressionNode.binary(op, .literal(x, lhs.span), .literal(y, rhs.span), span).valueReadingNothing() else {
                    return nil
                }
                return flag
            }
            if alike(lhs, rhs) {
                // Two sides written alike (a path compared with itself, `state.a / state.a != state.a / state.a`):
                // whenever both evaluate they give the same value (expressions read and change nothing else), which
                // equals itself (numbers are finite).
                return op == .equal || op == .lessOrEqual || op == .greaterOrEqual
            }
            return nil
        default:
            return nil
        }
    }

    /// The value `node` has whenever it evaluates, when its text decides it: a literal, a part that reads nothing
    /// (`GuardSpace.literal`), or a `? :` whose branches have the same such value (or whose constant condition picks
    /// one that has one).
    static func constant(_ node: ExpressionNode) -> Value? {
        if let literal = GuardSpace.literal(node) { return literal }
        guard case .conditional(let condition, let then, let otherwise, _) = node else { return nil }
        switch value(of: condition) {
        case true?: return constant(then)
        case false?: return constant(otherwise)
        case nil:
            guard let a = constant(then), let b = constant(otherwise), a == b else { return nil }
            return a
        }
    }

    /// Whether two nodes are written alike: the same operators, paths and literals in the same shape (spacing and
    /// parentheses aside). Stops at the first difference.
    static func alike(_ a: ExpressionNode, _ b: ExpressionNode) -> Bool {
        switch (a, b) {
        case (.literal(let x, _), .literal(let y, _)): return x == y
        case (.path(let x), .path(let y)): return x.root == y.root && x.keys == y.keys
        case (.exists(let x, _), .exists(let y, _)): return x.root == y.root && x.keys == y.keys
        case (.unary(let o, let x, _), .unary(let p, let y, _)): return o == p && alike(x, y)
        case (.binary(let o, let x1, let x2, _), .binary(let p, let y1, let y2, _)): return o == p && alike(x1, y1) && alike(x2, y2)
        case (.conditional(let x1, let x2, let x3, _), .conditional(let y1, let y2, let y3, _)): return alike(x1, y1) && alike(x2, y2) && alike(x3, y3)
        case (.membership(let x, let xs, _), .membership(let y, let ys, _)):
            return xs.count == ys.count && alike(x, y) && zip(xs, ys).allSatisfy { alike($0, $1) }
        default: return false
        }
    }

    /// The part of an expression a constant condition rules out.
    enum RuledOut: Equatable {
        /// The `then` branch of `? :` (its condition is always false).
        case thenBranch
        /// The `else` branch of `? :` (its condition is always true).
        case elseBranch
        /// The right side of `&&` (its left side is always false).
        case rightOfAnd
        /// The right side of `||` (its left side is always true).
        case rightOfOr
    }

    /// The children of `node` that an evaluation can reach: all of them, but for the part a constant condition
    /// rules out (then the condition and that part's sibling only).
    static func liveChildren(of node: ExpressionNode) -> [ExpressionNode] {
        switch node {
        case .conditional(let condition, let then, let otherwise, _):
            switch value(of: condition) {
            case true?: return [condition, then]
            case false?: return [condition, otherwise]
            case nil: return [condition, then, otherwise]
            }
        case .binary(.and, let lhs, let rhs, _):
            return value(of: lhs) == false ? [lhs] : [lhs, rhs]
        case .binary(.or, let lhs, let rhs, _):
            return value(of: lhs) == true ? [lhs] : [lhs, rhs]
        default:
            return node.children
        }
    }

    /// The constant conditions of `node` that rule out a part, outside the parts ruled out, in the order written
    /// (an enclosing one before those inside it).
    static func findings(in node: ExpressionNode) -> [(condition: ExpressionNode, value: Bool, ruledOut: RuledOut)] {
        var found: [(condition: ExpressionNode, value: Bool, ruledOut: RuledOut)] = []
        func add(_ condition: ExpressionNode, _ value: Bool, _ ruledOut: RuledOut) {
            // One finding per position: in `false && x ? a : b` the `? :` is the finding, not its `&&` too.
            guard found.last?.condition.span.start != condition.span.start else { return }
            found.append((condition, value, ruledOut))
        }
        var pending = [node]
        while let next = pending.popLast() {
            switch next {
            case .conditional(let condition, _, _, _):
                if let flag = value(of: condition) { add(condition, flag, flag ? .elseBranch : .thenBranch) }
            case .binary(.and, let lhs, _, _):
                if value(of: lhs) == false { add(lhs, false, .rightOfAnd) }
            case .binary(.or, let lhs, _, _):
                if value(of: lhs) == true { add(lhs, true, .rightOfOr) }
            default:
                break
            }
            pending.append(contentsOf: liveChildren(of: next).reversed())
        }
        // Depth first, children in the order written: the order of their positions.
        return found
    }
}
