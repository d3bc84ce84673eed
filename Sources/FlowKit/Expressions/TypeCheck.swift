/// A value that does not fit a declared type, and why.
struct TypeMismatch: Error, Equatable, Sendable {
    /// What does not fit, lowercase, naming keys and values in single quotes.
    package let message: String

    /// Creates a mismatch.
    package init(message: Message) {
        self.message = message.text
    }
}

/// Converts values to declared types for storing them (`set`, results, path parameters).
enum TypeCheck {
    /// Converts `value` to `type`: an int becomes a number for `number`, a number for `int` is an error, enum
    /// membership is checked, null fits only optionals, and objects are checked field by field against result shapes.
    package static func coerce(_ value: Value, to type: TypeRef) -> Result<Value, TypeMismatch> {
        do {
            return .success(try convert(value, to: type, at: nil))
        } catch {
            return .failure(error)
        }
    }

    /// Checks a step's result against its declared shape: every non-optional key present, no unknown key, every
    /// value of its declared type (converted as `coerce` does).
    package static func coerce(fields: [String: Value], to shape: [Field]) -> Result<[String: Value], TypeMismatch> {
        do {
            return .success(try convert(fields: fields, to: shape, at: nil))
        } catch {
            return .failure(error)
        }
    }

    /// Converts text (a deep-link path parameter) to a declared type: `"500"` is `.int(500)` for `int`, `"1.5"` is
    /// `.number(1.5)` for `number`, `"true"` is `.bool(true)` for `bool`; text never reads as null.
    package static func parse(text: String, as type: TypeRef) -> Result<Value, TypeMismatch> {
        let shown = text
        switch type.base {
        case .string:
            return .success(.string(text))
        case .int:
            if let number = Int64(text) { return .success(.int(number)) }
            let digits = text.drop { $0 == "-" || $0 == "+" }
            if !digits.isEmpty, text.count - digits.count <= 1, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                return .failure(TypeMismatch(message: "'\(name: shown)' is too large for an int"))
            }
            return .failure(TypeMismatch(message: "'\(name: shown)' is not an int"))
        case .number:
            guard isDecimal(text), let number = Double(text), number.isFinite else {
                return .failure(TypeMismatch(message: "'\(name: shown)' is not a number"))
            }
            return .success(.number(number))
        case .bool:
            switch text {
            case "true": return .success(.bool(true))
            case "false": return .success(.bool(false))
            default: return .failure(TypeMismatch(message: "'\(name: shown)' is not a bool (true or false)"))
            }
        case .enumeration(let values):
            guard values.contains(where: { same($0, text) }) else {
                return .failure(TypeMismatch(message: "'\(name: shown)' is not one of \(verbatim: list(values))\(verbatim: Suggestions.didYouMean(text, in: values))"))
            }
            return .success(.string(text))
        case .object:
            return .failure(TypeMismatch(message: "an object cannot be read from the text '\(name: shown)'"))
        }
    }

    // MARK: - Conversion

    /// `"key 'a.b': "` for a value inside an object, nothing at the top.
    private static func prefix(_ path: String?) -> String {
        path.map { "key '\($0)': " } ?? ""
    }

    private static func convert(_ value: Value, to type: TypeRef, at path: String?) throws(TypeMismatch) -> Value {
        if value == .null {
            guard type.optional else {
                throw TypeMismatch(message: "\(verbatim: prefix(path))expected \(verbatim: describe(type)), found null (the type is not optional)")
            }
            return .null
        }
        switch (type.base, value) {
        case (.int, .int), (.string, .string), (.bool, .bool):
            return value
        case (.number, .int(let number)):
            return .number(Double(number))
        case (.number, .number(let number)):
            guard number.isFinite else { throw TypeMismatch(message: "\(verbatim: prefix(path))expected a finite number, found \(number)") }
            return value
        case (.enumeration(let values), .string(let text)):
            guard values.contains(where: { same($0, text) }) else {
                let hint = Suggestions.didYouMean(text, in: values)
                throw TypeMismatch(message: "\(verbatim: prefix(path))'\(name: text)' is not one of \(verbatim: list(values))\(verbatim: hint)")
            }
            return value
        case (.object(let shape), .object(let fields)):
            return .object(try convert(fields: fields, to: shape, at: path))
        default:
            throw TypeMismatch(message: "\(verbatim: prefix(path))expected \(verbatim: describe(type)), found \(verbatim: value.shortDescription)")
        }
    }

    private static func convert(fields: [String: Value], to shape: [Field], at path: String?) throws(TypeMismatch) -> [String: Value] {
        func qualified(_ key: String) -> String { path.map { "\($0).\(key)" } ?? key }
        var converted: [String: Value] = [:]
        for field in shape {
            let key = field.name.text
            guard let value = fields[key] else {
                if field.type.optional { continue }
                throw TypeMismatch(message: "missing key '\(path: qualified(key))'")
            }
            converted[key] = try convert(value, to: field.type, at: qualified(key))
        }
        let declared = shape.map(\.name.text)
        if let unknown = fields.keys.sorted().first(where: { !declared.contains($0) }) {
            let hint = Suggestions.didYouMean(unknown, in: declared)
            throw TypeMismatch(message: "unknown key '\(name: qualified(unknown))'\(verbatim: hint)")
        }
        return converted
    }

    /// A type with its article, for messages: "an int", "one of 'economy', 'business'", "an object".
    static func describe(_ type: TypeRef) -> String {
        switch type.base {
        case .int: return "an int"
        case .number: return "a number"
        case .string: return "a string"
        case .bool: return "a bool"
        case .enumeration(let values): return "one of \(list(values))"
        case .object: return "an object"
        }
    }

    private static func list(_ values: [String]) -> String {
        Message.quoted(values).text
    }

    private static func same(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.elementsEqual(b.unicodeScalars)
    }

    /// Whether `text` is a plain decimal number: an optional sign, digits, an optional fraction and exponent.
    private static func isDecimal(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Bool {
            let before = bytes.count
            while let byte = bytes.first, byte >= 0x30, byte <= 0x39 { bytes.removeFirst() }
            return bytes.count < before
        }
        if let sign = bytes.first, sign == 0x2B || sign == 0x2D { bytes.removeFirst() }
        guard digits() else { return false }
        if bytes.first == 0x2E {
            bytes.removeFirst()
            guard digits() else { return false }
        }
        if let e = bytes.first, e == 0x65 || e == 0x45 {
            bytes.removeFirst()
            if let sign = bytes.first, sign == 0x2B || sign == 0x2D { bytes.removeFirst() }
            guard digits() else { return false }
        }
        return bytes.isEmpty
    }
}
