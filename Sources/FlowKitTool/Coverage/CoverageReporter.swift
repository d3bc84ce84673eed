import FlowKit

/// Turns coverage into the text of one format (docs/format.md, "Coverage").
package protocol CoverageReporter: Sendable {
    /// The whole output for `coverage`.
    func render(_ coverage: Coverage) -> String
}

/// The formats of `--coverage-report FORMAT:PATH`.
package enum CoverageReportFormat: String, CaseIterable, Sendable {
    /// Every item with its position and hit count (what `flowkit coverage merge` reads).
    case json
    /// LCOV tracefile: lines and branches, for Codecov and genhtml.
    case lcov
    /// Cobertura 4 XML, for GitLab and Jenkins.
    case cobertura
    /// A Markdown summary for a pull request comment.
    case markdown

    /// The reporter of this format.
    package var reporter: any CoverageReporter {
        switch self {
        case .json: return CoverageJSONReporter()
        case .lcov: return LCOVReporter()
        case .cobertura: return CoberturaReporter()
        case .markdown: return CoverageMarkdownReporter()
        }
    }

    /// `FORMAT:PATH` split, when FORMAT is a known format and PATH is not empty.

}

/// Lines of a flow file with what is on them, for the line-based formats (LCOV, Cobertura): a line's hits are the
/// largest hit count of its items, its branches its coverable transitions in order.
struct CoverageLines {
    struct Line {
        let number: Int
        let hits: Int
        let branches: [Int]
    }

    let lines: [Line]

    init(_ file: FileCoverage) {
        var byLine: [Int: (hits: Int, branches: [Int])] = [:]
        for item in file.items where item.coverable {
            var line = byLine[item.line] ?? (0, [])
            line.hits = max(line.hits, item.hits)
            if item.kind == .transition { line.branches.append(item.hits) }
            byLine[item.line] = line
        }
        lines = byLine.keys.sorted().map { Line(number: $0, hits: byLine[$0]!.hits, branches: byLine[$0]!.branches) }
    }

    var linesFound: Int { lines.count }
    var linesHit: Int { lines.filter { $0.hits > 0 }.count }
    var branchesFound: Int { lines.reduce(0) { $0 + $1.branches.count } }
    var branchesHit: Int { lines.reduce(0) { $0 + $1.branches.filter { $0 > 0 }.count } }
}

/// The JSON form (`Coverage.json()`).
package struct CoverageJSONReporter: CoverageReporter {
    /// Creates a JSON reporter.
    package init() {}

    package func render(_ coverage: Coverage) -> String {
        // Coverage holds only strings and integers, which always encode.
        String(decoding: (try? coverage.json()) ?? [], as: UTF8.self)
    }
}
