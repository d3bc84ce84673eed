/// Did-you-mean suggestions: the known name closest to a misspelt one.
public enum Suggestions {
    /// The candidate closest to `word` by edit distance, when it is close enough to be a likely typo.
    public static func closest<S: Sequence>(to word: String, in candidates: S) -> String? where S.Element == String {
        let target = Array(word.lowercased().unicodeScalars)
        guard !target.isEmpty, target.count <= 64 else { return nil }
        let limit = max(1, min(3, target.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let other = Array(candidate.lowercased().unicodeScalars)
            guard abs(other.count - target.count) <= limit else { continue }
            let distance = editDistance(target, other, limit: limit)
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// `"; did you mean 'x'?"` for the closest candidate, or an empty string.
    public static func didYouMean<S: Sequence>(_ word: String, in candidates: S) -> String where S.Element == String {
        closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Damerau-Levenshtein distance (adjacent transpositions count once), cut off above `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}

/// Did-you-mean over a large set of names, asked many times (every undefined target of a flow): candidates are
/// prepared once and bucketed by length, answers are cached, and the comparisons made in total are bounded, so a
/// flow with thousands of typos costs linear time (past the budget, findings simply carry no suggestion).
public final class SuggestionIndex {
    private var byLength: [Int: [(name: String, scalars: [Unicode.Scalar])]] = [:]
    private var cache: [String: String?] = [:]
    private var budget: Int

    /// Prepares `candidates`; at most `comparisonBudget` edit-distance comparisons are made over the index's life.
    public init<S: Sequence>(_ candidates: S, comparisonBudget: Int = 200_000) where S.Element == String {
        for name in candidates {
            let scalars = Array(name.lowercased().unicodeScalars)
            guard scalars.count <= 64 else { continue }
            byLength[scalars.count, default: []].append((name, scalars))
        }
        budget = comparisonBudget
    }

    /// The candidate closest to `word`, as `Suggestions.closest` decides, when the budget allows.
    public func closest(to word: String) -> String? {
        if let cached = cache[word] { return cached }
        let target = Array(word.lowercased().unicodeScalars)
        guard !target.isEmpty, target.count <= 64 else { return nil }
        let limit = max(1, min(3, target.count / 3))
        var best: (name: String, distance: Int)?
        search: for length in max(1, target.count - limit)...(target.count + limit) {
            for candidate in byLength[length] ?? [] where candidate.name != word {
                guard budget > 0 else { break search }
                budget -= 1
                let distance = Suggestions.editDistance(target, candidate.scalars, limit: limit)
                if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate.name, distance) }
            }
        }
        cache[word] = best?.name
        return best?.name
    }

    /// `"; did you mean 'x'?"` for the closest candidate, or an empty string.
    public func didYouMean(_ word: String) -> String {
        closest(to: word).map { "; did you mean '\($0)'?" } ?? ""
    }
}

/// The rules for names in flow files and how names are quoted in messages.
public enum Identifier {
    /// Whether `text` is an identifier: an ASCII letter or `_`, then letters, digits or `_`.
    public static func isValid(_ text: String) -> Bool {
        var first = true
        for byte in text.utf8 {
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
            let isDigit = byte >= 0x30 && byte <= 0x39
            if first ? !isLetter : !(isLetter || isDigit) { return false }
            first = false
        }
        return !first
    }

    /// `text` made safe to show in a message: control characters (C0, DEL, C1), Unicode format characters
    /// (bidirectional overrides such as U+202E, zero-width characters) and line or paragraph separators are
    /// escaped as `\n`, `\r`, `\t` or `\u{hex}`, so that no text from a file can start a line, colour a
    /// terminal or reorder what is shown. With `quoting` (for text shown inside single quotes), `'` and `\` are
    /// escaped too. Text longer than `limit` characters is cut with `…`. Every name, text and path that goes into
    /// a message goes through this function.
    public static func display(_ text: String, limit: Int = 60, quoting: Bool = true) -> String {
        var output = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                output += "…"
                break
            }
            switch scalar {
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "'" where quoting: output += "\\'"
            case "\\" where quoting: output += "\\\\"
            default:
                if needsEscape(scalar) {
                    output += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
            count += 1
        }
        return output
    }

    /// Whether `text` holds a character that `display` escapes even outside quotes.
    public static func needsEscape(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: needsEscape)
    }

    /// Control, format and separator characters: the ones that must never reach a terminal or a report raw.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return true }
        guard scalar.value >= 0xA0 else { return false }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator, .control: return true
        default: return false
        }
    }
}

/// Paths shown in messages: relative, so that output is the same on every machine.
public enum DisplayPath {
    /// `path` relative to the folder `base` (both absolute and canonical), with `..` where needed.
    public static func relative(_ path: String, to base: String) -> String {
        let target = path.split(separator: "/")
        let from = base.split(separator: "/")
        var common = 0
        while common < target.count, common < from.count, target[common] == from[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        let rest = target[common...].map(String.init)
        let parts = ups + rest
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
