import FlowKit

/// Random values that fit declared types: ints (0 and negatives included), numbers, text, enum values, nested
/// shapes; optional keys are sometimes left out and sometimes `null`.
public enum ValueGenerator {
    /// A value of `type` (never `null`).
    public static func value(_ type: TypeRef, _ rng: inout SplitMix64) -> Value {
        switch type.base {
        case .int:
            return .int(rng.chance(0.6) ? Int64(rng.pick([0, 1, -1, 2, 5, 99, 100, 101, 150, -7])) : Int64(rng.int(in: -200...300)))
        case .number:
            // An int fits a number key too (it becomes a number).
            if rng.chance(0.2) { return .int(Int64(rng.pick([0, 3, -2, 100]))) }
            return .number(rng.pick([0.0, 0.5, -1.5, 2.5, 99.5, 100.0, 150.25, -0.25]))
        case .string:
            return .string(rng.pick(["", "a", "gold", "x y", "Ann", "hi"]))
        case .bool:
            return .bool(rng.chance(0.5))
        case .enumeration(let values):
            return .string(rng.pick(values))
        case .object(let fields):
            return .object(object(fields.map { ($0.name.text, $0.type) }, &rng))
        }
    }

    /// A value for a key of `type`: for an optional type, sometimes `null`.
    public static func valueOrNull(_ type: TypeRef, _ rng: inout SplitMix64) -> Value {
        type.optional && rng.chance(0.3) ? .null : value(type, &rng)
    }

    private static func object(_ fields: [(String, TypeRef)], _ rng: inout SplitMix64) -> [String: Value] {
        var values: [String: Value] = [:]
        for (key, type) in fields {
            if type.optional {
                let roll = rng.below(10)
                if roll < 2 { continue }
                values[key] = roll < 4 ? .null : value(type, &rng)
            } else {
                values[key] = value(type, &rng)
            }
        }
        return values
    }

    /// A result that fits the declared shape `types`: every non-optional key present with a value of its type;
    /// optional keys sometimes left out, sometimes `null`.
    public static func result(_ types: [String: TypeRef], _ rng: inout SplitMix64) -> [String: Value] {
        object(types.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, &rng)
    }

    /// Text that converts to a value of `type`, as a deep link's path parameter carries it.
    public static func text(_ type: TypeRef, _ rng: inout SplitMix64) -> String {
        switch value(type, &rng) {
        case .int(let number): return String(number)
        case .number(let number): return String(number)
        case .string(let text): return text.isEmpty ? "x" : text
        case .bool(let flag): return flag ? "true" : "false"
        case .null, .object: return ""
        }
    }
}
