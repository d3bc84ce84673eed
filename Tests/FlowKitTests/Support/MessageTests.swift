@testable import FlowKit
import Testing

/// A message escapes what is interpolated into it, once, as its label says.
struct MessageTests {
    @Test func namesAreEscapedAndCutPathsEscapedWholeAndVerbatimKept() {
        let hostile = "a'b\\c\n\u{202E}d"
        let long = String(repeating: "x", count: 100)
        let message: Message = "step '\(name: hostile)' of '\(path: "dir/\u{1B}[31mf.yaml")', \(name: long), \(name: long, limit: 10), \(verbatim: "; did you mean 'y'?") \(3)"
        #expect(message.text == "step '\(Identifier.display(hostile))' of '\(Identifier.display("dir/\u{1B}[31mf.yaml", limit: .max, quoting: false))', "
                + "\(Identifier.display(long)), \(Identifier.display(long, limit: 10)), ; did you mean 'y'? 3")
        #expect(!message.text.contains("\n") && !message.text.contains("\u{202E}") && !message.text.contains("\u{1B}"))
        // Escaped once: a message interpolated into another is taken as it is.
        let outer: Message = "(\(message))"
        #expect(outer.text == "(" + message.text + ")")
        #expect((message + " and more").text == message.text + " and more")
    }

    @Test func aRuleShowsALongNameCutOnce() throws {
        // Names reaching the rules are identifiers (the decoder refuses others): a long one is cut at 60, once.
        let long = "s" + String(repeating: "x", count: 99)
        let text = """
        flowkit: 1
        flow: f
        start: a
        steps:
          a: { next: \(long) }
          done: { kind: finish }
        """
        let findings = Linter.lint(FlowLoader.load(bytes: Array(text.utf8), file: "f.yaml", format: .yaml))
        let message = try #require(findings.first { $0.rule == .undefinedStep }, "\(findings.map(\.message))").message
        #expect(message.contains("'\(Identifier.display(long))'"), "\(message)")
        #expect(!message.contains(long), "\(message)")
    }

    @Test func textsFromAFileArePathsShownWhole() throws {
        // A scenario's name is prose: an apostrophe stays one, and a long one is not cut.
        let name = "the customer's card is declined, and the app shows why to the customer on the payment screen"
        let text = """
        flowkit-script: 1
        flow: f.yaml
        scenarios:
          - name: "\(name)"
            steps: []
          - name: "\(name)"
            steps: []
        """
        let root = try #require(FlowLoader.parse(bytes: Array(text.utf8), file: "s.yaml", format: .yaml).root)
        let messages = ScriptDecoder.decode(root, file: "s.yaml").diagnostics.map(\.message)
        #expect(messages.contains("two scenarios are named '\(name)'"), "\(messages)")
    }
}
