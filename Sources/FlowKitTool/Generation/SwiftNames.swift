import FlowKit

/// How flow names become Swift names and text becomes Swift literals in generated code (docs/format.md,
/// "Generated Swift", Names).
enum SwiftNames {
    /// Swift's keywords: written in backquotes when a flow name is one.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
        "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_", "async", "some", "any",
        "consume", "copy", "borrowing", "consuming", "discard", "each", "macro", "nonisolated", "package", "sending",
    ]

    /// Names that even in backquotes mean something else after a dot (`X.self`, `X.Type`; `.none` and `.some` where
    /// an optional is expected), or that the generated types already have (`CodingKeys` of a `Codable` struct,
    /// `hashValue` of a `Hashable` one): a `_` is appended.
    static let reserved: Set<String> = ["self", "Self", "Type", "Protocol", "init", "_", "CodingKeys", "hashValue", "none", "some"]

    /// Type names a generated nested type must not take, since the generated code names the modules and the
    /// standard types through them: a `_` is appended.
    static let reservedTypes: Set<String> = ["Swift", "FlowKit", "Self", "Type", "Protocol", "Any", "AnyObject", "CodingKeys"]

    /// The member name (a case, a property, a label) for the flow name `name`, before backquotes.
    static func member(_ name: String) -> String {
        reserved.contains(name) ? name + "_" : name
    }

    /// `name` as written in code: in backquotes when it is a keyword.
    static func code(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `name` as an argument label in a call: every keyword but `inout` is a label as it is (Swift warns about
    /// backquotes there).
    static func label(_ name: String) -> String {
        name == "inout" ? "`inout`" : name
    }

    /// A type name made of `name`: its first letter upper-cased, `_` appended when it is reserved.
    static func type(_ name: String) -> String {
        let typeName = capitalized(name)
        return reservedTypes.contains(typeName) ? typeName + "_" : typeName
    }

    /// `name` with its first letter upper-cased: the stem of a type name with a suffix (`AmountResult`).
    static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The case name for an enum value's text, in lower camel case (docs/format.md, "Generated Swift", Names): its
    /// words (runs of ASCII letters and digits, split again at a lower-case letter or digit before a capital and
    /// before the last capital of a run followed by a lower-case letter); all lower-cased when the text has no
    /// lower-case letter, else a first word in capitals lower-cased; later words capitalized; `_` first when it would
    /// start with a digit, `value` when there is no word.
    static func enumCase(_ text: String) -> String {
        func kind(_ scalar: Unicode.Scalar) -> Character? {
            guard scalar.isASCII else { return nil }
            if ("a"..."z").contains(scalar) { return "l" }
            if ("A"..."Z").contains(scalar) { return "u" }
            if ("0"..."9").contains(scalar) { return "d" }
            return nil
        }
        var words: [[Unicode.Scalar]] = []
        var word: [Unicode.Scalar] = []
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            guard let current = kind(scalar) else {
                if !word.isEmpty { words.append(word); word = [] }
                continue
            }
            if let last = word.last.flatMap(kind), current == "u" {
                let next = index + 1 < scalars.count ? kind(scalars[index + 1]) : nil
                // `aB`, `a1B` → a new word at `B`; `URLPath` → a new word at the `P` before `a`.
                if last != "u" || next == "l" { words.append(word); word = [] }
            }
            word.append(scalar)
        }
        if !word.isEmpty { words.append(word) }
        guard !words.isEmpty else { return "value" }
        let screaming = !scalars.contains { kind($0) == "l" }
        var parts = words.map { String(String.UnicodeScalarView($0)) }
        for index in parts.indices where screaming || (index == 0 && !parts[index].contains(where: \.isLowercase)) {
            parts[index] = parts[index].lowercased()
        }
        var name = parts[0].prefix(1).lowercased() + parts[0].dropFirst()
        for part in parts.dropFirst() { name += part.prefix(1).uppercased() + part.dropFirst() }
        if let initial = name.unicodeScalars.first, ("0"..."9").contains(initial) { name = "_" + name }
        return member(name)
    }

    /// `base`, or `base` with `_` appended until it is not in `taken`; the name returned is added to `taken`.
    static func unique(_ base: String, in taken: inout Set<String>) -> String {
        var name = base
        while taken.contains(name) { name += "_" }
        taken.insert(name)
        return name
    }

    /// `text` as a Swift string literal on one line, every character that is not printable ASCII or a letter
    /// escaped, so that no text of a flow can end the literal, start an interpolation or forge a line.
    static func literal(_ text: String) -> String {
        "\"" + escaped(text, newlines: true) + "\""
    }

    /// `text` as the lines of a Swift multi-line string literal indented by `indent`, giving back exactly `text`.
    static func multilineLiteral(_ text: String, indent: String) -> String {
        var lines = [indent + "\"\"\""]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let body = escaped(String(line), newlines: false)
            lines.append(body.isEmpty ? "" : indent + body)
        }
        lines.append(indent + "\"\"\"")
        return lines.joined(separator: "\n")
    }

    /// The escaped body of a literal: `\`, `"`, and every control, format or separator character.
    private static func escaped(_ text: String, newlines: Bool) -> String {
        var output = ""
        var quotes = 0
        for scalar in text.unicodeScalars {
            quotes = scalar == "\"" ? quotes + 1 : 0
            switch scalar {
            case "\\": output += "\\\\"
            // On one line every quote is escaped; in a multi-line literal only every third of a run, so that no
            // `"""` ends it.
            case "\"" where newlines || quotes == 3:
                output += "\\\""
                quotes = 0
            case "\n": output += newlines ? "\\n" : "\\u{A}"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                    output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                default:
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }

    /// `text` fit for a `///` comment: on one line, control and separator characters dropped.
    static func comment(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: output += " "
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
