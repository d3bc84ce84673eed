/// What an expression can read while it is evaluated.
package struct EvaluationScope: Sendable {
    /// Current state values (unset keys absent).
    package var state: [String: Value]
    /// Declared state types (all declared keys).
    package var stateTypes: [String: TypeRef]
    /// The step's result, when the step completed with one.
    package var result: [String: Value]?
    /// The step's declared result shape, when it has one.
    package var resultTypes: [String: TypeRef]?

    /// Creates a scope; without a result, `result.…` paths are run errors and `exists(result.…)` is false.
    package init(state: [String: Value], stateTypes: [String: TypeRef], result: [String: Value]? = nil, resultTypes: [String: TypeRef]? = nil) {
        self.state = state
        self.stateTypes = stateTypes
        self.result = result
        self.resultTypes = resultTypes
    }
}

/// A run error while evaluating, e.g. "division by zero", "state key 'amount' is not set"; the offset says where.
package struct EvaluationError: Error, Equatable, Sendable {
    /// What went wrong, lowercase, naming things in single quotes.
    package let message: String
    /// The offset inside the expression text of the sub-expression at fault.
    package let offset: Int
    /// What kind of failure it is (a run error made from it has the same kind).
    package let kind: RunError.Kind

    /// Creates an evaluation error.
    package init(message: String, offset: Int, kind: RunError.Kind) {
        self.message = message
        self.offset = offset
        self.kind = kind
    }
}

extension FlowExpression {
    /// The longest text that `+` makes, in UTF-8 bytes; longer is a run error.
    package static let maxTextBytes = 1 << 20

    /// The expression's value in `scope`, or the run error that stops it (a type error, an unset key, an overflow).
    package func evaluate(in scope: EvaluationScope) throws(EvaluationError) -> Value {
        let evaluator = Evaluator(scope: scope)
        return try evaluator.evaluate(root).value
    }

    /// The expression's value in `scope` as a condition (`if`, a derived event): a bool, else a run error.
    package func evaluateCondition(in scope: EvaluationScope) throws(EvaluationError) -> Bool {
        let value = try evaluate(in: scope)
        guard case .bool(let flag) = value else {
            throw EvaluationError(message: "a condition must be a bool, found \(value.kindDescription)", offset: 0,
                                  kind: value == .null ? .nullValue : .typeError)
        }
        return flag
    }
}

extension ExpressionNode {
    /// The value of a node that reads nothing (literals and operators only), or nil when evaluating it is a run
    /// error or it reads a path (which an empty scope does not hold).
    func valueReadingNothing() -> Value? {
        let evaluator = Evaluator(scope: EvaluationScope(state: [:], stateTypes: [:]))
        return try? evaluator.evaluate(self).value
    }
}

/// A value with what the evaluator knows of its declared type: the values of an enum read through a path.
private struct Operand {
    var value: Value
    var span: ExpressionSpan
    /// The allowed values when the value was read from a key declared as an enum.
    var enumValues: [String]?
    /// The path it was read from, for messages (its text is made only when a message needs it).
    var path: ExpressionPath?

    /// The path's text, for messages.
    var enumPath: String? { path?.description }
}

/// Walks a parsed tree; recursion is bounded by the parser's nesting limit. Messages do not repeat the
/// expression: the offset points at the sub-expression at fault, and the caller shows the text around it.
private struct Evaluator {
    let scope: EvaluationScope

    /// The longest text `+` makes, in UTF-8 bytes: a loop that doubles text stops at once instead of filling memory.
    static let maxTextBytes = FlowExpression.maxTextBytes

    func fail(_ message: Message, _ kind: RunError.Kind, at span: ExpressionSpan) -> EvaluationError {
        EvaluationError(message: message.text, offset: span.start, kind: kind)
    }

    /// A type error, or a null error when one of the values is null.
    func typeFailure(_ values: Value...) -> RunError.Kind {
        values.contains(.null) ? .nullValue : .typeError
    }

    /// Where an operator's type error points: at the operand that is null, when one is (the first), since that is
    /// what failed and where lint's `maybe_null` finding is; else at the operation.
    func blame(_ a: Operand, _ b: Operand, span: ExpressionSpan) -> ExpressionSpan {
        a.value == .null ? a.span : b.value == .null ? b.span : span
    }

    func evaluate(_ node: ExpressionNode) throws(EvaluationError) -> Operand {
        switch node {
        case .literal(let value, let span):
            return Operand(value: value, span: span)
        case .path(let path):
            return try read(path)
        case .exists(let path, let span):
            return Operand(value: .bool(exists(path)), span: span)
        case .unary(let op, let operandNode, let span):
            let operand = try evaluate(operandNode)
            return Operand(value: try unary(op, operand, span: span), span: span)
        case .binary(let op, let lhsNode, let rhsNode, let span):
            return Operand(value: try binary(op, lhsNode, rhsNode, span: span), span: span)
        case .conditional(let conditionNode, let thenNode, let otherwiseNode, let span):
            let condition = try evaluate(conditionNode)
            guard case .bool(let flag) = condition.value else {
                throw fail("the condition of '? :' needs a bool, found \(verbatim: condition.value.kindDescription)", typeFailure(condition.value), at: condition.span)
            }
            var chosen = try evaluate(flag ? thenNode : otherwiseNode)
            chosen.span = span
            return chosen
        case .membership(let valueNode, let itemNodes, let span):
            let value = try evaluate(valueNode)
            var found = false
            for itemNode in itemNodes {
                let item = try evaluate(itemNode)
                if try equal(value, item, op: "in", span: span) { found = true }
            }
            return Operand(value: .bool(found), span: span)
        }
    }

    // MARK: - Paths

    private func enumValues(_ type: TypeRef?) -> [String]? {
        if case .enumeration(let values)? = type?.base { return values }
        return nil
    }

    private func undeclared(_ key: String, at span: ExpressionSpan) -> EvaluationError {
        let known = Set(scope.stateTypes.keys).union(scope.state.keys).sorted()
        return fail("state key '\(name: key)' is not declared\(verbatim: Suggestions.didYouMean(key, in: known))", .undeclaredState, at: span)
    }

    private func read(_ path: ExpressionPath) throws(EvaluationError) -> Operand {
        // Only messages show the path: its text is not made on every read.
        var shown: String { path.description }
        switch path.root {
        case .state:
            let key = path.keys[0]
            let type = scope.stateTypes[key]
            let value: Value
            if let stored = scope.state[key] {
                value = stored
            } else if let type {
                guard type.optional else { throw fail("state key '\(name: key)' is not set", .unsetState, at: path.span) }
                value = .null
            } else {
                throw undeclared(key, at: path.span)
            }
            return try operand(value, type: type, path: path)
        case .result:
            guard let result = scope.result else {
                throw fail("'\(path: shown)' is read, but the step completed without a result", .resultAbsent, at: path.span)
            }
            var fields = result
            var types = scope.resultTypes
            var value = Value.null
            var type: TypeRef?
            for (index, key) in path.keys.enumerated() {
                if index > 0 {
                    let parent = "result." + path.keys[..<index].joined(separator: ".")
                    switch value {
                    case .object(let nested): fields = nested
                    case .null: throw fail("'\(path: parent)' is null, so '\(path: shown)' cannot be read", .nullValue, at: path.span)
                    default: throw fail("'\(path: parent)' is \(verbatim: value.kindDescription), not an object, so '\(path: shown)' cannot be read", .typeError, at: path.span)
                    }
                    if case .object(let declared)? = type?.base {
                        types = Dictionary(declared.map { ($0.name.text, $0.type) }, uniquingKeysWith: { first, _ in first })
                    } else {
                        types = nil
                    }
                }
                guard let next = fields[key] else {
                    // An optional key the result leaves out reads null.
                    if let declared = types?[key], declared.optional {
                        value = .null
                        type = declared
                        continue
                    }
                    let known = Set(fields.keys).union(types.map { Array($0.keys) } ?? []).sorted()
                    let missing = path.keys[...index].joined(separator: ".")
                    throw fail("the result has no key '\(path: missing)'\(verbatim: Suggestions.didYouMean(key, in: known))", .missingResultKey, at: path.span)
                }
                value = next
                type = types?[key]
            }
            return try operand(value, type: type, path: path)
        }
    }

    /// The operand `path` reads, unless it is a number that is not finite: runs check the numbers they are given,
    /// so only a scope built by hand can hold one, and it stops at the path that reads it rather than reaching an
    /// operator. The path is kept only with an enum's values, the one message that names it later.
    private func operand(_ value: Value, type: TypeRef?, path: ExpressionPath) throws(EvaluationError) -> Operand {
        if case .number(let number) = value, !number.isFinite {
            throw fail("'\(path: path.description)' is \(number), not a finite number", .arithmetic, at: path.span)
        }
        let values = enumValues(type)
        return Operand(value: value, span: path.span, enumValues: values, path: values == nil ? nil : path)
    }

    /// Whether the path holds a value other than null; a key that is not there (even one never declared) holds none.
    private func exists(_ path: ExpressionPath) -> Bool {
        switch path.root {
        case .state:
            return (scope.state[path.keys[0]] ?? .null) != .null
        case .result:
            guard var value = scope.result.map(Value.object) else { return false }
            for key in path.keys {
                guard case .object(let fields) = value, let next = fields[key] else { return false }
                value = next
            }
            return value != .null
        }
    }

    // MARK: - Operators

    private func unary(_ op: UnaryOperator, _ operand: Operand, span: ExpressionSpan) throws(EvaluationError) -> Value {
        switch (op, operand.value) {
        case (.not, .bool(let flag)):
            return .bool(!flag)
        case (.negate, .int(let number)):
            guard number != .min else { throw fail("int overflow", .arithmetic, at: span) }
            return .int(-number)
        case (.negate, .number(let number)):
            return .number(-number)
        case (.not, let value):
            throw fail("'!' needs a bool, found \(verbatim: value.kindDescription)", typeFailure(value), at: span)
        case (.negate, let value):
            throw fail("'-' needs a number, found \(verbatim: value.kindDescription)", typeFailure(value), at: span)
        }
    }

    private func binary(_ op: BinaryOperator, _ lhsNode: ExpressionNode, _ rhsNode: ExpressionNode, span: ExpressionSpan) throws(EvaluationError) -> Value {
        if op == .and || op == .or {
            let lhs = try boolean(try evaluate(lhsNode), op: op)
            if op == .and ? !lhs : lhs { return .bool(lhs) }
            return .bool(try boolean(try evaluate(rhsNode), op: op))
        }
        let lhs = try evaluate(lhsNode)
        let rhs = try evaluate(rhsNode)
        switch op {
        case .equal: return .bool(try equal(lhs, rhs, op: op.rawValue, span: span))
        case .notEqual: return .bool(!(try equal(lhs, rhs, op: op.rawValue, span: span)))
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return .bool(try order(op, lhs, rhs, span: span))
        default: return try arithmetic(op, lhs.value, rhs.value, span: span, blame: blame(lhs, rhs, span: span))
        }
    }

    private func boolean(_ operand: Operand, op: BinaryOperator) throws(EvaluationError) -> Bool {
        guard case .bool(let flag) = operand.value else {
            throw fail("'\(name: op.rawValue)' needs bools, found \(verbatim: operand.value.kindDescription)", typeFailure(operand.value), at: operand.span)
        }
        return flag
    }

    /// Throws when one side was read from an enum and the other is text (not from an enum) that is none of its values.
    private func checkEnum(_ a: Operand, _ b: Operand) throws(EvaluationError) {
        for (declared, other) in [(a, b), (b, a)] {
            guard let values = declared.enumValues, other.enumValues == nil, case .string(let text) = other.value else { continue }
            if values.contains(where: { Self.same($0, text) }) { continue }
            throw fail("'\(name: text)' is not a value of '\(path: declared.enumPath ?? "")' (\(Message.quoted(values)))\(verbatim: Suggestions.didYouMean(text, in: values))", .typeError, at: other.span)
        }
    }

    /// Whether two strings are the same sequence of Unicode scalars.
    static func same(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.elementsEqual(b.unicodeScalars)
    }

    fileprivate func equal(_ a: Operand, _ b: Operand, op: String, span: ExpressionSpan) throws(EvaluationError) -> Bool {
        try checkEnum(a, b)
        switch (a.value, b.value) {
        case (.null, .null): return true
        case (.null, .object), (.object, .null): return false
        case (.null, .bool), (.null, .int), (.null, .number), (.null, .string): return false
        case (.bool, .null), (.int, .null), (.number, .null), (.string, .null): return false
        case (.string(let x), .string(let y)): return Self.same(x, y)
        case let (x, y):
            if let same = NumberComparison.equal(x, y) { return same }
            throw fail("'\(name: op)' cannot compare \(verbatim: a.value.kindDescription) with \(verbatim: b.value.kindDescription)", typeFailure(a.value, b.value), at: blame(a, b, span: span))
        }
    }

    private func order(_ op: BinaryOperator, _ a: Operand, _ b: Operand, span: ExpressionSpan) throws(EvaluationError) -> Bool {
        let sign: Int
        switch (a.value, b.value) {
        case (.string(let x), .string(let y)):
            try checkEnum(a, b)
            if Self.same(x, y) {
                sign = 0
            } else {
                sign = x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars) { $0.value < $1.value } ? -1 : 1
            }
        default:
            switch NumberComparison.order(a.value, b.value) {
            case .sign(let compared): sign = compared
            case .unordered: throw unordered(op, span: span)
            case .notNumbers:
                throw fail("'\(name: op.rawValue)' needs two numbers or two strings, found \(verbatim: a.value.kindDescription) and \(verbatim: b.value.kindDescription)", typeFailure(a.value, b.value), at: blame(a, b, span: span))
            }
        }
        return NumberComparison.holds(op, sign: sign)
    }

    private func unordered(_ op: BinaryOperator, span: ExpressionSpan) -> EvaluationError {
        fail("'\(name: op.rawValue)' cannot order nan, which is not a number", .arithmetic, at: span)
    }

    private func arithmetic(_ op: BinaryOperator, _ a: Value, _ b: Value, span: ExpressionSpan, blame: ExpressionSpan) throws(EvaluationError) -> Value {
        switch Arithmetic.numeric(op, a, b) {
        case .success(let value)?: return value
        case .failure(.divisionByZero)?: throw fail("division by zero", .arithmetic, at: span)
        case .failure(.intOverflow)?: throw fail("int overflow", .arithmetic, at: span)
        case .failure(.numberOverflow)?: throw fail("number overflow", .arithmetic, at: span)
        case nil: break
        }
        switch (a, b) {
        case (.string(let x), .string(let y)) where op == .add:
            guard x.utf8.count + y.utf8.count <= Self.maxTextBytes else { throw fail("text longer than \(Self.maxTextBytes) bytes", .arithmetic, at: span) }
            return .string(x + y)
        default:
            let needs = op == .add ? "two numbers or two strings" : "two numbers"
            throw fail("'\(name: op.rawValue)' needs \(verbatim: needs), found \(verbatim: a.kindDescription) and \(verbatim: b.kindDescription)", typeFailure(a, b), at: blame)
        }
    }
}

/// `+ - * / %` over ints and over numbers, for the evaluator and its fast form alike.
enum Arithmetic {
    /// Why an operation has no value.
    enum Failure: Error {
        case divisionByZero
        case intOverflow
        case numberOverflow
    }

    /// `op` over two ints (an int) or two ints or numbers (a number); nil for any other pair.
    static func numeric(_ op: BinaryOperator, _ a: Value, _ b: Value) -> Result<Value, Failure>? {
        switch (a, b) {
        case (.int(let x), .int(let y)): return integer(op, x, y).map(Value.int)
        case (.int(let x), .number(let y)): return number(op, Double(x), y).map(Value.number)
        case (.number(let x), .int(let y)): return number(op, x, Double(y)).map(Value.number)
        case (.number(let x), .number(let y)): return number(op, x, y).map(Value.number)
        default: return nil
        }
    }

    /// Ints stay ints: truncating division, the remainder with the dividend's sign; overflow is a failure.
    static func integer(_ op: BinaryOperator, _ x: Int64, _ y: Int64) -> Result<Int64, Failure> {
        let result: (partialValue: Int64, overflow: Bool)
        switch op {
        case .add: result = x.addingReportingOverflow(y)
        case .subtract: result = x.subtractingReportingOverflow(y)
        case .multiply: result = x.multipliedReportingOverflow(by: y)
        case .divide:
            guard y != 0 else { return .failure(.divisionByZero) }
            result = x.dividedReportingOverflow(by: y)
        default:
            guard y != 0 else { return .failure(.divisionByZero) }
            // `Int64.min % -1` is 0; only the quotient overflows.
            return .success(y == -1 ? 0 : x % y)
        }
        return result.overflow ? .failure(.intOverflow) : .success(result.partialValue)
    }

    /// Numbers: a result that is not finite is a failure.
    static func number(_ op: BinaryOperator, _ x: Double, _ y: Double) -> Result<Double, Failure> {
        let result: Double
        switch op {
        case .add: result = x + y
        case .subtract: result = x - y
        case .multiply: result = x * y
        case .divide:
            guard y != 0 else { return .failure(.divisionByZero) }
            result = x / y
        default:
            guard y != 0 else { return .failure(.divisionByZero) }
            result = x.truncatingRemainder(dividingBy: y)
        }
        return result.isFinite ? .success(result) : .failure(.numberOverflow)
    }
}

/// Exact comparison of an int with a number, which `Double(int)` would round; and the comparisons of bools, ints and
/// numbers the evaluator and its fast form share.
enum NumberComparison {
    /// How two values order as numbers.
    enum Order {
        /// The sign of `a - b`.
        case sign(Int)
        /// One is NaN.
        case unordered
        /// They are not two ints or numbers.
        case notNumbers
    }

    /// How `a` and `b` order when both are ints or numbers.
    static func order(_ a: Value, _ b: Value) -> Order {
        switch (a, b) {
        case (.int(let x), .int(let y)): return .sign(x < y ? -1 : (x == y ? 0 : 1))
        case (.number(let x), .number(let y)): return .sign(x < y ? -1 : (x == y ? 0 : 1))
        case (.int(let x), .number(let y)): return sign(x, y).map(Order.sign) ?? .unordered
        case (.number(let x), .int(let y)): return sign(y, x).map { Order.sign(-$0) } ?? .unordered
        default: return .notNumbers
        }
    }

    /// Whether `op` (`<`, `<=`, `>`, `>=`) holds for a comparison whose sign is `sign`.
    static func holds(_ op: BinaryOperator, sign: Int) -> Bool {
        switch op {
        case .less: return sign < 0
        case .lessOrEqual: return sign <= 0
        case .greater: return sign > 0
        default: return sign >= 0
        }
    }

    /// Whether two bools, or two ints or numbers (numerically), are equal; nil for any other pair.
    static func equal(_ a: Value, _ b: Value) -> Bool? {
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.int(let x), .number(let y)): return sign(x, y) == 0
        case (.number(let x), .int(let y)): return sign(y, x) == 0
        default: return nil
        }
    }

    /// The sign of `x - y` for an int and a number, exactly (no rounding of large ints; infinities are beyond every
    /// int); nil when `y` is NaN, which is neither equal to an int nor ordered with one.
    static func sign(_ x: Int64, _ y: Double) -> Int? {
        if y.isNaN { return nil }
        if y >= 9_223_372_036_854_775_808.0 { return -1 }
        if y < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = y.rounded(.towardZero)
        let integer = Int64(whole)
        if x != integer { return x < integer ? -1 : 1 }
        let fraction = y - whole
        return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
    }
}
