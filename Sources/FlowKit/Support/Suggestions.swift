/// Did-you-mean suggestions: the known name closest to a misspelt one, by the measure compilers use for typos.
///
/// A candidate is close to the written word (both compared case-insensitively, as Unicode scalars) when:
/// 1. their optimal string alignment distance (Damerau–Levenshtein where an insertion, a deletion, a substitution
///    or a swap of two adjacent characters each count one edit) is at most one edit per three characters of the
///    written word (clang's rule: no correction when the word's length divided by the distance is below 3), so
///    `tarifs` suggests `tariffs` but `a` never suggests `b`; a difference in case alone is distance 0; or
/// 2. one is a prefix of the other, the shorter has at least 3 characters and at least half the length of the
///    longer (the "substring" case of rustc's typo correction, limited to prefixes): `begin` suggests `beginning`.
///
/// The closest edit wins, then the closest prefix (smallest difference in length), then the first candidate.
/// Words and candidates longer than `maxLength` scalars are never compared, candidates whose length differs by
/// more than the allowed edits are skipped without a comparison, and each comparison fills only the cells within
/// the allowed distance of the diagonal, so it costs at most `length × (2 × edits + 1)` steps.
package enum Suggestions {
    /// The longest word or candidate, in Unicode scalars, that is compared at all.
    package static let maxLength = 128

    /// The most edits a written word of `length` scalars may be from a suggestion: one per three characters.
    package static func editLimit(forLength length: Int) -> Int { length / 3 }

    /// The candidate closest to `word`, when it is close enough to be a likely typo.
    package static func closest<S: Sequence>(to word: String, in candidates: S) -> String? where S.Element == String {
        SuggestionIndex(candidates).closest(to: word)
    }

    /// `"; did you mean 'x'?"` for the closest candidate, or an empty string.
    package static func didYouMean<S: Sequence>(_ word: String, in candidates: S) -> String where S.Element == String {
        closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The lowercased scalars of `text`, or nil when it is empty or longer than `maxLength` (checked before any
    /// work proportional to a long text's length beyond its UTF-8 count).
    static func comparable(_ text: String) -> [Unicode.Scalar]? {
        guard !text.isEmpty, text.utf8.count <= maxLength * 4 else { return nil }
        let scalars = Array(text.lowercased().unicodeScalars)
        return scalars.count <= maxLength ? scalars : nil
    }

    /// Whether the shorter of `a` and `b` starts the longer, has at least 3 scalars and at least half its length.
    static func isPrefixMatch(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        guard short.count >= 3, short.count < long.count, short.count * 2 >= long.count else { return false }
        return long.starts(with: short)
    }

    /// The optimal string alignment distance of `a` and `b` when it is at most `limit`, else `limit + 1`. Only the
    /// cells within `limit` of the diagonal are filled, and the work stops once a whole row exceeds `limit` (no
    /// later cell can come back under it).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        let n = a.count
        let m = b.count
        let over = limit + 1
        guard abs(n - m) <= limit else { return over }
        if n == 0 || m == 0 { return max(n, m) }
        var previousPrevious = [Int](repeating: over, count: m + 2)
        var previous = [Int](repeating: over, count: m + 2)
        var current = [Int](repeating: over, count: m + 2)
        for j in 0...min(m, limit) { previous[j] = j }
        for i in 1...n {
            let low = max(1, i - limit)
            let high = min(m, i + limit)
            current[low - 1] = low == 1 ? i : over
            current[high + 1] = over
            var rowMinimum = current[low - 1]
            for j in low...high {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                value = min(value, over)
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return over }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[m]
    }
}

/// Did-you-mean over a set of names, asked many times (every undefined target of a flow): candidates are prepared
/// once and bucketed by length, answers are cached, and the work done in total is bounded, so a flow with
/// thousands of typos costs linear time (past the budget, findings simply carry no suggestion). It decides as
/// `Suggestions` describes.
final class SuggestionIndex {
    private struct Candidate {
        package let name: String
        let scalars: [Unicode.Scalar]
        let order: Int
    }

    private var byLength: [Int: [Candidate]] = [:]
    private var cache: [String: String?] = [:]
    private var budget: Int

    /// Prepares `candidates`; at most `workBudget` steps of comparison (a cell of an edit-distance table, a
    /// character of a prefix check) are spent over the index's life.
    package init<S: Sequence>(_ candidates: S, workBudget: Int = 20_000_000) where S.Element == String {
        for (order, name) in candidates.enumerated() {
            guard let scalars = Suggestions.comparable(name) else { continue }
            byLength[scalars.count, default: []].append(Candidate(name: name, scalars: scalars, order: order))
        }
        budget = workBudget
    }

    /// The candidate closest to `word`, when one is close enough and the budget allows.
    package func closest(to word: String) -> String? {
        if let cached = cache[word] { return cached }
        guard let target = Suggestions.comparable(word) else { return nil }
        let length = target.count
        let limit = Suggestions.editLimit(forLength: length)
        // (edits or, for a prefix, limit + 1 + the difference in length; then file order)
        var best: (score: Int, order: Int, name: String)?
        func consider(_ score: Int, _ candidate: Candidate) {
            if best == nil || (score, candidate.order) < (best!.score, best!.order) { best = (score, candidate.order, candidate.name) }
        }
        let prefixLengths: ClosedRange<Int>? = length >= 3 ? max(3, (length + 1) / 2)...(2 * length) : nil
        let lowest = min(max(1, length - limit), prefixLengths?.lowerBound ?? Int.max)
        let highest = max(length + limit, prefixLengths?.upperBound ?? 0)
        search: for candidateLength in lowest...highest {
            for candidate in byLength[candidateLength] ?? [] where candidate.name != word {
                let difference = abs(candidateLength - length)
                if difference <= limit {
                    let cost = min(length, candidateLength) * (2 * limit + 1)
                    guard budget >= cost else { break search }
                    budget -= cost
                    let distance = Suggestions.editDistance(target, candidate.scalars, limit: limit)
                    if distance <= limit {
                        consider(distance, candidate)
                        continue
                    }
                }
                if prefixLengths?.contains(candidateLength) == true {
                    let cost = min(length, candidateLength)
                    guard budget >= cost else { break search }
                    budget -= cost
                    if Suggestions.isPrefixMatch(target, candidate.scalars) { consider(limit + 1 + difference, candidate) }
                }
            }
        }
        cache[word] = best?.name
        return best?.name
    }

    /// `"; did you mean 'x'?"` for the closest candidate, or an empty string.
    package func didYouMean(_ word: String) -> String {
        closest(to: word).map { "; did you mean '\($0)'?" } ?? ""
    }
}

/// The rules for names in flow files and how names are quoted in messages.
package enum Identifier {
    /// Whether `text` is an identifier: an ASCII letter or `_`, then letters, digits or `_`.
    package static func isValid(_ text: String) -> Bool {
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
    package static func display(_ text: String, limit: Int = 60, quoting: Bool = true) -> String {
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
    package static func needsEscape(_ text: String) -> Bool {
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
package enum DisplayPath {

    /// `path` relative to the folder `base` (both absolute and canonical), with `..` where needed.
    package static func relative(_ path: String, to base: String) -> String {
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
