import Foundation
import Testing
import FlowKit
@testable import FlowKitTool

/// The bash completion script ArgumentParser generates, run in a real bash: file names, rule names and option values.
@Suite("Shell completion and --version")
struct CompletionTests {
    /// What the completion function offers for each command line, in a bash that sourced the generated script. Each
    /// line is completed with the cursor at its end; a trailing space means an empty word is being completed.
    private func completions(_ lines: [String]) throws -> [String: [String]] {
        let bash = "/bin/bash"
        try #require(FileManager.default.isExecutableFile(atPath: bash), "bash is needed to test the completion script")
        let script = try flowkit(["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        let path = try folder(with: ["flowkit.bash": script.stdout])
        defer { try? FileManager.default.removeItem(atPath: path) }
        var driver = "source \(path)/flowkit.bash\ncomplete -p flowkit\n"
        driver += """
            complete_line() {
              read -r -a COMP_WORDS <<< "$1"
              [[ "$1" == *" " ]] && COMP_WORDS+=("")
              COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
              _flowkit "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
              printf '%s\\t%s\\n' "$1" "${COMPREPLY[*]}"
            }

            """
        for line in lines { driver += "complete_line '\(line)'\n" }
        try driver.write(toFile: path + "/driver.sh", atomically: true, encoding: .utf8)
        let output = try runProcess(bash, ["--norc", "--noprofile", path + "/driver.sh"], keepStandardError: false).stdout
        let rows = output.split(separator: "\n").map(String.init)
        #expect(rows.first == "complete -o filenames -F _flowkit flowkit", "complete -p: \(rows.first ?? "")")
        var result: [String: [String]] = [:]
        for row in rows.dropFirst() {
            let parts = row.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            result[String(parts[0])] = parts.count > 1 ? parts[1].split(separator: " ").map(String.init).sorted() : []
        }
        return result
    }

    @Test func bashCompletesFilesRulesAndOptionValues() throws {
        let offered = try completions([
            "flowkit lint fl", "flowkit lint flows/broken/sch", "flowkit simulate flows/tr", "flowkit render flows/booking.",
            "flowkit explain unre", "flowkit explain ", "flowkit render --rankdir ", "flowkit render --engine ne",
            "flowkit lint --format ", "flowkit simulate --format j", "flowkit li",
        ])
        #expect(offered["flowkit lint fl"] == ["flows"])
        #expect(offered["flowkit lint flows/broken/sch"] == ["flows/broken/schema.yaml"])
        #expect(offered["flowkit simulate flows/tr"] == ["flows/transfer.json", "flows/transfer.yaml"])
        #expect(offered["flowkit render flows/booking."] == ["flows/booking.json"], "pictures beside the flow are not offered")
        #expect(offered["flowkit explain unre"] == ["unreachable_entry", "unreachable_option", "unreachable_step"])
        #expect(offered["flowkit explain "] == Linter.rules.map { $0.description.identifier.rawValue }.sorted())
        #expect(offered["flowkit render --rankdir "] == ["LR", "TB"])
        #expect(offered["flowkit render --engine ne"] == ["neato"])
        #expect(offered["flowkit lint --format "] == LintReportFormat.allCases.map(\.rawValue).sorted())
        #expect(offered["flowkit simulate --format j"] == ["json", "junit"])
        #expect(offered["flowkit li"] == ["lint"])
    }

    @Test func versionIsTheLibrarysVersion() throws {
        let result = try flowkit(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == FlowKitVersion.current + "\n")
        let sarif = try flowkit(["lint", "--format", "sarif", "flows/transfer.yaml"])
        #expect(sarif.stdout.contains("\"version\": \"\(FlowKitVersion.current)\""))
    }
}
