/// How serious a finding is.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    /// Fails the lint.
    case error
    /// Fails the lint only with `--strict`.
    case warning
    /// Information; never fails the lint.
    case note

    private var rank: Int {
        switch self {
        case .error: return 0
        case .warning: return 1
        case .note: return 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One finding: a rule, a severity, a message and where it applies.
public struct Diagnostic: Hashable, Sendable {
    /// The file the finding is about, as given to flowkit.
    public var file: String
    /// Where in the file.
    public var position: SourcePosition
    /// How serious it is.
    public var severity: Severity
    /// The rule's snake_case identifier.
    public var rule: RuleID
    /// The step the finding is about, when there is one.
    public var step: String?
    /// A lowercase message naming steps in single quotes.
    public var message: String
    /// What the finding is about, by name, when its rule has such a thing: the missing name of `undefined_step`,
    /// the state key of `maybe_unset`, the event of `undeclared_event`, the target of `back_target` (the rules list
    /// theirs in docs/format.md). Baselines and SARIF fingerprints identify a finding by rule, file, step and
    /// subject, since a message may describe a path that changes when an unrelated step is added.
    public var subject: String?
    /// The steps of a run toward the finding, from where it starts, when its rule names one (`maybe_unset`'s and
    /// `back_target`'s "not on the path …"): what a witness search follows first.
    package var path: [String]?
    /// The safe fix, when the finding has one (a unique did-you-mean suggestion): what `lint --fix`, SARIF's
    /// `fixes` and the editor's quick fix apply.
    package var fix: Fix?

    /// Creates a finding. Names in `message` should already be escaped with `Identifier.display`; as a last
    /// guard, any control, format or separator character left in it is escaped the same way, so that no finding
    /// can forge a line or an escape sequence in a terminal or a report.
    public init(file: String, position: SourcePosition, severity: Severity, rule: RuleID, step: String? = nil, message: String,
                subject: String? = nil) {
        self.file = file
        self.position = position
        self.severity = severity
        self.rule = rule
        self.step = step
        self.message = Identifier.needsEscape(message) ? Identifier.display(message, limit: .max, quoting: false) : message
        self.subject = subject
    }

    /// The 1-based line.
    public var line: Int { position.line }
    /// The 1-based column.
    public var column: Int { position.column }
}
