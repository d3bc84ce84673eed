import Testing
@testable import FlowKit


@Suite("Expression parser")
struct ExpressionParserTests {
    @Test(arguments: [
        ExprCase("12", .int(12)),
        ExprCase("1.5", .number(1.5)),
        ExprCase("0.25", .number(0.25)),
        ExprCase("2e3", .number(2000)),
        ExprCase("'text'", .string("text")),
        ExprCase("\"text\"", .string("text")),
        ExprCase("''", .string("")),
        ExprCase("true", .bool(true)),
        ExprCase("false", .bool(false)),
        ExprCase("null", .null),
        ExprCase("'it\\'s'", .string("it's")),
        ExprCase("\"say \\\"hi\\\"\"", .string("say \"hi\"")),
        ExprCase("'a\\\\b'", .string("a\\b")),
        ExprCase("'line\\nnext'", .string("line\nnext")),
        ExprCase("\"it's\"", .string("it's")),
        ExprCase("'économie'", .string("économie")),
        ExprCase("  ( 12 )  ", .int(12)),
        ExprCase("\n12\n", .int(12)),
    ])
    func literals(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test func paths() throws {
        let expression = try #require(ExprFixture.parse("state.amount + result.user.name"))
        #expect(expression.paths.map(\.description) == ["state.amount", "result.user.name"])
        #expect(expression.paths.map(\.span) == [ExpressionSpan(start: 0, end: 12), ExpressionSpan(start: 15, end: 31)])
        let nested = try #require(ExprFixture.parse("exists(state.note) ? state.in : result.state.result"))
        #expect(nested.paths.map(\.description) == ["state.note", "state.in", "result.state.result"])
        #expect(nested.paths.map(\.root) == [.state, .state, .result])
    }

    @Test func spansIncludeParentheses() throws {
        let expression = try #require(ExprFixture.parse("(1 + 2) * 3"))
        guard case .binary(.multiply, let lhs, _, let span) = expression.root else {
            Issue.record("not a product: \(expression.root)")
            return
        }
        #expect(span == ExpressionSpan(start: 0, end: 11))
        #expect(lhs.span == ExpressionSpan(start: 0, end: 7))
    }

    @Test(arguments: [
        ExprFailure("state.tariff == economy", "unknown name 'economy'; to compare with text, quote it: 'economy'", at: 16),
        ExprFailure("economy", "unknown name 'economy'; to compare with text, quote it: 'economy'", at: 0),
        ExprFailure("state.name == économie", "unknown name 'économie'; to compare with text, quote it: 'économie'", at: 14),
        ExprFailure("state.vip == True", "unknown name 'True'; did you mean 'true'?", at: 13),
        ExprFailure("NULL", "unknown name 'NULL'; did you mean 'null'?", at: 0),
        ExprFailure("not state.vip", "unknown name 'not'; write '!'", at: 0),
        ExprFailure("stat.amount", "unknown name 'stat'; paths start with 'state.' or 'result.'; did you mean 'state'?", at: 0),
        ExprFailure("user.name", "unknown name 'user'; paths start with 'state.' or 'result.'", at: 0),
    ])
    func bareWords(_ f: ExprFailure) {
        #expect(ExprFixture.parseError(f.text) == ExpressionParseError(message: Message(verbatim: f.message), offset: f.offset))
    }

    @Test(arguments: [
        ExprFailure("foo(state.amount)", "unknown function 'foo'; the only function is 'exists'", at: 0),
        ExprFailure("1 + len('abc')", "unknown function 'len'; the only function is 'exists'", at: 4),
        ExprFailure("exist(state.note)", "unknown function 'exist'; did you mean 'exists'?", at: 0),
        ExprFailure("exists(1)", "'exists' takes a path such as 'state.note', found '1'", at: 7),
        ExprFailure("exists(note)", "'exists' takes a path such as 'state.note', found 'note'", at: 7),
        ExprFailure("exists state.note", "'exists' is a function; write 'exists(state.key)'", at: 0),
        ExprFailure("exists(state.note", "expected ')' to close 'exists(', found the end of the expression", at: 17),
    ])
    func functions(_ f: ExprFailure) {
        #expect(ExprFixture.parseError(f.text) == ExpressionParseError(message: Message(verbatim: f.message), offset: f.offset))
    }

    @Test(arguments: [
        ExprFailure("", "the expression is empty", at: 0),
        ExprFailure("   ", "the expression is empty", at: 0),
        ExprFailure("1 +", "expected a value at the end of the expression", at: 3),
        ExprFailure("* 2", "expected a value, found '*'", at: 0),
        ExprFailure("(1 + 2", "expected ')' to close the '(', found the end of the expression", at: 6),
        ExprFailure("(1 + 2]", "expected ')' to close the '(', found ']'", at: 6),
        ExprFailure("1 + 2)", "unmatched ')'", at: 5),
        ExprFailure("state.a state.b", "expected an operator or the end of the expression, found 'state'", at: 8),
        ExprFailure("state.vip and true", "expected an operator, found 'and'; write '&&'", at: 10),
        ExprFailure("state.amount = 5", "'=' is not an operator; write '==' to compare", at: 13),
        ExprFailure("true & false", "'&' is not an operator; write '&&'", at: 5),
        ExprFailure("true | false", "'|' is not an operator; write '||'", at: 5),
        ExprFailure("1 @ 2", "unexpected character '@'", at: 2),
        ExprFailure("'abc", "the text starting here is not closed; end it with '", at: 0),
        ExprFailure("1 + \"abc", "the text starting here is not closed; end it with \"", at: 4),
        ExprFailure("'a\\tb'", "unknown escape '\\t' in text; the escapes are \\', \\\", \\\\ and \\n", at: 2),
        ExprFailure("'abc\\", "the text starting here is not closed; end it with '", at: 0),
        ExprFailure("1.", "expected digits after the '.' of a number", at: 0),
        ExprFailure("1e999", "the number '1e999' is too large", at: 0),
        ExprFailure("9223372036854775808", "the integer 9223372036854775808 does not fit in an int (the largest is 9223372036854775807)", at: 0),
        ExprFailure("-9223372036854775809", "the integer -9223372036854775809 does not fit in an int (the smallest is -9223372036854775808)", at: 0),
        ExprFailure("state", "'state' is read through a key, as in 'state.amount'", at: 0),
        ExprFailure("result + 1", "'result' is read through a key, as in 'result.amount'", at: 0),
        ExprFailure("state.", "expected a key name after 'state.', found the end of the expression", at: 6),
        ExprFailure("result.1", "expected a key name after 'result.', found '1'", at: 7),
        ExprFailure("state.amount.cents", "state key 'amount' holds no fields; read it as 'state.amount'", at: 12),
        ExprFailure("state.été", "'été' is not a valid key name: names start with an ASCII letter or '_' and go on with letters, digits or '_'", at: 6),
        ExprFailure("true ? 1", "expected ':' to go with the '?', found the end of the expression", at: 8),
        ExprFailure("true ? 1 , 2", "expected ':' to go with the '?', found ','", at: 9),
        ExprFailure("1 in 2", "expected '[' after 'in', as in 'x in [a, b]', found '2'", at: 5),
        ExprFailure("1 in [1, 2", "expected ',' or ']' in the list after 'in', found the end of the expression", at: 10),
        ExprFailure("1 in [1, ]", "expected a value, found ']'", at: 9),
        ExprFailure("[1, 2]", "a list is only allowed after 'in', as in 'state.tariff in ['economy', 'business']'", at: 0),
        ExprFailure("in", "expected a value, found 'in'", at: 0),
    ])
    func syntaxErrors(_ f: ExprFailure) {
        #expect(ExprFixture.parseError(f.text) == ExpressionParseError(message: Message(verbatim: f.message), offset: f.offset))
    }

    @Test func lexerErrorsComeInTextOrder() {
        #expect(ExprFixture.parseError("economy 'abc")?.message == "unknown name 'economy'; to compare with text, quote it: 'economy'")
        #expect(ExprFixture.parseError("1 + ) 'abc")?.message == "expected a value, found ')'")
    }

    // MARK: - Limits

    @Test func deepParenthesesGiveAClearError() {
        let text = String(repeating: "(", count: 1000) + "1" + String(repeating: ")", count: 1000)
        #expect(ExprFixture.parseError(text) == ExpressionParseError(message: "the expression nests more than 64 levels deep; simplify it", offset: 64))
        let unclosed = String(repeating: "(", count: 4000)
        #expect(ExprFixture.parseError(unclosed)?.offset == 64)
    }

    @Test func sixtyFourLevelsAreFine() {
        let parens = String(repeating: "(", count: 64) + "1" + String(repeating: ")", count: 64)
        #expect(ExprFixture.value(parens) == .int(1))
        let nots = String(repeating: "!", count: 64) + "true"
        #expect(ExprFixture.value(nots) == .bool(true))
        let sum = "1" + String(repeating: " + 1", count: 64)
        #expect(ExprFixture.value(sum) == .int(65))
        let ternaries = String(repeating: "false ? 0 : ", count: 64) + "7"
        #expect(ExprFixture.value(ternaries) == .int(7))
    }

    @Test func deepOperatorsGiveAClearError() {
        #expect(ExprFixture.parseError(String(repeating: "!", count: 1000) + "true")?.offset == 64)
        #expect(ExprFixture.parseError(String(repeating: "- ", count: 1000) + "1")?.message.contains("64 levels") == true)
        let sum = "1" + String(repeating: " + 1", count: 65)
        #expect(ExprFixture.parseError(sum) == ExpressionParseError(message: "the expression nests more than 64 levels deep; simplify it", offset: 258))
        #expect(ExprFixture.parseError(String(repeating: "true ? 1 : ", count: 300) + "2")?.message.contains("64 levels") == true)
        #expect(ExprFixture.parseError("1 in [" + String(repeating: "(", count: 100) + "1" + String(repeating: ")", count: 100) + "]")?.message.contains("64 levels") == true)
        #expect(ExprFixture.parseError(String(repeating: "1 in [", count: 100))?.message.contains("64 levels") == true)
    }

    @Test func longTextIsRefused() {
        let longest = "'" + String(repeating: "x", count: 4094) + "'"
        #expect(ExprFixture.value(longest) == .string(String(repeating: "x", count: 4094)))
        let tooLong = "'" + String(repeating: "x", count: 4095) + "'"
        #expect(ExprFixture.parseError(tooLong) == ExpressionParseError(message: "the expression is longer than 4096 characters", offset: 4096))
        let huge = String(repeating: "(", count: 200_000)
        #expect(ExprFixture.parseError(huge)?.offset == 4096)
    }

    // MARK: - Fuzz

    /// A small deterministic generator (SplitMix64), so that a failing input can be reproduced.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func randomTextNeverCrashes() {
        var generator = SplitMix(state: 0xF10_0C17)
        let pieces = ["state.", "result.", "amount", "tariff", "note", "user", "name", "exists(", "in", "[", "]", ",", "(", ")",
                      "!", "-", "*", "/", "%", "+", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "?", ":", ".", "=", "&", "|",
                      "'", "\"", "\\", "'economy'", "\"x\\n\"", "0", "1", "9223372036854775807", "9223372036854775808", "1.5",
                      "1e308", "true", "false", "null", "foo(", " ", "\n", "é", "🙂", "\u{0}", "\t", "economy", "1.", "e"]
        let scalarPool = Array("abc xyz019.()[]!-*/%+<>=&|?:,'\"\\\n\té🙂".unicodeScalars)
        let scope = ExprFixture.scope(result: ["amount": .int(3), "user": .object(["name": .string("a")])])
        var parsed = 0
        for round in 0..<10_000 {
            var text = ""
            let length = Int.random(in: 0...24, using: &generator)
            if round % 3 == 2 {
                text = Self.randomExpression(depth: 4, using: &generator)
            }
            for _ in 0..<(round % 3 == 2 ? 0 : length) {
                if round % 3 == 0 {
                    text.unicodeScalars.append(scalarPool.randomElement(using: &generator)!)
                } else {
                    text += pieces.randomElement(using: &generator)!
                }
            }
            switch ExpressionParser.parse(ExpressionSource(text: text, position: .start)) {
            case .success(let expression):
                parsed += 1
                _ = try? expression.evaluate(in: scope)
                _ = try? expression.evaluate(in: ExprFixture.scope(state: [:]))
            case .failure(let error):
                #expect(error.offset >= 0 && error.offset <= text.unicodeScalars.count, "\(text.debugDescription): \(error)")
                #expect(!error.message.isEmpty)
            }
        }
        #expect(parsed > 3_000, "the fuzz inputs should include valid expressions")
    }

    /// A random expression of the grammar, nested at most `depth` levels.
    static func randomExpression(depth: Int, using generator: inout SplitMix) -> String {
        let leaves = ["0", "1", "-3", "2.5", "9223372036854775807", "'economy'", "'x'", "\"\"", "true", "false", "null",
                      "state.amount", "state.count", "state.total", "state.tariff", "state.note", "state.nme",
                      "result.amount", "result.user.name", "result.nope", "exists(state.note)", "exists(result.user)"]
        guard depth > 0, Int.random(in: 0..<4, using: &generator) != 0 else { return leaves.randomElement(using: &generator)! }
        let a = randomExpression(depth: depth - 1, using: &generator)
        let b = randomExpression(depth: depth - 1, using: &generator)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return "(\(a))"
        case 1: return ["!", "-"].randomElement(using: &generator)! + a
        case 2: return "\(randomExpression(depth: depth - 1, using: &generator)) ? \(a) : \(b)"
        case 3: return "\(a) in [\(b), \(randomExpression(depth: depth - 1, using: &generator))]"
        default:
            let op = ["*", "/", "%", "+", "-", "<", "<=", ">", ">=", "==", "!=", "&&", "||"].randomElement(using: &generator)!
            return "\(a) \(op) \(b)"
        }
    }

    @Test func randomNestingNeverCrashes() {
        var generator = SplitMix(state: 42)
        let openers = ["(", "!", "-", "true ? 1 : ", "1 + ", "1 in [", "exists(", "[", "false || "]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...1_500, using: &generator) { text += openers.randomElement(using: &generator)! }
            text += "1"
            for _ in 0..<Int.random(in: 0...200, using: &generator) { text += [")", "]", " : 2"].randomElement(using: &generator)! }
            if case .success(let expression) = ExpressionParser.parse(ExpressionSource(text: text, position: .start)) {
                _ = try? expression.evaluate(in: ExprFixture.scope())
            }
        }
    }
}
