import Testing
@testable import FlowKit

/// Shared fixtures for the expression tests: declared types, scopes and shorthands for parsing and evaluating.
enum ExprFixture {
    static func type(_ base: TypeRef.Base, optional: Bool = false) -> TypeRef {
        TypeRef(base: base, optional: optional, position: .start)
    }

    static func field(_ name: String, _ type: TypeRef) -> Field {
        Field(name: Name(name, at: .start), type: type)
    }

    /// The declared state of the fixtures.
    static let stateTypes: [String: TypeRef] = [
        "amount": type(.int),
        "count": type(.int),
        "total": type(.number),
        "name": type(.string),
        "vip": type(.bool),
        "tariff": type(.enumeration(["economy", "business"])),
        "plan": type(.enumeration(["economy", "premium"])),
        "note": type(.string, optional: true),
        "age": type(.int, optional: true),
        "smallest": type(.int),
    ]

    /// A state with every non-optional key set.
    static let fullState: [String: Value] = [
        "amount": .int(500),
        "count": .int(4),
        "total": .number(250.5),
        "name": .string("Ann"),
        "vip": .bool(true),
        "tariff": .string("economy"),
        "plan": .string("economy"),
        "smallest": .int(.min),
    ]

    static func scope(state: [String: Value] = fullState, result: [String: Value]? = nil,
                      resultTypes: [String: TypeRef]? = nil) -> EvaluationScope {
        EvaluationScope(state: state, stateTypes: stateTypes, result: result, resultTypes: resultTypes)
    }

    /// The parsed expression, or nil (with a recorded issue) when it does not parse.
    static func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> FlowKit.FlowExpression? {
        switch ExpressionParser.parse(ExpressionSource(text: text, position: .start)) {
        case .success(let expression): return expression
        case .failure(let error):
            Issue.record("'\(text)' does not parse: \(error.message) at \(error.offset)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The parse error of `text`, or nil (with a recorded issue) when it parses.
    static func parseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ExpressionParseError? {
        switch ExpressionParser.parse(ExpressionSource(text: text, position: .start)) {
        case .success:
            Issue.record("'\(text)' parses but should not", sourceLocation: sourceLocation)
            return nil
        case .failure(let error): return error
        }
    }

    /// The value of `text` in `scope`, or nil (with a recorded issue) on any error.
    static func value(_ text: String, in scope: EvaluationScope = scope(), sourceLocation: SourceLocation = #_sourceLocation) -> Value? {
        guard let expression = parse(text, sourceLocation: sourceLocation) else { return nil }
        do {
            return try expression.evaluate(in: scope)
        } catch {
            Issue.record("'\(text)' fails: \(error.message) at \(error.offset)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The run error of `text` in `scope`, or nil (with a recorded issue) when it parses and evaluates fine.
    static func runError(_ text: String, in scope: EvaluationScope = scope(), sourceLocation: SourceLocation = #_sourceLocation) -> Said? {
        failure(text, in: scope, sourceLocation: sourceLocation).map { Said(message: $0.message, offset: $0.offset) }
    }

    /// The whole evaluation error of `text`, kind included; nil (and a recorded issue) when it does not fail.
    static func failure(_ text: String, in scope: EvaluationScope = scope(), sourceLocation: SourceLocation = #_sourceLocation) -> EvaluationError? {
        guard let expression = parse(text, sourceLocation: sourceLocation) else { return nil }
        do {
            let value = try expression.evaluate(in: scope)
            Issue.record("'\(text)' gives \(value) but should fail", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }
}

/// One expression and the value it must give in the fixture scope.
struct ExprCase: CustomTestStringConvertible, Sendable {
    let text: String
    let expected: Value

    init(_ text: String, _ expected: Value) {
        self.text = text
        self.expected = expected
    }

    var testDescription: String { "\(text) == \(expected)" }
}

/// One expression and the error (parse or run) it must give, with the offset it points at.
struct ExprFailure: CustomTestStringConvertible, Sendable {
    let text: String
    let message: String
    let offset: Int

    init(_ text: String, _ message: String, at offset: Int) {
        self.text = text
        self.message = message
        self.offset = offset
    }

    var testDescription: String { text }
}

/// What most evaluation tests compare of a run error: its message and where it points (kinds have tests of their own).
struct Said: Equatable {
    let message: String
    let offset: Int
}
