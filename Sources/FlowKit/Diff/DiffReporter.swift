/// The changes between two flow files, for a reporter.
public struct DiffReport: Sendable {
    /// The old file, as named.
    public var old: String
    /// The new file, as named.
    public var new: String
    /// The changes, in the order `FlowDiff.compare` gives them.
    public var changes: [FlowChange]

    /// Creates a report.
    public init(old: String, new: String, changes: [FlowChange]) {
        self.old = old
        self.new = new
        self.changes = changes
    }

    /// How many changes there are of `level`.
    public func count(_ level: ChangeLevel) -> Int { changes.filter { $0.level == level }.count }

    /// `N breaking, N warnings, N info`, or `no changes`.
    public var summaryLine: String {
        guard !changes.isEmpty else { return "no changes" }
        let warnings = count(.warning)
        return "\(changes.count) change\(changes.count == 1 ? "" : "s"): \(count(.breaking)) breaking, \(warnings) warning\(warnings == 1 ? "" : "s"), \(count(.info)) info"
    }
}

/// Turns a diff report into the text of one output format (docs/format.md, "Flow changes").
public protocol DiffReporter: Sendable {
    /// The format's name, as `--format` takes it.
    static var identifier: String { get }
    /// The whole output for `report`.
    func render(_ report: DiffReport) -> String
}
