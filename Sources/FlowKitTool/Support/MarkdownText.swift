import FlowKit

/// Text for Markdown output (pull request comments, job summaries), as GitHub reads it (CommonMark with GFM tables,
/// autolinks and strikethrough): nothing a flow file holds can end a span or a table cell, start a heading, a link,
/// a mention or an HTML tag (docs/format.md, "Markdown text").
enum MarkdownText {
    /// `text` for inside backquotes: no backquote or line break can end the span; in a table cell (`inTable`) a `|`
    /// is `\|`, which GFM reads as `|` even in a code span, so that it cannot end the cell.
    static func code(_ text: String, inTable: Bool = false) -> String {
        let shown = Identifier.display(text, limit: .max, quoting: false).replacingOccurrences(of: "`", with: "'")
        return inTable ? shown.replacingOccurrences(of: "|", with: "\\|") : shown
    }

    /// `text` as Markdown text, in running text or a table cell: characters Markdown, GFM or HTML would read
    /// escaped, the `:` of `://` and the dot of `www.` escaped and `@` in a code span, so that no link or mention
    /// forms.
    static func text(_ text: String) -> String {
        let characters = Array(Identifier.display(text, limit: .max, quoting: false))
        var output = ""
        for (index, character) in characters.enumerated() {
            if character == "@" {
                output += "`@`"
                continue
            }
            let linkStart = (character == ":" && characters[(index + 1)...].starts(with: ["/", "/"]))
                || (character == "." && index >= 3 && String(characters[(index - 3)..<index]).lowercased() == "www")
            if "\\`*_[]<>|#~$&".contains(character) || linkStart { output.append("\\") }
            output.append(character)
        }
        return output
    }

    /// `text` inside an HTML element (a `<summary>`): escaped as HTML, where backslashes mean nothing.
    static func html(_ text: String) -> String {
        var output = ""
        for character in Identifier.display(text, limit: .max, quoting: false) {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }
}
