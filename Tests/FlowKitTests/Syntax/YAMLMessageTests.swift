@testable import FlowKit
import Foundation
import Testing

/// Messages for YAML that reads as something else than the author meant (issue 28, item 6): each says what to
/// write, in block and flow style, at the position libyaml stops.
@Suite("YAML messages that say what was meant")
struct YAMLMessageTests {
    static let header = "flowkit: 1\nflow: f\nstart: a\n"

    static func message(_ yaml: String) -> String {
        Linter.lint(FlowLoader.load(bytes: Array(yaml.utf8), file: "f.yaml")).first?.message ?? "no finding"
    }

    @Test func anUnquotedStarStepIsAnAlias() {
        for star in ["*:", "* :"] {
            let text = Self.message(Self.header + "steps:\n  \(star)\n    on: { e: a }\n  a: { kind: finish }\n")
            #expect(text.hasSuffix("'*' starts a YAML alias; the step shared by every step is written in quotes: \"*\":"), "\(star): \(text)")
        }
    }

    @Test func anUnquotedConditionalIsToBeQuoted() {
        let head = Self.header + "state: { x: string?, a: bool }\nsteps:\n  a:\n    result: { v: int }\n"
        for set in ["    set:\n      x: state.a ? null : 'x'\n", "    set: { x: state.a ? null : 'x' }\n", "    set: { x: state.a ? null : 'x', a: true }\n"] {
            let text = Self.message(head + set + "    next: b\n  b: { kind: finish }\n")
            #expect(text.hasSuffix("an expression with '? :' must be quoted, as YAML reads ': ' as the start of a value: \"state.a ? null : 'x'\""),
                    "\(set): \(text)")
        }
    }

    @Test func quotedTextBeforeMoreOfTheExpressionGoesInsideAnotherPair() {
        let head = Self.header + "state: { name: string }\nsteps:\n  a:\n    result: { v: int }\n    next:\n      - forward: b\n"
        let single = Self.message(head + "        if: 'Acme' == state.name\n      - b\n  b: { kind: finish }\n")
        #expect(single.hasSuffix("an expression with quoted text goes inside another pair of quotes: if: \"'Acme' == state.name\""), "\(single)")
        let double = Self.message(head + "        if: \"Acme\" == state.name\n      - b\n  b: { kind: finish }\n")
        #expect(double.hasSuffix("an expression with quoted text goes inside another pair of quotes: if: '\"Acme\" == state.name'"), "\(double)")
    }

    /// Quoted keys and quotes written with escapes are no quoted value that goes on (from a review).
    @Test func quotedKeysAndEscapedQuotesGetNoQuotingHint() {
        let star = Self.message(Self.header + "steps:\n  \"*\":\n    next: done\n  a: { next: done }\n  - done\n")
        #expect(!star.contains("another pair of quotes"), "\(star)")
        let escaped = Self.message(Self.header + "steps:\n  a:\n    title: 'It''s'\n    next: done\n  - done\n")
        #expect(!escaped.contains("another pair of quotes"), "\(escaped)")
    }

    @Test func aQuotedBareWordSaysTheQuotesWereTheFiles() {
        let yaml = Self.message(Self.header + "state: { name: string }\nsteps:\n  a: { result: { v: int }, set: { name: 'Acme' }, next: b }\n  b: { kind: finish }\n")
        #expect(yaml == "unknown name 'Acme': the quotes around the value belong to the file, not to the expression; text in an expression has quotes of its own: \"'Acme'\"")
        // Unquoted, the word gets the usual message.
        let plain = Self.message(Self.header + "state: { name: string }\nsteps:\n  a: { result: { v: int }, set: { name: Acme }, next: b }\n  b: { kind: finish }\n")
        #expect(plain.hasPrefix("unknown name 'Acme'; to compare with text, quote it"), "\(plain)")
    }

    @Test func aStepKeyUnderTheWrongParentSaysSo() {
        let state = Self.message(Self.header + "state:\n  amount: int\n  next: b\nsteps:\n  a: { next: b }\n  b: { kind: finish }\n")
        #expect(state == "'next' is a key of a step, not a key with a type ('b' is no type); is it indented under the wrong parent?")
        let steps = Self.message(Self.header + "steps:\n  a:\n    result: { amount: int }\n  on: { x: b }\n  b: { kind: finish }\n")
        #expect(steps == "'on' is a key of a step, but here it is a step of its own; is it indented under the wrong parent (step 'a', above it)?", "\(steps)")
        // A state key named like a step key, with a type, is a state key.
        #expect(Linter.lint(FlowLoader.load(bytes: Array((Self.header + "state: { title: string }\nsteps:\n  a: { kind: finish }\n").utf8), file: "f.yaml")).isEmpty)
    }
}
