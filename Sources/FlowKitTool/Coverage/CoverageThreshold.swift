import FlowKit

/// `--min-coverage transitions=90,steps=100`: the least percentage of each kind a flow file must reach.
package struct CoverageThreshold: Equatable, Sendable {
    /// The least percentage by kind.
    package var minimums: [CoverageItem.Kind: Double]

    /// The least percentages `minimums` give.
    package init(minimums: [CoverageItem.Kind: Double]) {
        self.minimums = minimums
    }

    /// Reads `kind=percent` pairs separated by commas; a kind that is not one of steps, transitions, events,
    /// outcomes, entries, or a percentage outside 0 to 100, is an error naming it.
    package init(parsing text: String) throws(CoverageThresholdError) {
        minimums = [:]
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].trimmingCharacters(in: .whitespaces)
            guard let kind = CoverageItem.Kind.allCases.first(where: { $0.plural == name }) else {
                let hint = Suggestions.didYouMean(name, in: CoverageItem.Kind.allCases.map(\.plural))
                throw CoverageThresholdError(message: "'\(name: name)' is not a kind of coverage item\(verbatim: hint); the kinds are steps, transitions, events, outcomes and entries")
            }
            guard pair.count == 2, let value = Double(pair[1].trimmingCharacters(in: .whitespaces)), value >= 0, value <= 100 else {
                throw CoverageThresholdError(message: "'\(name: part)' needs a percentage from 0 to 100, as in \(verbatim: name)=90")
            }
            minimums[kind] = value
        }
    }

    /// What falls short in `coverage`, one message per file and kind, in file order.
    package func shortfalls(in coverage: Coverage) -> [CommandMessage] {
        var messages: [CommandMessage] = []
        for file in coverage.files {
            for kind in CoverageItem.Kind.allCases {
                guard let minimum = minimums[kind] else { continue }
                let percent = file.percent(kind)
                guard percent < minimum else { continue }
                let missed = file.count(kind).total - file.count(kind).covered
                messages.append("coverage: \(verbatim: kind.plural) of \(path: file.file) are \(verbatim: CoverageTextReporter.percent(percent)), below \(verbatim: CoverageTextReporter.percent(minimum)): \(missed) not covered")
            }
        }
        return messages
    }
}

/// A `--min-coverage` that cannot be read.
package struct CoverageThresholdError: Error, Sendable, CustomStringConvertible {
    /// A lowercase message.
    package let message: CommandMessage
    package var description: String { message.description }
}
