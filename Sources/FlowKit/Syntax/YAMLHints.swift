/// What a YAML syntax error most likely means in a flow file, said after libyaml's own words (docs/format.md,
/// "Files"): the mistakes flow authors make that YAML reads as something else.
enum YAMLHints {
    /// The hint for `*:`, the shared step written unquoted.
    static let unquotedStar = "'*' starts a YAML alias; the step shared by every step is written in quotes: \"*\":"

    /// A hint for the error `problem` (with libyaml's `context`), met on `line`; the construct it is in started on
    /// `contextLine`. Nil when none of the known mistakes fits.
    static func hint(problem: String, context: String?, line: String, contextLine: String) -> String? {
        // `*:` for the '"*"' step: `*` starts an alias in YAML.
        if (context ?? "").contains("alias") || problem.contains("alias") {
            let trimmed = contextLine.drop { $0 == " " || $0 == "-" }
            if trimmed.hasPrefix("*:") || trimmed.hasPrefix("* :") {
                return unquotedStar
            }
            return "'*' starts a YAML alias; quote text that starts with it"
        }
        // A value that starts with quoted text and goes on after it: YAML took the quotes as its own.
        for text in [line, contextLine] {
            if let quoted = quotedStart(of: text) {
                return "YAML read \(quoted.quote)\(quoted.body)\(quoted.quote) as the whole value and cannot read what follows it; "
                    + "an expression with quoted text goes inside another pair of quotes: \(quoted.key)\(quoted.other)\(quoted.value)\(quoted.other)"
            }
        }
        // An unquoted `c ? a : b`: YAML reads `? ` and `: ` as its own indicators.
        for text in [line, contextLine] {
            if let value = unquotedConditional(in: text) {
                return "an expression with '? :' must be quoted, as YAML reads ': ' as the start of a value: \"\(value)\""
            }
        }
        return nil
    }

    /// `key: 'text' more` (or `- 'text' more`): the key part, the quote, the quoted body, the rest of the value and
    /// the other quote character.
    private static func quotedStart(of line: String) -> (key: String, quote: Character, body: Substring, value: String, other: Character)? {
        let scalars = Array(line)
        var index = 0
        while index < scalars.count, scalars[index] == " " || scalars[index] == "-" { index += 1 }
        // After a `key: ` or a `- `, the value.
        var valueStart = index
        var separator = index
        while separator + 1 < scalars.count, !(scalars[separator] == ":" && scalars[separator + 1] == " ") {
            if scalars[separator] == "'" || scalars[separator] == "\"" || scalars[separator] == "{" || scalars[separator] == "[" { break }
            separator += 1
        }
        if separator + 1 < scalars.count, scalars[separator] == ":", scalars[separator + 1] == " " { valueStart = separator + 2 }
        while valueStart < scalars.count, scalars[valueStart] == " " { valueStart += 1 }
        guard valueStart < scalars.count, scalars[valueStart] == "'" || scalars[valueStart] == "\"" else { return nil }
        let quote = scalars[valueStart]
        // The closing quote: `''` inside single quotes and `\"` inside double quotes are escapes, not ends.
        var close = valueStart + 1
        while close < scalars.count {
            if quote == "'", scalars[close] == "'", close + 1 < scalars.count, scalars[close + 1] == "'" {
                close += 2
            } else if quote == "\"", scalars[close] == "\\" {
                close += 2
            } else if scalars[close] == quote {
                break
            } else {
                close += 1
            }
        }
        guard close < scalars.count else { return nil }
        var rest = close + 1
        while rest < scalars.count, scalars[rest] == " " { rest += 1 }
        // What follows the closing quote must be more of the value: not the end, a comment, flow punctuation, or
        // the ':' of a quoted key.
        guard rest < scalars.count, ![",", "}", "]", "#", ":"].contains(scalars[rest]) else { return nil }
        let value = String(scalars[valueStart...]).trimmingSuffix { $0 == " " }
        let other: Character = quote == "'" ? "\"" : "'"
        guard !value.contains(other) else { return nil }
        let key = String(scalars[..<valueStart]).drop { $0 == " " || $0 == "-" }
        return (String(key), quote, Substring(String(scalars[(valueStart + 1)..<close])), value, other)
    }

    /// The text of a `c ? a : b` written as a plain value on `line` (after `key: `), or nil.
    private static func unquotedConditional(in line: String) -> String? {
        // The value is after the last `: ` before the ` ? ` (in a flow mapping, the key's own).
        guard let question = line.range(of: " ? "), let colon = line[..<question.lowerBound].range(of: ": ", options: .backwards) else { return nil }
        var value = line[colon.upperBound...].drop { $0 == " " }
        if let comment = value.range(of: " #") { value = value[..<comment.lowerBound] }
        guard let first = value.first, first != "'", first != "\"", first != "{", first != "[",
              let question = value.range(of: " ? "), let otherwise = value[question.upperBound...].range(of: " : ") else { return nil }
        // In a flow mapping the value ends at the next ',' or '}' after its ': '.
        if let end = value[otherwise.upperBound...].firstIndex(where: { $0 == "," || $0 == "}" }) { value = value[..<end] }
        while let last = value.last, last == " " { value = value.dropLast() }
        return String(value)
    }
}

extension String {
    /// The string without the trailing characters that satisfy `predicate`.
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return String(self[..<end])
    }
}
