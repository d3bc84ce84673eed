@testable import FlowKit
import Foundation
import Testing

/// `unreachable_entry` against the engine's own choice of entry (`EntryPath.entry(matching:in:)`): on random sets
/// of entries, every entry the rule reports is never chosen for a link it matches, and every other entry is chosen
/// for some link (one whose parameters are values no path has as a literal).
@Suite("Unreachable entries")
struct UnreachableEntryRuleTests {
    static let literals = ["a", "b", "items", "new", "s?q", "x#y"]
    static let parameters = ["p", "q", "r"]

    /// A random path: up to three segments, literals from a few names and parameters (each at most once).
    static func randomPath(_ generator: inout some RandomNumberGenerator) -> String {
        var unused = parameters.shuffled(using: &generator)
        let count = Int.random(in: 0...3, using: &generator)
        let segments = (0..<count).map { _ -> String in
            if !unused.isEmpty, Bool.random(using: &generator) { return "{\(unused.removeLast())}" }
            // The literals with '?' and '#' are rare: they take no link at all.
            let pool = Int.random(in: 0..<10, using: &generator) == 0 ? literals : Array(literals.prefix(4))
            return pool.randomElement(using: &generator)!
        }
        return "/" + segments.joined(separator: "/")
    }

    /// Links `path` matches: each parameter filled with a literal some path has, or a fresh value.
    static func links(matching path: String, _ generator: inout some RandomNumberGenerator) -> [String] {
        (0..<12).map { _ in
            path.split(separator: "/").map { segment -> String in
                guard segment.hasPrefix("{") else { return String(segment) }
                return Bool.random(using: &generator) ? literals.prefix(4).randomElement(using: &generator)! : "v\(Int.random(in: 0..<5, using: &generator))"
            }.reduce("") { $0 + "/" + $1 }
        }
    }

    @Test func reportedEntriesAreNeverChosenAndTheOthersAre() throws {
        var generator = SystemRandomNumberGenerator()
        var reported = 0
        var chosen = 0
        for round in 0..<400 {
            let paths = (0..<Int.random(in: 2...6, using: &generator)).map { _ in Self.randomPath(&generator) }
            let entries = paths.enumerated().map { "  e\($0.offset): { step: a, path: \"\($0.element)\" }" }.joined(separator: "\n")
            let yaml = "flowkit: 1\nflow: links\nstart: a\nstate: { p: string, q: string, r: string }\nentries:\n\(entries)\nsteps:\n  a: { kind: finish }\n"
            let document = FlowLoader.load(bytes: Array(yaml.utf8), file: "links.yaml")
            guard let flow = document.flow else { Issue.record("no flow: \(yaml)"); continue }
            let findings = Linter.lint(document)
            #expect(findings.allSatisfy { $0.rule == .unreachableEntry }, "round \(round): \(findings.map(\.message))\n\(yaml)")
            let never = Set(findings.compactMap(\.subject))
            for entry in flow.entries {
                let name = entry.name.text
                if never.contains(name) {
                    reported += 1
                    for link in Self.links(matching: entry.path, &generator) {
                        #expect(EntryPath.entry(matching: link, in: flow)?.name != name, "'\(name)' was chosen for \(link)\n\(yaml)")
                    }
                } else {
                    chosen += 1
                    // Fresh values at its parameters: only entries of its own shape can match as well as it does.
                    let link = EntryPath.link(entry.path, params: Dictionary(uniqueKeysWithValues: Self.parameters.map { ($0, "fresh") }))
                    #expect(EntryPath.entry(matching: link, in: flow)?.name == name, "'\(name)' (\(entry.path)) is not chosen for \(link)\n\(yaml)")
                }
            }
        }
        #expect(reported > 100 && chosen > 100, "reported \(reported), chosen \(chosen)")
    }
}
