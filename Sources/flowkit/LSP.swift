import ArgumentParser
import FlowKitTool
import Foundation

/// `flowkit lsp`: the language server for editors, over standard input and output.
struct LSP: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Serve flow files to an editor (the Language Server Protocol over standard input and output).",
        discussion: """
            Started by the editor, not by hand: it speaks LSP 3.17 (JSON-RPC with Content-Length framing) on \
            standard input and output and logs to standard error. It gives lint's findings as you type (across \
            nested flows and scripts, with each file's .flowkit.yml), go to definition, references, rename, \
            completion, hover, an outline and quick fixes. The README's "In your editor" shows how to set it up.
            """)

    func run() throws {
        let status = LanguageServerLoop.run { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        // The protocol's exit status (0 after 'shutdown', else 1), not a command error's.
        Foundation.exit(status)
    }
}
