import FlowKit

/// LCOV tracefile (`geninfo(1)`): per flow file `SF`, `DA:line,hits` for each line with a coverable item, and
/// `BRDA:line,0,n,hits` (`-` when never taken) for the n-th transition on a line, with the totals.
package struct LCOVReporter: CoverageReporter {
    /// Creates an LCOV reporter.
    package init() {}

    package func render(_ coverage: Coverage) -> String {
        var output = ""
        for file in coverage.files {
            let lines = CoverageLines(file)
            // A file name cannot hold a line break in LCOV; such names are written escaped.
            output += "TN:\nSF:\(Identifier.display(file.file, limit: .max, quoting: false))\n"
            for line in lines.lines {
                for (index, hits) in line.branches.enumerated() {
                    output += "BRDA:\(line.number),0,\(index),\(hits > 0 ? String(hits) : "-")\n"
                }
            }
            output += "BRF:\(lines.branchesFound)\nBRH:\(lines.branchesHit)\n"
            for line in lines.lines { output += "DA:\(line.number),\(line.hits)\n" }
            output += "LF:\(lines.linesFound)\nLH:\(lines.linesHit)\nend_of_record\n"
        }
        return output
    }
}
