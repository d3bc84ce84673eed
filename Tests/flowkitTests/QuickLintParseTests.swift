import ArgumentParser
import Testing
@testable import flowkit

/// `flowkit lint` reads its commonest command lines without ArgumentParser (`LintRequest.quickParse`). Wherever
/// it gives a request, ArgumentParser must accept the same line and give the same request; everything else is
/// left to ArgumentParser.
@Suite struct QuickLintParseTests {
    /// Words command lines are made of: paths (some that look like subcommands or help), every option `lint` has,
    /// values good and bad, in both spellings.
    static let words = [
        "a.yaml", "flows/", "b c.json", "", "help", "lint", "json", "x=y.yaml", "-", "--", "-h", "--help", "--version",
        "--format", "--format", "json", "sarif", "text", "bogus", "--format=json", "--format=github", "--format=", "--format=nope",
        "--color", "never", "always", "auto", "--color=never", "--color=sometimes",
        "--strict", "--strict", "--strict=true", "--verbose", "--allow-outside",
        "--report", "sarif:out.sarif", "--config", ".flowkit.yml", "--baseline", "base.json", "--write-baseline", "--unknown", "-x",
    ]

    /// ArgumentParser's request for `arguments`, or nil when it does not read them as a lint.
    static func parsedByArgumentParser(_ arguments: [String]) -> LintRequest? {
        guard let command = try? Flowkit.parseAsRoot(arguments) else { return nil }
        return (command as? Lint)?.request
    }

    @Test func randomCommandLinesAgreeWithArgumentParser() {
        var state: UInt64 = 2_026
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var quick = 0
        var left = 0
        for _ in 0..<3_000 {
            let arguments = ["lint"] + (0..<(1 + next(6))).map { _ in Self.words[next(Self.words.count)] }
            guard let request = LintRequest.quickParse(arguments) else {
                left += 1
                continue
            }
            quick += 1
            #expect(Self.parsedByArgumentParser(arguments) == request, "\(arguments)")
        }
        // Both kinds are common enough for the comparison to mean something.
        #expect(quick > 300)
        #expect(left > 300)
    }

    @Test func theCommonLinesAreReadQuickly() throws {
        let lines: [[String]] = [
            ["lint", "flows/"],
            ["lint", "flows/transfer.yaml", "--format", "json"],
            ["lint", "--strict", "--format=sarif", "a.yaml", "b.json"],
            ["lint", "--color", "never", "--verbose", "--allow-outside", "flows/"],
        ]
        for line in lines {
            let request = try #require(LintRequest.quickParse(line), "\(line)")
            #expect(Self.parsedByArgumentParser(line) == request)
        }
    }

    @Test func everythingElseIsLeftToArgumentParser() {
        let lines: [[String]] = [
            ["lint"], ["lint", "--help"], ["lint", "-h"], ["lint", "a.yaml", "--format", "bogus"], ["lint", "a.yaml", "--format"],
            ["lint", "a.yaml", "--strict", "--strict"], ["lint", "a.yaml", "--report", "sarif:x"], ["lint", "--", "a.yaml"],
            ["lint", "-"], ["render", "a.yaml"], ["--version"], [],
        ]
        for line in lines { #expect(LintRequest.quickParse(line) == nil, "\(line)") }
    }
}
