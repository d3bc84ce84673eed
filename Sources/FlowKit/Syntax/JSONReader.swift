import Foundation

/// Reads JSON text (RFC 8259, strict) into the positioned document tree.
package enum JSONReader {
    /// Parses `bytes` (the raw file contents) of the file named `file`.
    package static func parse(_ bytes: [UInt8], file: String, limits: ReaderLimits = .standard) -> ParsedDocument {
        bytes.withUnsafeBytes { parse($0, file: file, limits: limits) }
    }

    /// Parses the raw file contents in `buffer` of the file named `file`; the buffer is only read during the call.
    package static func parse(_ buffer: UnsafeRawBufferPointer, file: String, limits: ReaderLimits = .standard) -> ParsedDocument {
        if buffer.count > limits.maxBytes {
            let message = "the file is too large: the limit is \(limits.maxBytes) bytes"
            return ParsedDocument(root: nil, diagnostics: [syntaxDiagnostic(file: file, at: .start, message)])
        }
        if buffer.isEmpty {
            return ParsedDocument(root: nil, diagnostics: [syntaxDiagnostic(file: file, at: .start, "the file is empty")])
        }
        return buffer.withMemoryRebound(to: UInt8.self) { bytes in
            var parser = JSONByteParser(bytes: bytes, file: file, limits: limits)
            defer { parser.release() }
            do throws(JSONSyntaxError) {
                let root = try parser.parseDocument()
                return ParsedDocument(root: root, diagnostics: parser.diagnostics)
            } catch {
                let diagnostic = syntaxDiagnostic(file: file, at: error.position, error.message.text)
                return ParsedDocument(root: nil, diagnostics: parser.diagnostics + [diagnostic])
            }
        }
    }

    private static func syntaxDiagnostic(file: String, at position: SourcePosition, _ message: String) -> Diagnostic {
        Diagnostic(file: file, position: position, severity: .error, rule: .syntax, message: message)
    }
}

/// The first syntax error of a document: where it is and what is wrong.
private struct JSONSyntaxError: Error {
    var position: SourcePosition
    var message: Message
}

/// A list or mapping whose closing bracket has not been read yet; its children wait on the parser's stacks from `start` on.
private struct JSONOpenContainer {
    var isObject: Bool
    var position: SourcePosition
    var start: Int
    /// Key to index in the entry stack, built once the mapping has more than a few keys.
    var keyIndex: [String: Int]? = nil
    var key: String = ""
    var keyPosition: SourcePosition = .start
    /// False while reading the value of a duplicate key, which is dropped.
    var keepsValue = true
}

/// The byte-level state machine behind `JSONReader`; iterative, so nesting never deepens the call stack.
private struct JSONByteParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let count: Int
    private let file: String
    private let limits: ReaderLimits
    /// The offset of the next byte to read.
    private var i = 0
    private var line = 1
    /// The offset where the current line starts.
    private var lineStart = 0
    /// UTF-8 continuation bytes read on the current line so far; they do not advance the column.
    private var lineExtra = 0
    private var nodeCount = 0
    private var scratch: [UInt8] = []
    private var containers: [JSONOpenContainer] = []
    private var items = MoveStack<Node>()
    private var entries = MoveStack<Node.Entry>()
    /// The `duplicate_key` findings so far.
    private(set) var diagnostics: [Diagnostic] = []

    /// Mappings with more keys than this look duplicates up in a dictionary instead of scanning.
    private static let linearScanLimit = 16

    init(bytes: UnsafeBufferPointer<UInt8>, file: String, limits: ReaderLimits) {
        self.bytes = bytes
        self.count = bytes.count
        self.file = file
        self.limits = limits
    }

    /// Frees the parser's stacks; call once when done.
    package func release() {
        items.release()
        entries.release()
    }

    // MARK: Document

    mutating func parseDocument() throws(JSONSyntaxError) -> Node {
        if count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            i = 3
            lineStart = 3
        }
        skipWhitespace()
        if i == count { throw JSONSyntaxError(position: .start, message: "the file is empty") }
        let root = try parseValues()
        skipWhitespace()
        if i < count {
            if let error = commentOrEncodingError(at: i) { throw error }
            throw error("unexpected content after the end of the document, found \(try describe(at: i))", at: i)
        }
        return root
    }

    /// Reads one value starting at `i` (after whitespace) with everything nested in it.
    private mutating func parseValues() throws(JSONSyntaxError) -> Node {
        var node: Node
        while true {
            guard i < count else { throw try unexpected("a value", at: i, open: containers.last, valueExpected: true) }
            let b = bytes[i]
            let position = self.position(i)
            nodeCount += 1
            if nodeCount > limits.maxNodes {
                throw JSONSyntaxError(position: position, message: "the document has more than \(limits.maxNodes) values")
            }
            if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                if containers.count >= limits.maxDepth {
                    throw JSONSyntaxError(position: position, message: "nesting is deeper than \(limits.maxDepth) levels")
                }
                i += 1
                skipWhitespace()
                if b == UInt8(ascii: "{") {
                    if i < count && bytes[i] == UInt8(ascii: "}") {
                        i += 1
                        node = Node(.mapping([]), at: position)
                    } else {
                        containers.append(JSONOpenContainer(isObject: true, position: position, start: entries.count))
                        try readKey()
                        continue
                    }
                } else {
                    if i < count && bytes[i] == UInt8(ascii: "]") {
                        i += 1
                        node = Node(.sequence([]), at: position)
                    } else {
                        containers.append(JSONOpenContainer(isObject: false, position: position, start: items.count))
                        continue
                    }
                }
            } else {
                node = Node(.scalar(try parseScalar(first: b)), at: position)
            }

            // Attach the finished node to the open containers, closing those that end here.
            while true {
                let top = containers.count - 1
                if top < 0 { return node }
                skipWhitespace()
                if containers[top].isObject {
                    if containers[top].keepsValue { addEntry(node, top: top) }
                    if i < count && bytes[i] == UInt8(ascii: ",") {
                        let comma = i
                        i += 1
                        skipWhitespace()
                        try rejectTrailingComma(comma)
                        try readKey()
                        break
                    } else if i < count && bytes[i] == UInt8(ascii: "}") {
                        i += 1
                        let closed = containers.removeLast()
                        node = Node(.mapping(entries.popArray(from: closed.start)), at: closed.position)
                    } else {
                        throw try unexpected("',' or '}' after an object member", at: i, open: containers[top])
                    }
                } else {
                    items.push(node)
                    if i < count && bytes[i] == UInt8(ascii: ",") {
                        let comma = i
                        i += 1
                        skipWhitespace()
                        try rejectTrailingComma(comma)
                        break
                    } else if i < count && bytes[i] == UInt8(ascii: "]") {
                        i += 1
                        let closed = containers.removeLast()
                        node = Node(.sequence(items.popArray(from: closed.start)), at: closed.position)
                    } else {
                        throw try unexpected("',' or ']' after an array item", at: i, open: containers[top])
                    }
                }
            }
        }
    }

    /// Throws when the comma at `comma` is directly followed by a closing bracket at `i`.
    @inline(__always)
    private func rejectTrailingComma(_ comma: Int) throws(JSONSyntaxError) {
        if i < count && (bytes[i] == UInt8(ascii: "}") || bytes[i] == UInt8(ascii: "]")) {
            throw trailingComma(comma)
        }
    }

    private func trailingComma(_ comma: Int) -> JSONSyntaxError {
        // The comma may be on an earlier line than `i`, so its position is found by rescanning.
        JSONSyntaxError(position: positionBehind(comma), message: "trailing comma before '\(path: String(Character(Unicode.Scalar(bytes[i]))))'")
    }

    /// Reads `"key" :` of the innermost mapping and checks the key against the earlier ones.
    private mutating func readKey() throws(JSONSyntaxError) {
        let top = containers.count - 1
        guard i < count, bytes[i] == UInt8(ascii: "\"") else {
            throw try unexpected("an object key in double quotes", at: i, open: containers[top], keyExpected: true)
        }
        let keyPosition = position(i)
        let (raw, isASCII, _) = try parseString()
        let key = isASCII ? raw : raw.precomposedStringWithCanonicalMapping
        var first: SourcePosition?
        if let index = containers[top].keyIndex {
            if let found = index[key] { first = entries[found].keyPosition }
        } else {
            for k in containers[top].start..<entries.count where entries[k].key == key {
                first = entries[k].keyPosition
                break
            }
        }
        if let first {
            diagnostics.append(Diagnostic(
                file: file, position: keyPosition, severity: .error, rule: .duplicateKey,
                message: Message("duplicate key '\(name: key, limit: 40)' (first at line \(first.line), column \(first.column))").text))
        }
        containers[top].keepsValue = first == nil
        containers[top].key = key
        containers[top].keyPosition = keyPosition
        skipWhitespace()
        guard i < count, bytes[i] == UInt8(ascii: ":") else {
            throw try unexpected("':' after the key '\(name: key, limit: 40)'", at: i, open: containers[top])
        }
        i += 1
        skipWhitespace()
    }

    private mutating func addEntry(_ node: Node, top: Int) {
        let key = containers[top].key
        let index = entries.count
        entries.push(Node.Entry(key: key, keyPosition: containers[top].keyPosition, value: node))
        if containers[top].keyIndex != nil {
            containers[top].keyIndex![key] = index
        } else if index + 1 - containers[top].start > Self.linearScanLimit {
            var keyIndex: [String: Int] = [:]
            keyIndex.reserveCapacity(2 * (index + 1 - containers[top].start))
            for k in containers[top].start...index { keyIndex[entries[k].key] = k }
            containers[top].keyIndex = keyIndex
        }
    }

    // MARK: Scalars

    private mutating func parseScalar(first b: UInt8) throws(JSONSyntaxError) -> Scalar {
        switch b {
        case UInt8(ascii: "\""):
            let (quote, start) = (i, position(i))
            let parsed = try parseString()
            // A string with escapes keeps its text as written, so that a position inside its value maps back exactly.
            let raw = parsed.escaped ? RawScalar(text: text(quote, i), style: .json, start: start) : nil
            return Scalar(kind: .string, text: parsed.value, quoted: true, raw: raw)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return try parseWord()
        case UInt8(ascii: "+"):
            throw error("numbers cannot start with '+'", at: i)
        case UInt8(ascii: "."):
            if i + 1 < count && Self.isDigit(bytes[i + 1]) {
                throw error("numbers must have a digit before the decimal point", at: i)
            }
            throw try unexpected("a value", at: i, valueExpected: true)
        default:
            throw try unexpected("a value", at: i, valueExpected: true)
        }
    }

    private mutating func parseWord() throws(JSONSyntaxError) -> Scalar {
        let start = i
        var end = i
        while end < count && Self.isWordByte(bytes[end]) { end += 1 }
        let length = end - start
        let bytes = self.bytes
        func matches(_ literal: StaticString) -> Bool {
            guard literal.utf8CodeUnitCount == length else { return false }
            let pointer = literal.utf8Start
            for k in 0..<length where pointer[k] != bytes[start + k] { return false }
            return true
        }
        if matches("true") { i = end; return Scalar(kind: .bool(true), text: "true", quoted: false) }
        if matches("false") { i = end; return Scalar(kind: .bool(false), text: "false", quoted: false) }
        if matches("null") { i = end; return Scalar(kind: .null, text: "null", quoted: false) }
        if matches("NaN") || matches("Infinity") {
            throw error("numbers cannot be NaN or Infinity in JSON", at: start)
        }
        let word = text(start, end)
        let lower = word.lowercased()
        if lower == "true" || lower == "false" || lower == "null" {
            throw error("expected a value, found '\(name: word, limit: 40)' (JSON literals are lowercase: '\(name: lower, limit: 40)')", at: start)
        }
        throw error("expected a value, found '\(name: word, limit: 40)'", at: start)
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Scalar {
        let start = i
        var j = i
        let negative = bytes[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        guard j < count, Self.isDigit(bytes[j]) else {
            if j < count && Self.isWordByte(bytes[j]) {
                var end = j
                while end < count && Self.isWordByte(bytes[end]) { end += 1 }
                if text(j, end) == "Infinity" { throw error("numbers cannot be NaN or Infinity in JSON", at: start) }
            }
            throw try error("expected a digit after '-', found \(describe(at: j))", at: j)
        }
        if bytes[j] == UInt8(ascii: "0") {
            j += 1
            if j < count && Self.isDigit(bytes[j]) { throw error("numbers cannot have leading zeros", at: j - 1) }
            if j < count && (bytes[j] == UInt8(ascii: "x") || bytes[j] == UInt8(ascii: "X")) {
                throw error("hexadecimal numbers are not allowed in JSON", at: start)
            }
        } else {
            while j < count && Self.isDigit(bytes[j]) { j += 1 }
        }
        let integerEnd = j
        var isInteger = true
        if j < count && bytes[j] == UInt8(ascii: ".") {
            isInteger = false
            j += 1
            guard j < count, Self.isDigit(bytes[j]) else {
                throw try error("expected a digit after the decimal point, found \(describe(at: j))", at: j)
            }
            while j < count && Self.isDigit(bytes[j]) { j += 1 }
        }
        if j < count && (bytes[j] == UInt8(ascii: "e") || bytes[j] == UInt8(ascii: "E")) {
            isInteger = false
            j += 1
            if j < count && (bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-")) { j += 1 }
            guard j < count, Self.isDigit(bytes[j]) else {
                throw try error("expected a digit in the exponent, found \(describe(at: j))", at: j)
            }
            while j < count && Self.isDigit(bytes[j]) { j += 1 }
        }
        if j < count && (Self.isWordByte(bytes[j]) || bytes[j] == UInt8(ascii: ".")) {
            throw try error("invalid character \(describe(at: j, wholeWord: false)) in a number", at: j)
        }
        i = j
        let literal = text(start, j)
        if isInteger {
            guard let value = integerValue(from: negative ? start + 1 : start, to: integerEnd, negative: negative) else {
                throw error("integer '\(name: literal, limit: 40)' does not fit in 64 bits (-9223372036854775808 to 9223372036854775807)", at: start)
            }
            return Scalar(kind: .int(value), text: literal, quoted: false)
        }
        guard let value = Double(literal), value.isFinite else {
            throw error("number '\(name: literal, limit: 40)' is out of range", at: start)
        }
        return Scalar(kind: .number(value), text: literal, quoted: false)
    }

    /// The digits from `start` to `end` as an Int64, or nil when they do not fit.
    private func integerValue(from start: Int, to end: Int, negative: Bool) -> Int64? {
        var value: Int64 = 0
        if end - start <= 18 {
            for k in start..<end { value = value &* 10 &+ Int64(bytes[k] &- UInt8(ascii: "0")) }
            return negative ? -value : value
        }
        // Accumulate negatively so that Int64.min fits.
        for k in start..<end {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(Int64(bytes[k] &- UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            value = next
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    /// Reads a string starting at its opening quote `i`; returns the decoded text and whether it is all ASCII.
    private mutating func parseString() throws(JSONSyntaxError) -> (value: String, isASCII: Bool, escaped: Bool) {
        let quote = i
        i += 1
        var segmentStart = i
        var isASCII = true
        var escaped = false
        while true {
            while i < count {
                let b = bytes[i]
                if b &- 0x20 < 0x60 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") { i += 1 } else { break }
            }
            guard i < count else {
                let start = positionBehind(quote)
                throw error("unexpected end of file inside a string (the string starts at line \(start.line), column \(start.column))", at: count)
            }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let value: String
                if escaped {
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segmentStart..<i]))
                    value = String(decoding: scratch, as: UTF8.self)
                } else {
                    value = text(segmentStart, i)
                }
                i += 1
                return (value, isASCII, escaped)
            } else if b == UInt8(ascii: "\\") {
                if !escaped {
                    escaped = true
                    scratch.removeAll(keepingCapacity: true)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segmentStart..<i]))
                if try readEscape() { isASCII = false }
                segmentStart = i
            } else if b < 0x20 {
                throw error("unescaped control character \(verbatim: Self.codePoint(UInt32(b))) in string", at: i)
            } else {
                let length = try validateUTF8(at: i)
                lineExtra += length - 1
                i += length
                isASCII = false
            }
        }
    }

    /// Decodes the escape at the backslash `i` into `scratch`; returns whether it produced a non-ASCII character.
    private mutating func readEscape() throws(JSONSyntaxError) -> Bool {
        let backslash = i
        guard i + 1 < count else { throw endInsideString(at: count) }
        let c = bytes[i + 1]
        let decoded: UInt8
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded = c
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            let first = try hexQuad(at: i + 2)
            var scalar = first
            i += 6
            if 0xD800...0xDBFF ~= first {
                guard i + 1 < count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                    throw unpairedSurrogate(at: backslash)
                }
                let second = try hexQuad(at: i + 2)
                guard 0xDC00...0xDFFF ~= second else { throw unpairedSurrogate(at: backslash) }
                scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                i += 6
            } else if 0xDC00...0xDFFF ~= first {
                throw unpairedSurrogate(at: backslash)
            }
            appendUTF8(scalar)
            return scalar >= 0x80
        default:
            if c >= 0x80 { _ = try validateUTF8(at: i + 1) }
            let shown: String
            if c < 0x20 || c == 0x7F {
                throw error("invalid escape: '\\' followed by \(verbatim: Self.codePoint(UInt32(c))) in string", at: backslash)
            } else if c < 0x80 {
                shown = String(Character(Unicode.Scalar(c)))
            } else {
                shown = String(Character(decodeScalar(at: i + 1)))
            }
            throw error("invalid escape '\\\(path: shown)' in string", at: backslash)
        }
        scratch.append(decoded)
        i += 2
        return false
    }

    /// The value of the four hex digits at `start`.
    private func hexQuad(at start: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for k in start..<start + 4 {
            guard k < count else { throw endInsideString(at: count) }
            let b = bytes[k]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default:
                throw try error("expected four hexadecimal digits after '\\u', found \(describe(at: k, wholeWord: false))", at: k)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func unpairedSurrogate(at backslash: Int) -> JSONSyntaxError {
        error("unpaired surrogate escape '\(path: text(backslash, backslash + 6))' in string", at: backslash)
    }

    private func endInsideString(at offset: Int) -> JSONSyntaxError {
        error("unexpected end of file inside a string", at: offset)
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: UTF-8

    /// The length of the well-formed UTF-8 sequence starting with the non-ASCII byte at `start`.
    private func validateUTF8(at start: Int) throws(JSONSyntaxError) -> Int {
        let lead = bytes[start]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        var problem = "incomplete character"
        switch lead {
        case 0x80...0xBF:
            throw error("invalid UTF-8 byte \(verbatim: Self.hex(lead)) (a continuation byte without a lead byte)", at: start)
        case 0xC0, 0xC1:
            throw error("invalid UTF-8 byte \(verbatim: Self.hex(lead)) (overlong encoding)", at: start)
        case 0xC2...0xDF:
            length = 2
        case 0xE0:
            length = 3; low = 0xA0; problem = "overlong encoding"
        case 0xED:
            length = 3; high = 0x9F; problem = "encoded surrogate"
        case 0xE1...0xEF:
            length = 3
        case 0xF0:
            length = 4; low = 0x90; problem = "overlong encoding"
        case 0xF4:
            length = 4; high = 0x8F; problem = "beyond U+10FFFF"
        case 0xF1...0xF3:
            length = 4
        default:
            if start == 0 && count >= 2 && (lead == 0xFF && bytes[1] == 0xFE || lead == 0xFE && bytes[1] == 0xFF) {
                throw error("invalid UTF-8 byte \(verbatim: Self.hex(lead)) (the file looks like UTF-16; JSON files must be UTF-8)", at: start)
            }
            throw error("invalid UTF-8 byte \(verbatim: Self.hex(lead))", at: start)
        }
        for k in 1..<length {
            guard start + k < count else {
                let seen = (start..<start + k).map { Self.hex(bytes[$0]) }.joined(separator: " ")
                throw error("invalid UTF-8 sequence \(verbatim: seen) (incomplete character at the end of the file)", at: start)
            }
            let b = bytes[start + k]
            let (lo, hi) = k == 1 ? (low, high) : (0x80, 0xBF)
            guard lo...hi ~= b else {
                let isContinuation = 0x80...0xBF ~= b
                let shown = (start..<start + k + (isContinuation ? 1 : 0)).map { Self.hex(bytes[$0]) }.joined(separator: " ")
                throw error("invalid UTF-8 sequence \(verbatim: shown) (\(verbatim: isContinuation ? problem : "incomplete character"))", at: start)
            }
        }
        return length
    }

    /// The scalar of the well-formed UTF-8 sequence at `start`.
    private func decodeScalar(at start: Int) -> Unicode.Scalar {
        let lead = UInt32(bytes[start])
        var value: UInt32
        let length: Int
        if lead < 0x80 { return Unicode.Scalar(UInt8(lead)) }
        if lead < 0xE0 { value = lead & 0x1F; length = 2 } else if lead < 0xF0 { value = lead & 0x0F; length = 3 } else { value = lead & 0x07; length = 4 }
        for k in 1..<length { value = value << 6 | UInt32(bytes[start + k] & 0x3F) }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    // MARK: Positions and messages

    private mutating func skipWhitespace() {
        while i < count {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 {
                i += 1
            } else if b == 0x0A || b == 0x0D {
                i += 1
                if b == 0x0D && i < count && bytes[i] == 0x0A { i += 1 }
                line += 1
                lineStart = i
                lineExtra = 0
            } else {
                return
            }
        }
    }

    /// The position of `offset`, which must be on the current line at or after every multi-byte character read so far.
    @inline(__always)
    private func position(_ offset: Int) -> SourcePosition {
        SourcePosition(line: line, column: offset - lineStart - lineExtra + 1)
    }

    /// The position of an `offset` already passed, found by rescanning; only for error messages.
    private func positionBehind(_ offset: Int) -> SourcePosition {
        if offset >= lineStart {
            var column = 1
            for k in lineStart..<offset where bytes[k] & 0xC0 != 0x80 { column += 1 }
            return SourcePosition(line: line, column: column)
        }
        var line = 1
        var column = 1
        var k = count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        while k < offset {
            let b = bytes[k]
            if b == 0x0A || (b == 0x0D && !(k + 1 < count && bytes[k + 1] == 0x0A)) {
                line += 1
                column = 1
            } else if b != 0x0D && b & 0xC0 != 0x80 {
                column += 1
            }
            k += 1
        }
        return SourcePosition(line: line, column: column)
    }

    private func error(_ message: Message, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(position: position(offset), message: message)
    }

    /// The error for a comment or broken UTF-8 at `offset`, when there is one.
    private func commentOrEncodingError(at offset: Int) -> JSONSyntaxError? {
        let b = bytes[offset]
        if b == UInt8(ascii: "#") || (b == UInt8(ascii: "/") && offset + 1 < count && (bytes[offset + 1] == UInt8(ascii: "/") || bytes[offset + 1] == UInt8(ascii: "*"))) {
            return error("comments are not allowed in JSON", at: offset)
        }
        if b >= 0x80 {
            do throws(JSONSyntaxError) { _ = try validateUTF8(at: offset) } catch { return error }
        }
        return nil
    }

    /// The error for something other than `expected` at `offset`, with the more specific messages first.
    private func unexpected(_ expected: Message, at offset: Int, open container: JSONOpenContainer? = nil, valueExpected: Bool = false, keyExpected: Bool = false) throws(JSONSyntaxError) -> JSONSyntaxError {
        guard offset < count else {
            var message: Message = "expected \(expected), found the end of the file"
            if let container {
                message = message + " (the \(container.isObject ? "object" : "array") at line \(container.position.line), column \(container.position.column) is not closed)"
            }
            return error(message, at: offset)
        }
        if let error = commentOrEncodingError(at: offset) { return error }
        if valueExpected || keyExpected {
            let b = bytes[offset]
            if b == UInt8(ascii: "'") { return error("strings must use double quotes", at: offset) }
            if b >= 0x80 {
                let scalar = decodeScalar(at: offset)
                if [0x201C, 0x201D, 0x2018, 0x2019].contains(scalar.value) {
                    return error("strings must use straight double quotes, found '\(path: String(Character(scalar)))'", at: offset)
                }
            }
        }
        return error("expected \(expected), found \(try describe(at: offset))", at: offset)
    }

    /// How the text at `offset` is named in a message: a quoted word or character, a code point, or the end of the file.
    private func describe(at offset: Int, wholeWord: Bool = true) throws(JSONSyntaxError) -> Message {
        guard offset < count else { return "the end of the file" }
        let b = bytes[offset]
        if b == 0 { return "a NUL byte" }
        if b < 0x20 || b == 0x7F { return "the control character \(verbatim: Self.codePoint(UInt32(b)))" }
        if b >= 0x80 {
            _ = try validateUTF8(at: offset)
            let scalar = decodeScalar(at: offset)
            return "'\(path: String(Character(scalar)))' (\(verbatim: Self.codePoint(scalar.value)))"
        }
        if wholeWord && (Self.isWordByte(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")) {
            var end = offset + 1
            while end < count && (Self.isWordByte(bytes[end]) || bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: "-") || bytes[end] == UInt8(ascii: "+")) {
                end += 1
            }
            return "'\(name: text(offset, end), limit: 40)'"
        }
        return "'\(path: String(Character(Unicode.Scalar(b))))'"
    }

    /// The bytes from `start` to `end`, which are valid UTF-8, as a string.
    @inline(__always)
    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    @inline(__always)
    private static func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    private static func isWordByte(_ b: UInt8) -> Bool {
        isDigit(b) || (b | 0x20) &- UInt8(ascii: "a") < 26 || b == UInt8(ascii: "_")
    }

    private static func hex(_ b: UInt8) -> String {
        "0x" + zeroPadded(String(b, radix: 16, uppercase: true), to: 2)
    }

    private static func codePoint(_ value: UInt32) -> String {
        "U+" + zeroPadded(String(value, radix: 16, uppercase: true), to: 4)
    }

    private static func zeroPadded(_ digits: String, to width: Int) -> String {
        String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

}
