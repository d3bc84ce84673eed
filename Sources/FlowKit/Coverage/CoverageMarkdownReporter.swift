/// A Markdown summary for a pull request comment or `$GITHUB_STEP_SUMMARY`: a table of every flow file's
/// percentages, then each file's items not covered.
public struct CoverageMarkdownReporter: CoverageReporter {
    /// Creates a Markdown reporter.
    public init() {}

    public func render(_ coverage: Coverage) -> String {
        var output = "### Flow coverage\n\n| flow | steps | transitions | events | outcomes | entries |\n| --- | --- | --- | --- | --- | --- |\n"
        for file in coverage.files {
            let cells = CoverageItem.Kind.allCases.map { kind -> String in
                let (covered, total) = file.count(kind)
                return total == 0 ? "–" : "\(covered)/\(total) (\(CoverageTextReporter.percent(file.percent(kind))))"
            }
            output += "| `\(Self.code(file.file))` | " + cells.joined(separator: " | ") + " |\n"
        }
        let missed = coverage.files.filter { !$0.missed.isEmpty }
        if !missed.isEmpty {
            output += "\n<details><summary>Not covered</summary>\n\n"
            for file in missed {
                for item in file.missed {
                    output += "- `\(Self.code(file.file)):\(item.line):\(item.column)` \(Self.text(item.description)) \(item.kind.missedPhrase)\n"
                }
            }
            output += "\n</details>\n"
        }
        return output
    }

    /// `text` for inside backquotes: no backquote or line break can end the span.
    static func code(_ text: String) -> String {
        Identifier.display(text, limit: .max, quoting: false).replacingOccurrences(of: "`", with: "'")
    }

    /// `text` as Markdown text: characters Markdown or HTML would read escaped.
    static func text(_ text: String) -> String {
        var output = ""
        for character in Identifier.display(text, limit: .max, quoting: false) {
            if "\\`*_[]<>|#".contains(character) { output.append("\\") }
            output.append(character)
        }
        return output
    }
}
