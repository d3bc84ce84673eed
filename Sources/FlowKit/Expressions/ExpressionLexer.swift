/// One token of an expression's text.
struct ExpressionToken: Sendable {
    /// What a token is.
    enum Kind: Equatable, Sendable {
        /// Digits without a fraction or exponent (converted by the parser, which knows about a leading `-`).
        case integer(String)
        /// A literal with a fraction or an exponent.
        case number(Double)
        /// Quoted text, escapes resolved.
        case text(String)
        /// A word: a name, a keyword, `state`, `result`, `exists`.
        case word(String)
        /// An operator or punctuation: `( ) [ ] , . ! - * / % + < <= > >= == != && || ? :`.
        case symbol(String)
        /// Text that is no token; the parser reports the message (at the offset) when it reaches it.
        case invalid(Message, at: Int)
        /// The end of the text.
        case end
    }

    var kind: Kind
    /// The offset of the token's first scalar.
    var start: Int
    /// The offset just past its last scalar.
    var end: Int

    /// The token as named in a message: `'+'`, `'foo'`, `the text 'abc'`, `the end of the expression`.
    var display: Message {
        switch kind {
        case .integer(let digits): return "'\(name: digits, limit: 30)'"
        case .number(let number): return "'\(number)'"
        case .text(let text): return "the text '\(name: text, limit: 30)'"
        case .word(let word): return "'\(name: word, limit: 30)'"
        case .symbol(let symbol): return "'\(verbatim: symbol)'"
        case .invalid: return "an invalid character"
        case .end: return "the end of the expression"
        }
    }

    /// Whether this is the symbol `symbol`.
    func isSymbol(_ symbol: String) -> Bool { kind == .symbol(symbol) }

    /// Whether this is the word `word`.
    func isWord(_ word: String) -> Bool { kind == .word(word) }
}

/// Splits an expression's Unicode scalars into tokens on demand, so errors come in text order.
struct ExpressionLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    /// The next token; `.end` forever once the text is used up.
    mutating func next() -> ExpressionToken {
        while index < scalars.count, Self.isSpace(scalars[index]) { index += 1 }
        let start = index
        guard index < scalars.count else { return ExpressionToken(kind: .end, start: start, end: start) }
        let scalar = scalars[index]
        let kind: ExpressionToken.Kind
        if Self.isDigit(scalar) {
            kind = number()
        } else if Self.isWordStart(scalar) {
            while index < scalars.count, Self.isWordStart(scalars[index]) || Self.isDigit(scalars[index]) { index += 1 }
            kind = .word(string(start..<index))
        } else if scalar == "'" || scalar == "\"" {
            kind = text(quote: scalar)
        } else {
            kind = symbol()
        }
        return ExpressionToken(kind: kind, start: start, end: index)
    }

    /// The text of `range` (words and numbers are ASCII but for letters beyond it, which take the slow path).
    private func string(_ range: Range<Int>) -> String {
        guard scalars[range].allSatisfy(\.isASCII) else { return String(String.UnicodeScalarView(scalars[range])) }
        return String(unsafeUninitializedCapacity: range.count) { buffer in
            for (offset, scalar) in scalars[range].enumerated() { buffer[offset] = UInt8(scalar.value) }
            return range.count
        }
    }

    private mutating func number() -> ExpressionToken.Kind {
        let start = index
        while index < scalars.count, Self.isDigit(scalars[index]) { index += 1 }
        var isInteger = true
        if index < scalars.count, scalars[index] == "." {
            guard index + 1 < scalars.count, Self.isDigit(scalars[index + 1]) else {
                index += 1
                return .invalid("expected digits after the '.' of a number", at: start)
            }
            isInteger = false
            index += 1
            while index < scalars.count, Self.isDigit(scalars[index]) { index += 1 }
        }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            var probe = index + 1
            if probe < scalars.count, scalars[probe] == "+" || scalars[probe] == "-" { probe += 1 }
            if probe < scalars.count, Self.isDigit(scalars[probe]) {
                isInteger = false
                index = probe
                while index < scalars.count, Self.isDigit(scalars[index]) { index += 1 }
            }
        }
        let written = string(start..<index)
        if isInteger { return .integer(written) }
        guard let value = Double(written), value.isFinite else {
            return .invalid("the number '\(name: written, limit: 30)' is too large", at: start)
        }
        return .number(value)
    }

    private mutating func text(quote: Unicode.Scalar) -> ExpressionToken.Kind {
        let start = index
        index += 1
        var output = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == quote {
                index += 1
                return .text(String(output))
            }
            if scalar == "\\" {
                guard index + 1 < scalars.count else { break }
                let escaped = scalars[index + 1]
                switch escaped {
                case "'", "\"", "\\": output.append(escaped)
                case "n": output.append("\n")
                default:
                    let backslash = index
                    index += 2
                    return .invalid("unknown escape '\\\(name: String(Character(escaped)))' in text; the escapes are \\', \\\", \\\\ and \\n", at: backslash)
                }
                index += 2
                continue
            }
            output.append(scalar)
            index += 1
        }
        index = scalars.count
        let shown = quote == "'" ? "'" : "\""
        return .invalid("the text starting here is not closed; end it with \(verbatim: shown)", at: start)
    }

    private mutating func symbol() -> ExpressionToken.Kind {
        let scalar = scalars[index]
        let following: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
        index += 1
        switch scalar {
        case "(", ")", "[", "]", ",", ".", "*", "/", "%", "+", "-", "?", ":":
            return .symbol(String(Character(scalar)))
        case "<", ">", "!":
            if following == "=" {
                index += 1
                return .symbol(String(Character(scalar)) + "=")
            }
            return .symbol(String(Character(scalar)))
        case "=":
            if following == "=" {
                index += 1
                return .symbol("==")
            }
            return .invalid("'=' is not an operator; write '==' to compare", at: index - 1)
        case "&":
            if following == "&" {
                index += 1
                return .symbol("&&")
            }
            return .invalid("'&' is not an operator; write '&&'", at: index - 1)
        case "|":
            if following == "|" {
                index += 1
                return .symbol("||")
            }
            return .invalid("'|' is not an operator; write '||'", at: index - 1)
        default:
            return .invalid("unexpected character '\(name: String(Character(scalar)))'", at: index - 1)
        }
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar >= "0" && scalar <= "9"
    }

    /// ASCII letters and `_`, and letters beyond ASCII (so that a bare word such as `économie` gets the advice to quote it).
    static func isWordStart(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_"
            || (scalar.value >= 0x80 && scalar.properties.isAlphabetic)
    }
}
