/// `unreachable_entry`: an entry no link ever starts at, because an earlier entry wins every link it matches or
/// its path cannot match a link at all.
enum UnreachableEntryRule: Rule {
    package static let description = RuleDescription(
        identifier: .unreachableEntry,
        name: "Unreachable entry",
        summary: "No link ever starts at the entry: an earlier entry matches every link it matches, or its path cannot match one.",
        rationale: """
            A link starts at the entry whose path matches it with the most literal segments, then at the first in \
            the file. So an entry is never chosen when an earlier entry has the same path up to the names of its \
            parameters (a literal segment where it has one, a parameter where it has one): that entry matches every \
            link this one matches and comes first. (A parameter before a literal, as in '/items/{id}' and \
            '/items/new', is no such case: '/items/new' has more literal segments and wins its link.) A path with \
            '?' or '#' in a literal segment matches no link either, since a link's query and fragment are cut off \
            before it is matched. The finding is at the path of the entry that is never chosen.
            """,
        severity: .warning,
        triggeringExamples: [
            """
            flowkit: 1
            flow: links
            start: a
            state: { id: string, code: string }
            entries:
              show: { step: a, path: "/items/{id}" }
              redeem: { step: b, path: ↓"/items/{code}" }
            steps:
              a: { next: b }
              b: { kind: finish }
            """,
            """
            flowkit: 1
            flow: links
            start: a
            entries:
              search: { step: a, path: ↓"/search?all" }
            steps:
              a: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: links
            start: a
            state: { id: string }
            entries:
              show: { step: a, path: "/items/{id}" }
              create: { step: b, path: "/items/new" }
              edit: { step: b, path: "/items/{id}/edit" }
            steps:
              a: { next: b }
              b: { kind: finish }
            """,
        ])

    /// Needs the document and its flow model only.
    static let needs: RuleNeeds = []

    /// A path's shape: its literal segments as written and nil for each parameter.
    static func shape(_ path: String) -> [Substring?] {
        path.split(separator: "/").map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") && segment.count > 2 ? nil : segment
        }
    }

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow else { return [] }
        var findings: [Diagnostic] = []
        // The first entry of each shape; paths `entry_param` cannot parse are left to it.
        var firstOfShape: [[Substring?]: Entry] = [:]
        for entry in flow.entries where EntryParamRule.problem(in: entry.path) == nil {
            let name = entry.name.text
            let shape = shape(entry.path)
            if let segment = shape.lazy.compactMap({ $0 }).first(where: { $0.contains("?") || $0.contains("#") }) {
                let mark = segment.contains("?") ? "?" : "#"
                findings.append(context.finding(self, at: entry.pathPosition, subject: name,
                                                "entry '\(name: name)' is never chosen: its path segment '\(name: segment)' holds '\(name: mark)', "
                                                + "but a link's query and fragment are cut off before it is matched, so no link matches it"))
                continue
            }
            if let earlier = firstOfShape[shape] {
                let same: Message = earlier.path == entry.path ? "the same path" : "the same path up to its parameters' names ('\(name: earlier.path)')"
                findings.append(context.finding(self, at: entry.pathPosition, subject: name,
                                                "entry '\(name: name)' is never chosen: entry '\(name: earlier.name.text)' comes first with \(same), "
                                                + "so it matches every link that '\(name: name)' matches"))
            } else {
                firstOfShape[shape] = entry
            }
        }
        return findings
    }
}
