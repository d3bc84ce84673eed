@testable import FlowKit

/// A declared key: `name` of type `base`, optional or not.
private func field(_ name: String, _ base: TypeRef.Base, optional: Bool = false) -> Field {
    Field(name: Name(name, at: .start), type: TypeRef(base: base, optional: optional, position: .start))
}

/// The enum that the state and the result both declare.
private let tariffs = TypeRef.Base.enumeration(["economy", "business"])

/// The declared state: every base type, an enum and optional keys.
private let stateFields = [
    field("amount", .int), field("fee", .number), field("name", .string), field("tariff", tariffs), field("vip", .bool),
    field("note", .string, optional: true), field("count", .int, optional: true),
]

/// The declared result of the step: every base type, an enum, an optional key and a nested shape.
private let resultFields = [
    field("amount", .int), field("total", .number), field("tariff", tariffs), field("email", .string), field("emailVerified", .bool),
    field("age", .int, optional: true), field("user", .object([field("name", .string), field("age", .int, optional: true)])),
]

/// Every state key set (`note` left unset, so it reads null).
private let fullState: [String: Value] = [
    "amount": .int(250), "fee": .number(1.5), "name": .string("Ada"), "tariff": .string("economy"), "vip": .bool(true), "count": .int(3),
]

/// Some state keys unset, so that reads of them fail at run time.
private let sparseState: [String: Value] = ["amount": .int(-9), "tariff": .string("business")]

/// A result of the declared shape (`age` null, `user.age` absent).
private let result: [String: Value] = [
    "amount": .int(50), "total": .number(99.5), "tariff": .string("business"), "email": .string("a@b.c"), "emailVerified": .bool(false),
    "age": .null, "user": .object(["name": .string("Bo")]),
]

/// The types of `fields` by key, the first of a repeated key winning (as `CompiledFlow` builds them).
private func types(_ fields: [Field]) -> [String: TypeRef] {
    Dictionary(fields.map { ($0.name.text, $0.type) }, uniquingKeysWith: { first, _ in first })
}

/// Whether `value` is one the static type `type` allows: the checker must agree with the evaluator.
private func fits(_ value: Value, _ type: StaticType) -> Bool {
    switch (type, value) {
    case (.unknown, _), (.null, .null), (.optional, .null): return true
    case (.optional(let wrapped), _): return fits(value, wrapped)
    case (.int, .int), (.number, .number), (.number, .int), (.bool, .bool): return true
    case (.string, .string), (.enumeration, .string), (.object, .object): return true
    default: return false
    }
}

/// Evaluates `expression` in `scope` and traps when the value is not of the type the checker inferred in `environment`.
private func check(_ expression: FlowExpression, in scope: EvaluationScope, environment: TypeEnvironment) {
    let inferred = TypeInference.infer(expression, in: environment)
    do {
        let value = try expression.evaluate(in: scope)
        guard fits(value, inferred.type) else {
            fatalError("'\(expression.source.text)' evaluates to \(value), which the inferred type \(inferred.type) does not allow")
        }
        _ = try expression.evaluateCondition(in: scope)
    } catch {
        _ = expression.source.position(ofOffset: error.offset)
    }
}

/// libFuzzer's entry point: parses the bytes (as UTF-8, invalid sequences replaced) as an expression, type-checks it
/// as a value, a condition and a store into every declared key, and evaluates it with a full state and a result, and
/// with a sparse state and none. Besides crashes, a value of a type other than the inferred one is a failure.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let expression: FlowExpression
    switch ExpressionParser.parse(text) {
    case .success(let parsed): expression = parsed
    case .failure(let error):
        _ = ExpressionSource(text: text, position: .start).position(ofOffset: error.offset)
        return 0
    }
    _ = expression.paths
    let environment = TypeEnvironment(state: stateFields, result: .fields(StaticType.fields(resultFields), owner: .step("fuzz")))
    _ = TypeInference.checkCondition(expression, in: environment, what: "the condition")
    for key in stateFields {
        _ = TypeInference.checkAssignment(expression, to: key.type, in: environment, what: "the store into '\(key.name.text)'")
    }
    let stateTypes = types(stateFields)
    check(expression, in: EvaluationScope(state: fullState, stateTypes: stateTypes, result: result, resultTypes: types(resultFields)),
          environment: environment)
    check(expression, in: EvaluationScope(state: sparseState, stateTypes: stateTypes),
          environment: environment.with(result: .absent(reason: "the step completed without a result")))
    return 0
}
