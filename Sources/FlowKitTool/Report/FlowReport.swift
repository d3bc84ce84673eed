import FlowKit

/// What `flowkit report` shows (docs/format.md, "The HTML report"): the summary, then a section per file, each
/// with its diagrams, findings, changes and scenarios. Built by `ReportFrontend`, written by `HTMLReportWriter`.
package struct FlowReport: Sendable {
    /// The figures at the top.
    package struct Summary: Sendable, Equatable {
        /// The files checked.
        package var files = 0
        /// Findings by severity.
        package var errors = 0, warnings = 0, notes = 0
        /// Scenarios by result (a script that could not run counts as one failed scenario).
        package var passed = 0, failed = 0
        /// With `--git`: how many changes, and how many of them breaking; nil without `--git`.
        package var changes: Int?, breaking: Int?
        /// With `--git`: the changes by level.
        package var changesByLevel: [ChangeLevel: Int] = [:]
        /// Whether the report's checks pass (its exit status is 0).
        package var passes = true
    }

    /// A diagram drawn as SVG, its elements carrying the report's hooks.
    package struct Diagram: Sendable {
        /// `flow` or `change`.
        package var kind: String
        /// The `<svg>` element and what it holds.
        package var svg: String
        /// Whether it has more nodes than fit the page's width readably: shown at its own size, scrolled.
        package var large = false

        /// Above this many nodes, a diagram is `large`.
        package static let largeNodeCount = 60
    }

    /// A finding with its excerpt and its witness.
    package struct Finding: Sendable {
        /// The finding.
        package var diagnostic: Diagnostic
        /// Lines around the finding's position.
        package var excerpt: [ExcerptLine]
        /// Its witness, or why none was found; nil for a finding of a rule that foresees no run error.
        package var witness: WitnessOutcome?
    }

    /// A line of a source excerpt.
    package struct ExcerptLine: Sendable, Equatable {
        /// The line's number, from 1.
        package var number: Int
        /// Its text, cut and shown escaped.
        package var text: String
        /// Whether it is the finding's line.
        package var isAt: Bool
    }

    /// A scenario that ran, with what it visited on its flow's diagram.
    package struct ScenarioRun: Sendable {
        /// The script it is in.
        package var script: String
        /// What the run did.
        package var result: ScenarioResult
        /// The steps of the flow it visited, in order, each once (a nested flow's step as its `flow` step).
        package var visited: [String]
        /// The diagram edges of the options it took.
        package var edges: [Int]
    }

    /// One kind of coverage of a flow file.
    package struct CoverageFigure: Sendable, Equatable {
        /// The kind.
        package var kind: CoverageItem.Kind
        /// Items covered and items in all.
        package var covered: Int, total: Int
        /// The percentage covered.
        package var percent: Double
        /// The least percentage asked for, if any.
        package var minimum: Double?

        /// Whether it meets its minimum (true without one).
        package var meets: Bool { minimum.map { percent >= $0 } ?? true }
    }

    /// A file's part of the report.
    package struct Section: Sendable {
        /// The file, as lint shows it.
        package var file: String
        /// The flow's title or name; nil for a file that is no flow.
        package var title: String?
        /// The flow's diagram and, with a change, the change's.
        package var diagrams: [Diagram] = []
        /// Why there is no diagram of the flow, when there is none.
        package var diagramNote: String?
        /// Its findings, in lint order.
        package var findings: [Finding] = []
        /// Its changes (with `--git`).
        package var changes: [FlowChange] = []
        /// The scenarios that ran it.
        package var scenarios: [ScenarioRun] = []
        /// Its coverage by the scenarios, by kind; empty when no scenario ran it.
        package var coverage: [CoverageFigure] = []

        /// Creates a section of `file`.
        package init(file: String, title: String?) {
            self.file = file
            self.title = title
        }
    }

    /// The figures at the top.
    package var summary = Summary()
    /// What could not be done, a line each.
    package var problems: [String] = []
    /// The sections, in lint order.
    package var sections: [Section] = []
    /// Changes about no file with a section (with `--git`).
    package var otherChanges: [FlowChange] = []
    /// The flowkit version that wrote the report.
    package var toolVersion: String

    /// Creates an empty report.
    package init(toolVersion: String) {
        self.toolVersion = toolVersion
    }
}
