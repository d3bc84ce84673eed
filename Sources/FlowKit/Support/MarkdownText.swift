/// Text for Markdown output (pull request comments, job summaries): nothing a flow file holds can end a span,
/// start a heading, a table cell, a link or an HTML tag.
enum MarkdownText {
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
