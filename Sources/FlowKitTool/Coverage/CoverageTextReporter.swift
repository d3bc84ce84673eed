import Foundation
import FlowKit

/// The table `flowkit simulate --coverage` prints: per flow file, each kind covered/total and percent, the items not
/// covered at `file:line:column`, the options that cannot be taken, and the `"*"` options folded.
package struct CoverageTextReporter: CoverageReporter {
    /// Creates a text reporter.
    package init() {}

    package func render(_ coverage: Coverage) -> String {
        var output = ""
        for file in coverage.files {
            let name = Identifier.display(file.file, limit: .max, quoting: false)
            output += "coverage of \(name)\n"
            func row(_ name: String, _ covered: Int, _ total: Int) {
                let count = "\(covered)/\(total)"
                let percent = Self.percent(total == 0 ? 100 : Double(covered) * 100 / Double(total))
                output += "  " + name.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(repeating: " ", count: max(0, 7 - count.count)) + count
                    + String(repeating: " ", count: max(0, 8 - percent.count)) + percent + "\n"
            }
            for kind in CoverageItem.Kind.allCases {
                let (covered, total) = file.count(kind)
                row(kind.plural, covered, total)
                // The `"*"` options once per step that uses them, below the transitions that count each once.
                if kind == .transition, let star = file.starSteps { row("star-steps", star.covered, star.total) }
            }
            for item in file.missed {
                output += "  \(name):\(item.line):\(item.column): \(Identifier.display(item.description, limit: .max, quoting: false)) \(item.kind.missedPhrase)\n"
            }
            for item in file.items where !item.coverable {
                output += "  \(name):\(item.line):\(item.column): \(Identifier.display(item.description, limit: .max, quoting: false)) cannot be taken (unreachable_option); not counted\n"
            }
            for folded in file.folded where folded.steps > 1 {
                output += "  \(Identifier.display(folded.description, limit: .max, quoting: false)): taken at \(folded.taken) of the \(folded.steps) steps that use it\n"
            }
        }
        return output
    }

    /// `value` percent with one decimal: `80.0%`.
    static func percent(_ value: Double) -> String {
        String(format: "%.1f%%", value)
    }
}
