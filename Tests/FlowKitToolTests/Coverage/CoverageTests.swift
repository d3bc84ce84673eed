import Foundation
import Testing
import FlowGen
@testable import FlowKit
@testable import FlowKitTool

/// Coverage of flow files by runs (docs/format.md, "Coverage").
@Suite("Coverage")
struct CoverageTests {
    static let golden = "Tests/FlowKitToolTests/Coverage/Golden"

    /// The coverage of the sample script `name` (flows/scripts/NAME.yaml), counted as `simulate --coverage` does.
    static func scriptCoverage(_ name: String) throws -> Coverage {
        let path = "flows/scripts/\(name).yaml"
        let setup = try SimulationSetup(input: nil, script: packageRoot + "/" + path, needsScript: true)
        var recorder = CoverageRecorder(flow: setup.flow, resolver: setup.resolver)
        for result in ScriptRunner.run(setup.script!, flow: setup.flow, resolver: setup.resolver) {
            #expect(result.passed, "\(result.name): \(result.error ?? "")")
            recorder.record(result)
        }
        return recorder.coverage
    }

    @Test func theTransferScriptsCoverageIsExact() throws {
        let file = try #require(try Self.scriptCoverage("transfer").files.first)
        #expect(file.file.hasSuffix("flows/transfer.yaml"))
        // Counted by hand from flows/scripts/transfer.yaml: 6 steps and a finish step, all shown; 10 transitions
        // (9 of the steps' own, and the "*" error handler once), all taken; the "*" error handler is used at the 6
        // steps that are not finish steps and taken only at tariffs (star-steps 1/6).
        #expect(file.count(.step) == (7, 7))
        #expect(file.count(.transition) == (10, 10))
        #expect(file.starSteps.map { [$0.covered, $0.total] } == [1, 6])
        #expect(file.count(.event) == (1, 1) && file.count(.outcome) == (1, 1) && file.count(.entry) == (1, 1))
        func hits(_ key: String) -> Int? { file.items.first { $0.key == key }?.hits }
        #expect(hits("step amount") == 5, "twice in the first scenario, twice in the second, once in the third")
        #expect(hits("transition amount next 0") == 4)
        #expect(hits("step tariffs") == 7)
        #expect(hits("transition tariffs next 0") == 6)
        #expect(hits("transition confirmation on confirmationContinue 0") == 4)
        #expect(hits("transition tariffs * on error 0") == 1)
        #expect(hits("transition amount * on error 0") == 0)
        #expect(hits("event invalidAmount") == 1 && hits("entry editTariff") == 1 && hits("outcome finish") == 4)
        #expect(file.missed.map(\.description) == ["* --on error--> alert at amount", "* --on error--> alert at invalidAmount",
                                                   "* --on error--> alert at confirmation", "* --on error--> alert at success",
                                                   "* --on error--> alert at alert"])
        #expect(file.folded.map { "\($0.description): \($0.taken)/\($0.steps)" } == ["* --on error--> alert: 1/6"])
    }

    @Test func aNestedFlowIsCountedInItsOwnFile() throws {
        let coverage = try Self.scriptCoverage("booking")
        #expect(coverage.files.map { String($0.file.split(separator: "/").suffix(2).joined(separator: "/")) } == ["flows/booking.json", "nested/sign-in.yaml"])
        let booking = coverage.files[0]
        let signIn = coverage.files[1]
        #expect(booking.items.first { $0.key == "step signIn" }!.hits > 0, "a flow step is shown when its nested flow runs")
        #expect(signIn.count(.outcome) == (2, 2), "both outcomes of the nested flow are reached")
        #expect(signIn.items.first { $0.key == "step email" }!.hits > 0)
    }

    @Test func anOptionThatCannotBeTakenIsListedApart() throws {
        let text = """
            flowkit: 1
            flow: t
            start: a
            events: { go: }
            steps:
              a:
                on:
                  go: [b, c]
                next: b
              b: { next: done }
              c: { next: done }
              done: { kind: finish }
            """
        let flow = try CompiledFlow(flow: try #require(FlowLoader.load(bytes: Array(text.utf8), file: "t.yaml", format: .yaml).flow))
        let file = try #require(CoverageRecorder(flow: flow, resolver: nil).coverage.files.first)
        let unreachable = file.items.filter { !$0.coverable }
        #expect(unreachable.map(\.key) == ["transition a on go 1"])
        #expect(unreachable.map(\.description) == ["a --on go [1]--> c"])
        #expect(file.count(.transition) == (0, 4), "a's go [0] and next, b's next, c's next; not go [1]")
    }

    /// Property: on random flows with nested flows and random walks, every option a run takes is an item of its
    /// file, and an option's hits are the number of trace entries that took it; a step's hits are the times the
    /// path shows it (top-level flows).
    @Test func hitsAreTheTimesTheTraceTookEachEdge() throws {
        var checked = 0
        for seed in UInt64(1)...150 {
            let bundle = BlueprintGenerator.bundle(seed: seed)
            guard let main = FlowLoader.load(bytes: Array(bundle.main.text.utf8), file: bundle.main.name).flow,
                  let flow = try? CompiledFlow(flow: main) else { continue }
            var children: [String: CompiledFlow] = [:]
            for child in bundle.children {
                if let loaded = FlowLoader.load(bytes: Array(child.text.utf8), file: child.name).flow, let compiled = try? CompiledFlow(flow: loaded) {
                    children[child.name] = compiled
                }
            }
            let resolver = InMemoryResolver(children)
            var recorder = CoverageRecorder(flow: flow, resolver: resolver)
            var expected: [String: [String: Int]] = [:]
            var shown: [String: Int] = [:]
            for run in 0..<4 {
                let walk = RandomWalker(flow: flow, resolver: resolver).walk(seed: seed &* 31 &+ UInt64(run))
                let moves = walk.completions.map { completion -> RunMove in
                    completion.event.map { .event($0) } ?? completion.result.map { .result($0, step: nil) } ?? .next
                }
                let result = ScriptRunner.run(moves: moves, start: walk.start.runStart, flow: flow, resolver: resolver)
                recorder.record(result)
                for entry in result.trace {
                    guard let taken = entry.taken else { continue }
                    let step = String(entry.step.split(separator: "/").last!)
                    let key = "transition \(step) " + (taken.shared ? "* " : "") + (taken.handler.map { "on " + $0 } ?? "next") + " \(taken.option)"
                    expected[CoverageRecorder.display(taken.file), default: [:]][key, default: 0] += 1
                }
                for name in result.path where !name.contains("/") { shown[name, default: 0] += 1 }
            }
            let coverage = recorder.coverage
            // Every item is a value that its key, as coverage files write it, gives back; the file reads back equal.
            for file in coverage.files {
                for item in file.items { #expect(CoverageIdentity(key: item.key) == item.identity, "seed \(seed): \(item.key)") }
            }
            #expect(try JSONDecoder().decode(Coverage.self, from: Data(coverage.json())) == coverage, "seed \(seed)")
            for (file, keys) in expected {
                let items = try #require(coverage.files.first { $0.file == file }, "seed \(seed): no coverage of \(file)")
                for (key, count) in keys {
                    let item = items.items.first { $0.key == key }
                    #expect(item != nil, "seed \(seed): the run took \(key) in \(file), which is no item")
                    #expect(item?.hits == count, "seed \(seed): \(key) taken \(count) times, counted \(item?.hits ?? -1)")
                }
                let counted = items.items.filter { $0.kind == .transition }.reduce(0) { $0 + $1.hits }
                #expect(counted == keys.values.reduce(0, +), "seed \(seed): \(file) counts edges no run took")
            }
            let top = coverage.files[0]
            for step in main.steps where step.kind != .flow {
                #expect(top.items.first { $0.key == "step " + step.name.text }?.hits == shown[step.name.text, default: 0], "seed \(seed): step \(step.name.text)")
            }
            checked += 1
        }
        #expect(checked > 100)
    }

    /// A coverage file's item is read only when its key names an item of its kind (and `shared`, the `"*"` option
    /// the key names): anything else is not coverage flowkit wrote.
    @Test func keysThatNameNoItemAreRefused() throws {
        func item(_ kind: String, _ key: String, shared: String? = nil) -> String {
            #"{"flowkit-coverage": 1, "files": [{"file": "f.yaml", "items": [{"kind": "\#(kind)", "key": "\#(key)", "description": "d", "line": 1, "column": 1, "hits": 0, "coverable": true"#
                + (shared.map { #", "shared": "\#($0)""# } ?? "") + "}]}]}"
        }
        let good = [item("step", "step a"), item("transition", "transition a on go 0"), item("transition", "transition a * next 2", shared: "* next 2"),
                    item("event", "event e"), item("outcome", "outcome done"), item("entry", "entry deep")]
        for text in good { #expect((try? JSONDecoder().decode(Coverage.self, from: Data(text.utf8))) != nil, "\(text)") }
        let bad = [item("step", "step"), item("step", "step a b"), item("step", "event a"), item("transition", "transition a on 0"),
                   item("transition", "transition a next -1"), item("transition", "transition a next 01"), item("transition", "transition a next x"),
                   item("transition", "transition a on go 0 1"), item("transition", "transition a * next 2"), item("transition", "transition a next 2", shared: "* next 2"),
                   item("transition", "transition a * next 2", shared: "* next 3"), item("entry", "bogus a"), item("event", "event "), item("outcome", "outcome  x")]
        for text in bad { #expect((try? JSONDecoder().decode(Coverage.self, from: Data(text.utf8))) == nil, "\(text)") }
    }

    @Test func coverageMergesByAddingHits() throws {
        let transfer = try Self.scriptCoverage("transfer")
        let merged = try Coverage.merged([transfer, transfer])
        #expect(merged.files[0].items.map(\.hits) == transfer.files[0].items.map { $0.hits * 2 })
        let booking = try Self.scriptCoverage("booking")
        #expect(try Coverage.merged([transfer, booking]).files.count == 3)
        var changed = transfer
        changed.files[0].items.removeLast()
        let error = try #require(throws: Coverage.MergeError.self) { try Coverage.merged([transfer, changed]) }
        #expect(error.message.description.hasSuffix("has other items in one of the files: the flow changed between the runs; run them again on one version"))
        // The JSON form reads back as it was written.
        #expect(try JSONDecoder().decode(Coverage.self, from: Data(try merged.json())) == merged)
    }

    @Test func thresholdsNameWhatFallsShort() throws {
        let coverage = try Self.scriptCoverage("transfer")
        var partial = coverage
        // Without the hits of the own options of 'amount' (2 of the 10 transitions), 80% are covered.
        for index in partial.files[0].items.indices where partial.files[0].items[index].key.hasPrefix("transition amount ") {
            partial.files[0].items[index].hits = 0
        }
        let threshold = try CoverageThreshold(parsing: "transitions=90,steps=100")
        #expect(threshold.shortfalls(in: partial).map { $0.description.replacingOccurrences(of: coverage.files[0].file, with: "F") }
                == ["coverage: transitions of F are 80.0%, below 90.0%: 2 not covered"])
        #expect(try CoverageThreshold(parsing: "transitions=80").shortfalls(in: partial).isEmpty)
        #expect(throws: CoverageThresholdError.self) { try CoverageThreshold(parsing: "transitons=90") }
        #expect(throws: CoverageThresholdError.self) { try CoverageThreshold(parsing: "steps=101") }
        #expect(throws: CoverageThresholdError.self) { try CoverageThreshold(parsing: "steps") }
    }

    @Test(arguments: CoverageReportFormat.allCases)
    func everyFormatHasItsGoldenFile(_ format: CoverageReportFormat) throws {
        let coverage = try Coverage.merged([try Self.scriptCoverage("transfer"), try Self.scriptCoverage("booking")])
        let name = ["json": "coverage.json", "lcov": "coverage.lcov", "cobertura": "coverage.cobertura.xml", "markdown": "coverage.md"][format.rawValue]!
        try TestSupport.expectGolden(format.reporter.render(Self.relativeToRoot(coverage)), name, in: Self.golden)
        try TestSupport.expectGolden(CoverageTextReporter().render(Self.relativeToRoot(coverage)), "coverage.txt", in: Self.golden)
    }

    @Test func theCoberturaXMLIsValidAgainstItsDTD() throws {
        let coverage = try Coverage.merged([try Self.scriptCoverage("transfer"), try Self.scriptCoverage("booking")])
        let folder = NSTemporaryDirectory() + "flowkit-cobertura-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try CoberturaReporter().render(coverage).write(toFile: folder + "/coverage.xml", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xmllint", "--noout", "--dtdvalid", packageRoot + "/Tests/Fixtures/coverage-04.dtd", folder + "/coverage.xml"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "xmllint (make deps installs libxml2-utils): \(message)")
    }

    /// `coverage` with its files named relative to the package root, so that goldens do not depend on where the
    /// tests run.
    static func relativeToRoot(_ coverage: Coverage) -> Coverage {
        var copy = coverage
        for index in copy.files.indices {
            let absolute = FileFlowResolver.canonical(copy.files[index].file)
            copy.files[index].file = DisplayPath.relative(absolute, to: FileFlowResolver.canonical(packageRoot))
        }
        return copy
    }
}
