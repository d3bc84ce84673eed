/// A runtime value of the flow language.
public enum Value: Hashable, Sendable, CustomStringConvertible {
    /// No value: an optional key that is not set, or the literal `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A 64-bit integer (`int`).
    case int(Int64)
    /// A finite floating-point number (`number`).
    case number(Double)
    /// Text; enum values are stored as text too.
    case string(String)
    /// A nested result shape (`result.user.name`).
    case object([String: Value])

    /// The value spelt as an expression literal: `null`, `true`, `12`, `1.5`, `'text'`; objects as `{a: 1, b: 'x'}` with sorted keys.
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .number(let number): return String(number)
        case .string(let text): return Value.quoted(text)
        case .object(let fields):
            let items = fields.keys.sorted().map { "\($0): \(fields[$0]!.description)" }
            return "{" + items.joined(separator: ", ") + "}"
        }
    }

    /// The kind of the value with its article, for messages: "an int", "a number", "a string", "a bool", "null", "an object".
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a bool"
        case .int: return "an int"
        case .number: return "a number"
        case .string: return "a string"
        case .object: return "an object"
        }
    }

    /// The kind and the value, for messages: "the int 5", "the string 'abc'", "null", "an object".
    var shortDescription: String {
        switch self {
        case .null: return "null"
        case .object: return "an object"
        case .bool, .int, .number: return "the \(kindDescription.split(separator: " ").last!) \(description)"
        case .string(let text): return ("the string '\(name: text)'" as Message).text
        }
    }

    /// The value a document node holds: scalars as their kind says, mappings as objects; nil for a list (or a
    /// mapping holding one), which no flow type describes.
    package init?(node: Node) {
        switch node.value {
        case .scalar(let scalar):
            switch scalar.kind {
            case .null: self = .null
            case .bool(let flag): self = .bool(flag)
            case .int(let number): self = .int(number)
            case .number(let number): self = .number(number)
            case .string: self = .string(scalar.text)
            }
        case .sequence:
            return nil
        case .mapping(let entries):
            var fields: [String: Value] = [:]
            for entry in entries {
                guard let value = Value(node: entry.value) else { return nil }
                fields[entry.key] = value
            }
            self = .object(fields)
        }
    }

    /// `text` as a single-quoted expression literal, with `\'`, `\\` and `\n` escaped.
    static func quoted(_ text: String) -> String {
        var output = "'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "'": output += "\\'"
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "'"
    }
}

extension Value {
    /// The integer an `int` holds, when it fits an `Int`; nil for any other value. Generated Swift reads state
    /// through it.
    public var intValue: Int? {
        if case .int(let number) = self { return Int(exactly: number) }
        return nil
    }

    /// The number a `number` holds, or an `int` as a number; nil for any other value.
    public var doubleValue: Double? {
        switch self {
        case .number(let number): return number
        case .int(let number): return Double(number)
        default: return nil
        }
    }

    /// The text a `string` (or an enum value) holds; nil for any other value.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The flag a `bool` holds; nil for any other value.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The fields an `object` holds; nil for any other value.
    public var objectValue: [String: Value]? {
        if case .object(let fields) = self { return fields }
        return nil
    }
}

extension Value {
    /// The value as JSON text.
    package var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .number(let number): return number.isFinite ? "\(number)" : "null"
        case .string(let text): return JSONText.string(text)
        case .object(let fields):
            return "{" + fields.sorted { $0.key < $1.key }.map { "\(JSONText.string($0.key)): \($0.value.jsonText)" }.joined(separator: ", ") + "}"
        }
    }
}
