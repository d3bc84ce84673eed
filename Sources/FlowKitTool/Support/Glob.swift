import FlowKit

/// Shell-style path patterns for include and exclude lists: `*` matches within one path segment, `?` one
/// character, `**` any number of whole segments (`flows/**` matches everything under `flows`).
package struct Glob: Sendable, Equatable {
    /// The pattern as written.
    package let pattern: String
    private let segments: [Substring]

    /// Compiles `pattern` (segments separated by `/`; a leading `./` is ignored).
    package init(_ pattern: String) {
        self.pattern = pattern
        var text = Substring(pattern)
        while text.hasPrefix("./") { text = text.dropFirst(2) }
        segments = text.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// Whether the relative path `path` matches.
    package func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return Self.match(segments[...], parts[...])
    }

    private static func match(_ pattern: ArraySlice<Substring>, _ path: ArraySlice<Substring>) -> Bool {
        // Iterative over `**` with backtracking on the last one seen: linear in practice, no recursion depth.
        var p = pattern.startIndex
        var s = path.startIndex
        var starP: Int?
        var starS = 0
        while s < path.endIndex {
            if p < pattern.endIndex, pattern[p] == "**" {
                starP = p
                starS = s
                p += 1
            } else if p < pattern.endIndex, segmentMatches(pattern[p], path[s]) {
                p += 1
                s += 1
            } else if let star = starP {
                p = star + 1
                starS += 1
                s = starS
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == "**" { p += 1 }
        return p == pattern.endIndex
    }

    /// `*` and `?` within one segment (iterative wildcard matching).
    static func segmentMatches(_ pattern: Substring, _ text: Substring) -> Bool {
        let p = Array(pattern.unicodeScalars)
        let t = Array(text.unicodeScalars)
        var i = 0
        var j = 0
        var star = -1
        var mark = 0
        while j < t.count {
            if i < p.count, p[i] == "*" {
                star = i
                mark = j
                i += 1
            } else if i < p.count, p[i] == "?" || p[i] == t[j] {
                i += 1
                j += 1
            } else if star >= 0 {
                i = star + 1
                mark += 1
                j = mark
            } else {
                return false
            }
        }
        while i < p.count, p[i] == "*" { i += 1 }
        return i == p.count
    }
}
