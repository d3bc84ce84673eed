/// The outcome of running scenarios: each script's scenarios' results and the files involved.
public struct SimulationReport: Sendable {
    /// The runs of one script (or of `--events`) against its flow.
    public struct ScriptRun: Sendable {
        /// The script file (or a description of the run when there is no script).
        public var script: String
        /// The flow file.
        public var flow: String
        /// The scenarios' results, in order.
        public var results: [ScenarioResult]

        /// Creates the runs of one script.
        public init(script: String, flow: String, results: [ScenarioResult]) {
            self.script = script
            self.flow = flow
            self.results = results
        }
    }

    /// The scripts run, in the order given.
    public var scripts: [ScriptRun]

    /// A report of one script.
    public init(script: String, flow: String, results: [ScenarioResult]) {
        scripts = [ScriptRun(script: script, flow: flow, results: results)]
    }

    /// A report of several scripts, run one after the other.
    public init(scripts: [ScriptRun]) {
        self.scripts = scripts
    }

    /// The (first) script file.
    public var script: String { scripts.first?.script ?? "" }
    /// The (first) script's flow file.
    public var flow: String { scripts.first?.flow ?? "" }
    /// Every scenario's result, script after script.
    public var results: [ScenarioResult] { scripts.flatMap(\.results) }

    /// How many scenarios passed.
    public var passed: Int { results.filter(\.passed).count }
    /// How many failed.
    public var failed: Int { results.count - passed }
    /// `N passed, N failed`, the summary line CI systems read.
    public var summaryLine: String { "\(passed) passed, \(failed) failed" }
}

/// Turns a simulation report into the text of one output format.
public protocol SimulationReporter: Sendable {
    /// The format's name, as `--format` takes it.
    static var identifier: String { get }
    /// The whole output for `report`.
    func render(_ report: SimulationReport) -> String
}

extension Value {
    /// The value as JSON text.
    var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .number(let number): return number.isFinite ? "\(number)" : "null"
        case .string(let text): return JSONText.string(text)
        case .object(let fields):
            return "{" + fields.sorted { $0.key < $1.key }.map { "\(JSONText.string($0.key)): \($0.value.jsonText)" }.joined(separator: ", ") + "}"
        }
    }
}

/// `{key: value, ...}` in key order, for traces.
func describe(_ values: [String: Value]) -> String {
    "{" + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
}
