/// `entry_param`: a deep-link path parameter that is not a declared state key, or an entry path that does not parse.
public enum EntryParamRule: Rule {
    public static let description = RuleDescription(
        identifier: "entry_param",
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

    public static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow else { return [] }
        let keys = flow.state.map(\.name.text)
        var findings: [Diagnostic] = []
        for entry in flow.entries {
            let name = entry.name.text
            if let problem = problem(in: entry.path) {
                findings.append(context.finding(self, at: entry.pathPosition, subject: name, "the path of entry '\(name)' does not parse: \(problem)"))
                continue
            }
            for parameter in EntryPath.parameters(entry.path) where !keys.contains(parameter) {
                findings.append(context.finding(self, at: entry.pathPosition, subject: parameter,
                                                "path parameter '\(parameter)' of entry '\(name)' is not a declared state key\(Suggestions.didYouMean(parameter, in: keys))"))
            }
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
                guard Identifier.isValid(name) else { return "parameter '\(Identifier.display(name))' is not a name" }
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
