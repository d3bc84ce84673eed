/// A parse error: message and the 0-based offset (in Unicode scalars) inside the expression text.
package struct ExpressionParseError: Error, Equatable, Sendable {
    /// What is wrong, lowercase, naming things in single quotes.
    package let message: String
    /// Where, in Unicode scalars from the start of the expression text.
    package let offset: Int

    /// Creates a parse error.
    package init(message: Message, offset: Int) {
        self.message = message.text
        self.offset = offset
    }
}

/// Parses expression text into `FlowExpression`s, with bounded length and nesting so that no input can exhaust the stack.
package enum ExpressionParser {
    /// The longest expression text accepted, in Unicode scalars.
    package static let maxLength = 4096
    /// The deepest nesting accepted: parentheses and operators each count one level.
    package static let maxDepth = 64

    /// Parses `source` (a literal source — `source.literal != nil` — becomes a literal expression).
    package static func parse(_ source: ExpressionSource) -> Result<FlowExpression, ExpressionParseError> {
        do {
            return .success(FlowExpression(source: source, root: try root(of: source)))
        } catch {
            return .failure(error)
        }
    }

    /// Parses bare text, as written in an expression slot that holds a string.
    package static func parse(_ text: String) -> Result<FlowExpression, ExpressionParseError> {
        parse(ExpressionSource(text: text, position: .start))
    }

    private static func root(of source: ExpressionSource) throws(ExpressionParseError) -> ExpressionNode {
        let scalars = Array(source.text.unicodeScalars)
        // An unquoted value whose meaning depends on the YAML version, or that YAML read as a number spelled
        // otherwise than an expression writes it, is refused rather than read one way in silence.
        if !source.quoted, let problem = PlainScalarMeaning.problem(source.text, literal: source.literal) {
            throw ExpressionParseError(message: problem, offset: 0)
        }
        if let literal = source.literal {
            let span = ExpressionSpan(start: 0, end: scalars.count)
            switch literal {
            case .null: return .literal(.null, span)
            case .bool(let flag): return .literal(.bool(flag), span)
            case .int(let number): return .literal(.int(number), span)
            case .number(let number):
                guard number.isFinite else {
                    throw ExpressionParseError(message: "the number '\(name: source.text)' is not finite", offset: 0)
                }
                return .literal(.number(number), span)
            case .string: break
            }
        }
        guard scalars.count <= maxLength else {
            throw ExpressionParseError(message: "the expression is longer than \(maxLength) characters", offset: maxLength)
        }
        var parser = Parser(scalars: scalars)
        do {
            return try parser.parseAll()
        } catch {
            // A quoted value that is one bare word: the file's quotes were taken for the expression's own.
            let word = String(source.text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            if source.quoted, Identifier.isValid(word), error.message.hasPrefix("unknown name '\(word)'") {
                throw ExpressionParseError(message: "unknown name '\(name: word)': the quotes around the value belong to the file, not to the expression; "
                                           + "text in an expression has quotes of its own: \"'\(name: word)'\"", offset: error.offset)
            }
            throw error
        }
    }
}

/// A recursive-descent parser over the precedence levels; `depth` bounds the recursion.
private struct Parser {
    private typealias Parsed = (node: ExpressionNode, level: Int)

    private var lexer: ExpressionLexer
    private var token: ExpressionToken
    private var depth = 0

    init(scalars: [Unicode.Scalar]) {
        lexer = ExpressionLexer(scalars)
        token = lexer.next()
    }

    mutating func parseAll() throws(ExpressionParseError) -> ExpressionNode {
        if case .end = token.kind {
            throw ExpressionParseError(message: "the expression is empty", offset: 0)
        }
        let parsed = try ternary()
        if case .end = token.kind { return parsed.node }
        try checkValid(token)
        if token.isSymbol(")") { throw error("unmatched ')'", at: token) }
        if case .word(let word) = token.kind, let replacement = Self.wordOperators[word] {
            throw error("expected an operator, found '\(name: word)'; write '\(name: replacement)'", at: token)
        }
        throw error("expected an operator or the end of the expression, found \(token.display)", at: token)
    }

    // MARK: - Tokens

    private static let wordOperators = ["and": "&&", "or": "||", "not": "!"]

    private mutating func advance() -> ExpressionToken {
        let current = token
        token = lexer.next()
        return current
    }

    private func error(_ message: Message, at token: ExpressionToken) -> ExpressionParseError {
        ExpressionParseError(message: message, offset: token.start)
    }

    /// Throws the lexer's message when `token` is no valid token.
    private func checkValid(_ token: ExpressionToken) throws(ExpressionParseError) {
        if case .invalid(let message, let offset) = token.kind {
            throw ExpressionParseError(message: message, offset: offset)
        }
    }

    /// Enters one more level of nesting at `token`, or throws when that is one level too many.
    private mutating func enter(at token: ExpressionToken) throws(ExpressionParseError) {
        depth += 1
        if depth > ExpressionParser.maxDepth { throw tooDeep(at: token) }
    }

    private func tooDeep(at token: ExpressionToken) -> ExpressionParseError {
        error("the expression nests more than \(ExpressionParser.maxDepth) levels deep; simplify it", at: token)
    }

    /// The level of a node built over `children` by the operator `token`, checked against the limit.
    private func checkedLevel(over children: Int..., at token: ExpressionToken) throws(ExpressionParseError) -> Int {
        let level = (children.max() ?? 0) + 1
        if level > ExpressionParser.maxDepth { throw tooDeep(at: token) }
        return level
    }

    private func span(_ first: ExpressionNode, _ last: ExpressionNode) -> ExpressionSpan {
        ExpressionSpan(start: first.span.start, end: last.span.end)
    }

    // MARK: - Precedence levels, loosest first

    private mutating func ternary() throws(ExpressionParseError) -> Parsed {
        let condition = try or()
        guard token.isSymbol("?") else { return condition }
        let question = advance()
        try enter(at: question)
        let then = try ternary()
        guard token.isSymbol(":") else {
            try checkValid(token)
            throw error("expected ':' to go with the '?', found \(token.display)", at: token)
        }
        _ = advance()
        let otherwise = try ternary()
        depth -= 1
        let level = try checkedLevel(over: condition.level, then.level, otherwise.level, at: question)
        return (.conditional(condition.node, then.node, otherwise.node, span(condition.node, otherwise.node)), level)
    }

    /// The binary operators from `||` (loosest) to `* / %` (tightest); `in` sits with `< <= > >=`.
    private static let binaryLevels: [[String: BinaryOperator]] = [
        ["||": .or],
        ["&&": .and],
        ["==": .equal, "!=": .notEqual],
        ["<": .less, "<=": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual],
        ["+": .add, "-": .subtract],
        ["*": .multiply, "/": .divide, "%": .remainder],
    ]
    private static let membershipLevel = 3

    private mutating func or() throws(ExpressionParseError) -> Parsed {
        try binaryChain(0)
    }

    /// A left-associative chain of the operators at one precedence level, built in a loop.
    private mutating func binaryChain(_ index: Int) throws(ExpressionParseError) -> Parsed {
        let operators = Self.binaryLevels[index]
        var lhs = try operand(index + 1)
        while true {
            if index == Self.membershipLevel, token.isWord("in") {
                let keyword = advance()
                lhs = try membership(lhs, keyword: keyword)
                continue
            }
            guard case .symbol(let symbol) = token.kind, let op = operators[symbol] else { break }
            let opToken = advance()
            let rhs = try operand(index + 1)
            let level = try checkedLevel(over: lhs.level, rhs.level, at: opToken)
            lhs = (.binary(op, lhs.node, rhs.node, span(lhs.node, rhs.node)), level)
        }
        return lhs
    }

    private mutating func operand(_ index: Int) throws(ExpressionParseError) -> Parsed {
        index < Self.binaryLevels.count ? try binaryChain(index) : try unary()
    }

    private mutating func unary() throws(ExpressionParseError) -> Parsed {
        guard token.isSymbol("!") || token.isSymbol("-") else { return try primary() }
        let opToken = advance()
        if opToken.isSymbol("-"), case .integer(let digits) = token.kind {
            // `-9223372036854775808` is a literal: its digits alone do not fit in an int.
            let literal = advance()
            guard let number = Int64("-" + digits) else { throw tooLarge(digits, negative: true, at: opToken) }
            return (.literal(.int(number), ExpressionSpan(start: opToken.start, end: literal.end)), 0)
        }
        try enter(at: opToken)
        let operand = try unary()
        depth -= 1
        let level = try checkedLevel(over: operand.level, at: opToken)
        let op: UnaryOperator = opToken.isSymbol("!") ? .not : .negate
        return (.unary(op, operand.node, ExpressionSpan(start: opToken.start, end: operand.node.span.end)), level)
    }

    // MARK: - Operands

    private mutating func primary() throws(ExpressionParseError) -> Parsed {
        try checkValid(token)
        let first = token
        switch first.kind {
        case .integer(let digits):
            _ = advance()
            guard let number = Int64(digits) else { throw tooLarge(digits, negative: false, at: first) }
            return (.literal(.int(number), span(of: first)), 0)
        case .number(let number):
            _ = advance()
            return (.literal(.number(number), span(of: first)), 0)
        case .text(let text):
            _ = advance()
            return (.literal(.string(text), span(of: first)), 0)
        case .symbol("("):
            _ = advance()
            try enter(at: first)
            let inner = try ternary()
            guard token.isSymbol(")") else {
                try checkValid(token)
                throw error("expected ')' to close the '(', found \(token.display)", at: token)
            }
            let closing = advance()
            depth -= 1
            let level = try checkedLevel(over: inner.level, at: first)
            return (inner.node.with(span: ExpressionSpan(start: first.start, end: closing.end)), level)
        case .symbol("["):
            throw error("a list is only allowed after 'in', as in 'state.tariff in ['economy', 'business']'", at: first)
        case .word(let word):
            return try wordOperand(word)
        case .end:
            throw error("expected a value at the end of the expression", at: first)
        default:
            throw error("expected a value, found \(first.display)", at: first)
        }
    }

    private mutating func wordOperand(_ word: String) throws(ExpressionParseError) -> Parsed {
        let first = advance()
        switch word {
        case "true": return (.literal(.bool(true), span(of: first)), 0)
        case "false": return (.literal(.bool(false), span(of: first)), 0)
        case "null": return (.literal(.null, span(of: first)), 0)
        case "state", "result": return (.path(try path(root: first)), 0)
        case "exists": return try exists(first)
        case "in": throw error("expected a value, found 'in'", at: first)
        default: break
        }
        let shown = word
        if token.isSymbol("(") {
            let hint = Suggestions.didYouMean(word, in: ["exists"])
            throw error("unknown function '\(name: shown)'\(verbatim: hint.isEmpty ? "; the only function is 'exists'" : hint)", at: first)
        }
        if token.isSymbol(".") {
            let hint = Suggestions.didYouMean(word, in: ["state", "result"])
            throw error("unknown name '\(name: shown)'; paths start with 'state.' or 'result.'\(verbatim: hint)", at: first)
        }
        if let keyword = ["true", "false", "null"].first(where: { $0 == word.lowercased() }) {
            throw error("unknown name '\(name: shown)'; did you mean '\(name: keyword)'?", at: first)
        }
        if let replacement = Self.wordOperators[word] {
            throw error("unknown name '\(name: shown)'; write '\(name: replacement)'", at: first)
        }
        throw error("unknown name '\(name: shown)'; to compare with text, quote it: '\(name: shown)'", at: first)
    }

    /// `state.key` or `result.key.field…`, after its first word.
    private mutating func path(root rootToken: ExpressionToken) throws(ExpressionParseError) -> ExpressionPath {
        let root: PathRoot = rootToken.isWord("state") ? .state : .result
        var keys: [String] = []
        var end = rootToken.end
        while token.isSymbol(".") {
            let dot = advance()
            guard case .word(let key) = token.kind else {
                try checkValid(token)
                throw error("expected a key name after '\(verbatim: root.rawValue).', found \(token.display)", at: token)
            }
            guard Identifier.isValid(key) else {
                throw error("'\(name: key)' is not a valid key name: names start with an ASCII letter or '_' and go on with letters, digits or '_'", at: token)
            }
            if root == .state, !keys.isEmpty {
                throw error("state key '\(name: keys[0])' holds no fields; read it as 'state.\(verbatim: keys[0])'", at: dot)
            }
            keys.append(key)
            end = advance().end
        }
        guard !keys.isEmpty else {
            throw error("'\(name: root.rawValue)' is read through a key, as in '\(verbatim: root.rawValue).amount'", at: rootToken)
        }
        return ExpressionPath(root: root, keys: keys, span: ExpressionSpan(start: rootToken.start, end: end))
    }

    /// `exists(path)`, after the word `exists`.
    private mutating func exists(_ name: ExpressionToken) throws(ExpressionParseError) -> Parsed {
        guard token.isSymbol("(") else {
            throw error("'exists' is a function; write 'exists(state.key)'", at: name)
        }
        _ = advance()
        try checkValid(token)
        guard token.isWord("state") || token.isWord("result") else {
            throw error("'exists' takes a path such as 'state.note', found \(token.display)", at: token)
        }
        let path = try path(root: advance())
        guard token.isSymbol(")") else {
            try checkValid(token)
            throw error("expected ')' to close 'exists(', found \(token.display)", at: token)
        }
        let closing = advance()
        return (.exists(path, ExpressionSpan(start: name.start, end: closing.end)), 1)
    }

    /// `[a, b, …]` after `in`, with the value it is tested against.
    private mutating func membership(_ value: Parsed, keyword: ExpressionToken) throws(ExpressionParseError) -> Parsed {
        guard token.isSymbol("[") else {
            try checkValid(token)
            throw error("expected '[' after 'in', as in 'x in [a, b]', found \(token.display)", at: token)
        }
        _ = advance()
        try enter(at: keyword)
        var items: [ExpressionNode] = []
        var level = value.level
        if !token.isSymbol("]") {
            while true {
                let item = try ternary()
                items.append(item.node)
                level = max(level, item.level)
                if token.isSymbol(",") {
                    _ = advance()
                    continue
                }
                guard token.isSymbol("]") else {
                    try checkValid(token)
                    throw error("expected ',' or ']' in the list after 'in', found \(token.display)", at: token)
                }
                break
            }
        }
        let closing = advance()
        depth -= 1
        let total = try self.checkedLevel(over: level, at: keyword)
        return (.membership(value.node, items, ExpressionSpan(start: value.node.span.start, end: closing.end)), total)
    }

    private func span(of token: ExpressionToken) -> ExpressionSpan {
        ExpressionSpan(start: token.start, end: token.end)
    }

    private func tooLarge(_ digits: String, negative: Bool, at token: ExpressionToken) -> ExpressionParseError {
        let written: Message = "\(verbatim: negative ? "-" : "")\(name: digits, limit: 40)"
        let bound = negative ? "-9223372036854775808" : "9223372036854775807"
        return error("the integer \(written) does not fit in an int (\(verbatim: negative ? "the smallest" : "the largest") is \(verbatim: bound))", at: token)
    }
}
