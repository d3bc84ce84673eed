/// `entry_param`: a deep-link path parameter that is not a declared state key, or an entry path that does not parse.
enum EntryParamRule: Rule {
    package static let description = RuleDescription(
        identifier: .entryParam,
        name: "Entry parameter",
        summary: "A deep-link path parameter is not a declared state key, or an entry's path does not parse.",
        rationale: """
            An entry's path binds each '{key}' parameter into the state key of that name, converted to its \
            declared type. A path starts with '/', its parameters are identifiers between braces, each at most \
            once, with no empty or unclosed braces.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: links
            start: a
            state: { amount: int }
            entries:
              edit: { step: a, path: ↓"/transfer/{amont}" }
            steps:
              a: { kind: finish }
            """,
            """
            flowkit: 1
            flow: links
            start: a
            entries:
              edit: { step: a, path: ↓"transfer/{x" }
            steps:
              a: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: links
            start: a
            state: { amount: int }
            entries:
              edit: { step: a, path: "/transfer/{amount}/edit" }
            steps:
              a: { kind: finish }
            """,
        ])

    /// Needs the document and its flow model only.
    static let needs: RuleNeeds = []

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow else { return [] }
        let keys = flow.state.map(\.name.text)
        var findings: [Diagnostic] = []
        for entry in flow.entries {
            let name = entry.name.text
            if let problem = problem(in: entry.path) {
                findings.append(context.finding(self, at: entry.pathPosition, subject: name, "the path of entry '\(name: name)' does not parse: \(verbatim: problem)"))
                continue
            }
            let segments = entry.path.split(separator: "/")
            if let mixed = segments.first(where: { $0.contains("{") && !($0.hasPrefix("{") && $0.hasSuffix("}") && $0.filter { $0 == "{" }.count == 1) }) {
                findings.append(context.finding(self, at: entry.pathPosition, subject: name,
                                                "the path of entry '\(name: name)' has a parameter inside the segment '\(name: mixed)'; a parameter is a whole segment, like '/items/{id}'"))
                continue
            }
            if let nested = entry.nestedEntry {
                findings += nestedEntryFindings(entry, nested: nested, in: flow, context: context)
                continue
            }
            for parameter in EntryPath.parameters(entry.path) where !keys.contains(parameter) {
                findings.append(context.finding(self, at: entry.pathPosition, subject: parameter,
                                                "path parameter '\(name: parameter)' of entry '\(name: name)' is not a declared state key\(verbatim: Suggestions.didYouMean(parameter, in: keys))"))
            }
        }
        return findings
    }

    /// An entry into a nested flow: its step runs a nested flow, which has the entry, whose parameters are the path's.
    static func nestedEntryFindings(_ entry: Entry, nested: Name, in flow: Flow, context: LintContext) -> [Diagnostic] {
        let name = entry.name.text
        guard let step = flow.step(named: entry.step.text) else { return [] }
        guard step.kind == .flow else {
            return [context.finding(self, at: nested.position, subject: name,
                                    "entry '\(name: name)' reaches into step '\(name: step.name.text)', which is not a 'flow' step; 'entry' goes with a step that runs a nested flow")]
        }
        // A nested flow that cannot be loaded is subflow_missing's finding.
        guard let child = context.nestedFlow(of: step) else { return [] }
        guard let target = child.entries.first(where: { $0.name.text == nested.text }) else {
            return [context.finding(self, at: nested.position, subject: nested.text,
                                    "nested flow '\(name: step.flowPath ?? "")' has no entry '\(name: nested.text)'\(verbatim: Suggestions.didYouMean(nested.text, in: child.entries.map(\.name.text)))")]
        }
        let given = EntryPath.parameters(entry.path)
        let wanted = EntryPath.parameters(target.path)
        var findings: [Diagnostic] = []
        for parameter in given where !wanted.contains(parameter) {
            findings.append(context.finding(self, at: entry.pathPosition, subject: parameter,
                                            "path parameter '\(name: parameter)' of entry '\(name: name)' is not a parameter of the nested entry '\(name: nested.text)'\(verbatim: Suggestions.didYouMean(parameter, in: wanted))"))
        }
        for parameter in wanted where !given.contains(parameter) {
            findings.append(context.finding(self, at: entry.pathPosition, subject: parameter,
                                            "entry '\(name: name)' does not give the nested entry '\(name: nested.text)' its path parameter '\(name: parameter)'"))
        }
        return findings
    }

    /// What is wrong with `path`, or nil when it parses.
    static func problem(in path: String) -> String? {
        guard path.hasPrefix("/") else { return "it must start with '/'" }
        var seen = Set<String>()
        var current: String?
        for character in path {
            switch character {
            case "{":
                if current != nil { return "'{' inside a parameter" }
                current = ""
            case "}":
                guard let name = current else { return "'}' without '{'" }
                guard !name.isEmpty else { return "an empty parameter '{}'" }
                guard Identifier.isValid(name) else { return ("parameter '\(name: name)' is not a name" as Message).text }
                guard seen.insert(name).inserted else { return "parameter '\(name)' appears twice" }
                current = nil
            default:
                if current != nil { current!.append(character) }
                if character.isWhitespace || character.unicodeScalars.contains(where: { $0.value < 0x20 }) {
                    return "it contains white space or control characters"
                }
            }
        }
        return current == nil ? nil : "a parameter is not closed with '}'"
    }
}
