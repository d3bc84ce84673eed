/// Plain (unquoted) YAML scalars in an expression slot whose meaning depends on how they are read
/// (docs/format.md, "Files" and "Expressions"): YAML 1.1 and 1.2 disagree on them, or YAML reads them as a number
/// that an expression would write otherwise. Each is an `expression` finding, never a silent change of meaning.
enum PlainScalarMeaning {
    /// Why the plain scalar `text` (resolved by the YAML reader to `literal`, nil for text) cannot stand in an
    /// expression slot as written, or nil when it means the same to every reader.
    static func problem(_ text: String, literal: Scalar.Kind?) -> Message? {
        let shown: Message = "\(name: text, limit: 40)"
        switch literal {
        case .int(let value)?:
            if isExpressionNumber(text, integer: true) { return nil }
            if hasLeadingZero(text) {
                return "YAML 1.2 reads '\(shown)' as \(value), YAML 1.1 as an octal number; write \(value), or quote the text inside the value: \"'\(shown)'\""
            }
            return "YAML reads '\(shown)' as the number \(value), which an expression writes as \(value); write \(value), or quote the text inside the value: \"'\(shown)'\""
        case .number(let value)? where value.isFinite:
            if isExpressionNumber(text, integer: false) { return nil }
            return "YAML reads '\(shown)' as the number \(value), which an expression writes as \(value); write \(value), or quote the text inside the value: \"'\(shown)'\""
        case .some:
            return nil
        case nil:
            break
        }
        if let flag = yaml11Booleans[text] {
            return "'\(shown)' is text in YAML 1.2, which flowkit reads (YAML 1.1 reads it as \(verbatim: flag ? "true" : "false")); write \(verbatim: flag ? "true" : "false"), "
                + "or quote the text inside the value: \"'\(shown)'\""
        }
        let utf8 = Array(text.utf8)
        if isDate(utf8) {
            return "'\(shown)' is a date in YAML 1.1 and text in YAML 1.2, and an expression would read it as arithmetic; "
                + "quote the text inside the value: \"'\(shown)'\""
        }
        if let value = yaml11Number(utf8) {
            return "YAML 1.1 reads '\(shown)' as the number \(value), YAML 1.2 as text; write \(value), or quote the text inside the value: \"'\(shown)'\""
        }
        return nil
    }

    /// YAML 1.1's booleans that YAML 1.2's core schema reads as text.
    static let yaml11Booleans: [String: Bool] = [
        "y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "on": true, "On": true, "ON": true,
        "n": false, "N": false, "no": false, "No": false, "NO": false, "off": false, "Off": false, "OFF": false,
    ]

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Whether `text` is a number as the expression language writes it: `-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?`
    /// (an integer without the fraction and exponent), with no leading zero before another digit.
    static func isExpressionNumber(_ text: String, integer: Bool) -> Bool {
        let utf8 = Array(text.utf8)
        var index = 0
        if index < utf8.count, utf8[index] == UInt8(ascii: "-") { index += 1 }
        let begin = index
        while index < utf8.count, isDigit(utf8[index]) { index += 1 }
        let whole = index - begin
        guard whole > 0, whole == 1 || utf8[begin] != UInt8(ascii: "0") else { return false }
        if integer { return index == utf8.count }
        if index < utf8.count, utf8[index] == UInt8(ascii: ".") {
            index += 1
            let fraction = index
            while index < utf8.count, isDigit(utf8[index]) { index += 1 }
            if index == fraction { return false }
        }
        if index < utf8.count, utf8[index] == UInt8(ascii: "e") || utf8[index] == UInt8(ascii: "E") {
            index += 1
            if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") { index += 1 }
            let exponent = index
            while index < utf8.count, isDigit(utf8[index]) { index += 1 }
            if index == exponent { return false }
        }
        return index == utf8.count
    }

    /// A decimal integer written with a leading zero (`017`, `-07`): octal in YAML 1.1.
    private static func hasLeadingZero(_ text: String) -> Bool {
        let digits = text.utf8.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
        return digits.count > 1 && digits.first == UInt8(ascii: "0") && digits.allSatisfy(isDigit)
    }

    /// YAML 1.1's timestamp, the whole text: a date `YYYY-MM-DD`, or `YYYY-M-D` followed by a time
    /// (`T`, `t` or blanks, `H:MM:SS`, an optional fraction and zone).
    static func isDate(_ utf8: [UInt8]) -> Bool {
        let text = String(decoding: utf8, as: UTF8.self)
        return text.wholeMatch(of: dateOnly) != nil || text.wholeMatch(of: dateTime) != nil
    }

    nonisolated(unsafe) private static let dateOnly = /[0-9]{4}-[0-9]{2}-[0-9]{2}/
    nonisolated(unsafe) private static let dateTime =
        /[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(\.[0-9]*)?(([ \t]*)Z|[-+][0-9]{1,2}(:[0-9]{2})?)?/

    /// The value YAML 1.1 gives a number that YAML 1.2's core schema reads as text: digits with `_` separators
    /// (`1_000`), binary (`0b101`), and base 60 (`1:30`, `-1:30:15`); nil for anything else, or a value beyond 64
    /// bits.
    static func yaml11Number(_ utf8: [UInt8]) -> Int64? {
        var index = 0
        var negative = false
        if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
            negative = utf8[index] == UInt8(ascii: "-")
            index += 1
        }
        let body = Array(utf8[index...])
        guard let first = body.first, isDigit(first) else { return nil }
        func signed(_ value: Int64) -> Int64 { negative ? -value : value }
        if body.count > 2, body[0] == UInt8(ascii: "0"), body[1] == UInt8(ascii: "b") {
            let bits = body[2...].filter { $0 != UInt8(ascii: "_") }
            guard !bits.isEmpty, bits.allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "1") }),
                  let value = Int64(String(decoding: bits, as: UTF8.self), radix: 2) else { return nil }
            return signed(value)
        }
        if body.contains(UInt8(ascii: ":")) {
            let parts = body.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            var value: Int64 = 0
            for (offset, part) in parts.enumerated() {
                let digits = part.filter { $0 != UInt8(ascii: "_") }
                guard !digits.isEmpty, digits.allSatisfy(isDigit), let number = Int64(String(decoding: digits, as: UTF8.self)),
                      offset == 0 || number < 60 else { return nil }
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 60)
                guard !overflow else { return nil }
                let (sum, overflow2) = shifted.addingReportingOverflow(number)
                guard !overflow2 else { return nil }
                value = sum
            }
            return signed(value)
        }
        guard body.contains(UInt8(ascii: "_")), body.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: "_") }) else { return nil }
        return Int64(String(decoding: body.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)).map(signed)
    }
}
