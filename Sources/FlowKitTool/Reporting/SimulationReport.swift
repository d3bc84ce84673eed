import FlowKit

/// The outcome of running scenarios: each script's scenarios' results and the files involved.
package struct SimulationReport: Sendable {
    /// The runs of one script (or of `--events`) against its flow.
    package struct ScriptRun: Sendable {
        /// The script file (or a description of the run when there is no script).
        package var script: String
        /// The flow file.
        package var flow: String
        /// The scenarios' results, in order.
        package var results: [ScenarioResult]

        /// Creates the runs of one script.
        package init(script: String, flow: String, results: [ScenarioResult]) {
            self.script = script
            self.flow = flow
            self.results = results
        }
    }

    /// The scripts run, in the order given.
    package var scripts: [ScriptRun]

    /// A report of one script.
    package init(script: String, flow: String, results: [ScenarioResult]) {
        scripts = [ScriptRun(script: script, flow: flow, results: results)]
    }

    /// A report of several scripts, run one after the other.
    package init(scripts: [ScriptRun]) {
        self.scripts = scripts
    }

    /// The (first) script file.
    package var script: String { scripts.first?.script ?? "" }
    /// The (first) script's flow file.
    package var flow: String { scripts.first?.flow ?? "" }
    /// Every scenario's result, script after script.
    package var results: [ScenarioResult] { scripts.flatMap(\.results) }

    /// How many scenarios passed.
    package var passed: Int { results.filter(\.passed).count }
    /// How many failed.
    package var failed: Int { results.count - passed }
    /// `N passed, N failed`, the summary line CI systems read.
    package var summaryLine: String { "\(passed) passed, \(failed) failed" }
}

/// Turns a simulation report into the text of one output format.
package protocol SimulationReporter: Sendable {
    /// The format's name, as `--format` takes it.
    static var identifier: String { get }
    /// The whole output for `report`.
    func render(_ report: SimulationReport) -> String
}

/// `{key: value, ...}` in key order, for traces.
func describe(_ values: [String: Value]) -> String {
    "{" + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
}
