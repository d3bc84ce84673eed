import FlowKit

/// Cobertura 4 XML (`coverage-04.dtd`): one package per directory, one class per flow file, a line per line with a
/// coverable item (its transitions as the line's branches, `condition-coverage="50% (1/2)"`). The timestamp is 0 so
/// that the same coverage gives the same bytes.
package struct CoberturaReporter: CoverageReporter {
    /// Creates a Cobertura reporter.
    package init() {}

    package func render(_ coverage: Coverage) -> String {
        let all = coverage.files.map(CoverageLines.init)
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        output += "<!DOCTYPE coverage SYSTEM \"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n"
        output += "<coverage line-rate=\"\(Self.rate(all.reduce(0) { $0 + $1.linesHit }, all.reduce(0) { $0 + $1.linesFound }))\" "
        output += "branch-rate=\"\(Self.rate(all.reduce(0) { $0 + $1.branchesHit }, all.reduce(0) { $0 + $1.branchesFound }))\" "
        output += "lines-covered=\"\(all.reduce(0) { $0 + $1.linesHit })\" lines-valid=\"\(all.reduce(0) { $0 + $1.linesFound })\" "
        output += "branches-covered=\"\(all.reduce(0) { $0 + $1.branchesHit })\" branches-valid=\"\(all.reduce(0) { $0 + $1.branchesFound })\" "
        output += "complexity=\"0\" version=\"flowkit \(FlowKitVersion.current)\" timestamp=\"0\">\n"
        output += "  <sources>\n    <source>.</source>\n  </sources>\n  <packages>\n"
        var packages: [String] = []
        var byPackage: [String: [(FileCoverage, CoverageLines)]] = [:]
        for (file, lines) in zip(coverage.files, all) {
            let directory = file.file.split(separator: "/").dropLast().joined(separator: "/")
            let package = directory.isEmpty ? "." : directory
            if byPackage[package] == nil { packages.append(package) }
            byPackage[package, default: []].append((file, lines))
        }
        for package in packages {
            let files = byPackage[package]!
            let linesHit = files.reduce(0) { $0 + $1.1.linesHit }
            let linesFound = files.reduce(0) { $0 + $1.1.linesFound }
            let branchesHit = files.reduce(0) { $0 + $1.1.branchesHit }
            let branchesFound = files.reduce(0) { $0 + $1.1.branchesFound }
            output += "    <package name=\"\(Self.escape(package))\" line-rate=\"\(Self.rate(linesHit, linesFound))\" "
            output += "branch-rate=\"\(Self.rate(branchesHit, branchesFound))\" complexity=\"0\">\n      <classes>\n"
            for (file, lines) in files {
                let name = String(file.file.split(separator: "/").last ?? Substring(file.file))
                output += "        <class name=\"\(Self.escape(name))\" filename=\"\(Self.escape(file.file))\" "
                output += "line-rate=\"\(Self.rate(lines.linesHit, lines.linesFound))\" branch-rate=\"\(Self.rate(lines.branchesHit, lines.branchesFound))\" complexity=\"0\">\n"
                output += "          <methods/>\n          <lines>\n"
                for line in lines.lines {
                    output += "            <line number=\"\(line.number)\" hits=\"\(line.hits)\""
                    if line.branches.isEmpty {
                        output += " branch=\"false\"/>\n"
                    } else {
                        let taken = line.branches.filter { $0 > 0 }.count
                        output += " branch=\"true\" condition-coverage=\"\(taken * 100 / line.branches.count)% (\(taken)/\(line.branches.count))\"/>\n"
                    }
                }
                output += "          </lines>\n        </class>\n"
            }
            output += "      </classes>\n    </package>\n"
        }
        return output + "  </packages>\n</coverage>\n"
    }

    /// `covered / total` with four decimals; 1 when there is nothing to cover.
    static func rate(_ covered: Int, _ total: Int) -> String {
        guard total > 0 else { return "1" }
        let value = Double(covered) / Double(total)
        return String(Double((value * 10_000).rounded()) / 10_000)
    }

    /// `text` escaped for an XML attribute (control characters as `\u{…}`, which XML 1.0 cannot hold).
    static func escape(_ text: String) -> String {
        JUnitReporter.escapeAttribute(text)
    }
}
