import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// The findings of `flowkit lint FILE --witness --format json` run in `folder`.
func witnessFindings(_ file: String, in folder: String) throws -> [[String: Any]] {
    let result = try flowkit(["lint", file, "--witness", "--format", "json"], in: folder)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    return try #require(report["diagnostics"] as? [[String: Any]])
}

/// `flowkit lint --witness` and `--witnesses DIR` (issue 31; docs/format.md, "Witnesses").
@Suite("flowkit lint --witness")
struct WitnessCommandTests {
    /// Every finding of a rule that foresees run errors has a witness or a note, in JSON; no other finding has either.
    @Test func jsonGivesEachRunErrorFindingAWitnessOrANote() throws {
        let result = try flowkit(["lint", "flows/broken", "--witness", "--format", "json"])
        #expect(result.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(report["diagnostics"] as? [[String: Any]])
        var witnessed = 0
        for finding in findings {
            let rule = RuleID(rawValue: try #require(finding["rule"] as? String))
            if WitnessSearch.witnesses(rule) {
                #expect(finding.keys.contains("witness"), "\(finding)")
                if let witness = finding["witness"] as? [String: Any] {
                    witnessed += 1
                    #expect((witness["steps"] as? [[String: Any]])?.allSatisfy { $0.count == 1 } == true, "\(witness)")
                } else {
                    #expect(finding["witness"] is NSNull && finding["witnessNote"] is String, "\(finding)")
                }
            } else {
                #expect(!finding.keys.contains("witness") && !finding.keys.contains("witnessNote"), "\(finding)")
            }
        }
        #expect(witnessed >= 8)
        try expectGolden(result.stdout, "lint-broken-witness.json")
    }

    /// Without --witness, the report is as it was (no search, no key).
    @Test func withoutTheFlagNothingChanges() throws {
        let plain = try flowkit(["lint", "flows/broken", "--format", "json"])
        #expect(!plain.stdout.contains("witness"))
        try expectGolden(plain.stdout, "lint-broken.json")
    }

    /// SARIF carries the witness in the result's properties; verbose text shows it under the finding.
    @Test func sarifAndVerboseTextShowTheWitness() throws {
        let sarif = try flowkit(["lint", "flows/broken/maybe_unset.yaml", "--witness", "--format", "sarif"])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let results = try #require(((log["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let properties = try #require(results.first?["properties"] as? [String: Any])
        let witness = try #require(properties["witness"] as? [String: Any])
        #expect((witness["steps"] as? [[String: Any]])?.count == 2)
        let text = try flowkit(["lint", "flows/broken/maybe_unset.yaml", "--witness", "--verbose"])
        #expect(text.stdout.contains("\n  e.g. 'start': event 'skip'; 'review': {}\n"), "\(text.stdout)")
        let quiet = try flowkit(["lint", "flows/broken/maybe_unset.yaml", "--witness"])
        #expect(!quiet.stdout.contains("e.g."))
    }

    /// The scripts of --witnesses read back, lint clean, and each scenario, simulated, fails with a run error on its
    /// finding's line: the demonstration.
    @Test func witnessScriptsLintCleanAndFailAtTheirFindings() throws {
        let folder = NSTemporaryDirectory() + "flowkit-witnesses-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try flowkit(["lint", "flows/broken", "--witnesses", folder + "/out", "--format", "json"])
        #expect(result.status == 1)
        let scripts = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted()
        #expect(scripts.contains("maybe_unset.witnesses.yaml") && scripts.count >= 6, "\(scripts)")
        let lint = try flowkit(["lint", folder + "/out"])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        var scenarios = 0
        for script in scripts {
            let run = try flowkit(["simulate", "--script", folder + "/out/" + script, "--format", "json"])
            #expect(run.status == 1)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            for scenario in try #require(report["scenarios"] as? [[String: Any]]) {
                scenarios += 1
                let name = try #require(scenario["name"] as? String)
                // `RULE at LINE:COLUMN`: the run error is on the finding's line.
                let line = Int(name.split(separator: " ").last?.split(separator: ":").first ?? "")
                let location = scenario["errorLocation"] as? [String: Any]
                #expect(scenario["passed"] as? Bool == false)
                // An error with no place in the flow (an unhandled outcome) is at the script's step.
                let inScript = (location?["file"] as? String)?.hasSuffix("/" + script) == true
                #expect(location?["line"] as? Int == line || inScript, "\(script): \(scenario)")
            }
        }
        #expect(scenarios >= 8)
    }

    /// A --witnesses path that is a file cannot be a directory: an error, exit 2.
    @Test func aWitnessesPathThatIsAFileIsAnError() throws {
        let file = NSTemporaryDirectory() + "flowkit-witnesses-file-\(UUID().uuidString)"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try flowkit(["lint", "flows/broken/maybe_unset.yaml", "--witnesses", file])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("flowkit: error: \(file): cannot make the directory"), "\(result.stderr)")
        expectNoCrashReport(result)
    }
}

/// The directed search: a finding 45 steps deep in a flow whose every level has two steps, each leading to both of
/// the next level's (2^45 histories), where breadth first runs out of its budget long before that depth.
@Suite("flowkit lint --witness, deep in a broad flow")
struct DeepWitnessTests {
    @Test func aDirectedSearchReachesAFindingDeepInABroadFlow() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var text = "flowkit: 1\nflow: deep\nstart: a0\nstate: { note: \"string?\", seen: int }\nevents: { left: , right: }\nsteps:\n"
        for index in 0..<50 {
            let (a, b) = index == 49 ? ("done", "done") : ("a\(index + 1)", "b\(index + 1)")
            for side in ["a", "b"] {
                let set = index == 45 && side == "a" ? ", set: { seen: \"state.note + 1\" }" : ""
                text += "  \(side)\(index): { on: { left: \(a), right: \(b) }, next: { forward: \(a)\(set) } }\n"
            }
        }
        text += "  done: { kind: finish }\n"
        try text.write(toFile: folder + "/deep.yaml", atomically: false, encoding: .utf8)
        let findings = try witnessFindings("deep.yaml", in: folder)
        let null = try #require(findings.first { $0["rule"] as? String == "maybe_null" })
        let witness = try #require(null["witness"] as? [String: Any], "\(null)")
        #expect((witness["steps"] as? [Any])?.count == 46)
    }

    /// A key nothing sets gets one finding at its declaration, naming no step: the directed search aims at the
    /// steps that read it.
    @Test func aDirectedSearchAimsAtTheStepsThatReadAKeyNothingSets() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var text = "flowkit: 1\nflow: deep\nstart: a0\nstate: { missing: int, seen: int }\nevents: { left: , right: }\nsteps:\n"
        for index in 0..<50 {
            let (a, b) = index == 49 ? ("done", "done") : ("a\(index + 1)", "b\(index + 1)")
            for side in ["a", "b"] {
                let set = index == 45 && side == "a" ? ", set: { seen: \"state.missing\" }" : ""
                text += "  \(side)\(index): { on: { left: \(a), right: \(b) }, next: { forward: \(a)\(set) } }\n"
            }
        }
        text += "  done: { kind: finish }\n"
        try text.write(toFile: folder + "/deep.yaml", atomically: false, encoding: .utf8)
        let findings = try witnessFindings("deep.yaml", in: folder)
        let unset = try #require(findings.first { $0["rule"] as? String == "maybe_unset" })
        #expect(unset["step"] == nil && unset["line"] as? Int == 4)
        let witness = try #require(unset["witness"] as? [String: Any], "\(unset)")
        #expect((witness["steps"] as? [Any])?.count == 46)
    }
}

/// A search guided by the finding's own path (issue 31): the step is reached at once through a move that sets
/// the key, and without it only at the end of a path 46 moves deep in a flow of 2^45 histories, which a breadth-first
/// search cannot get to; `maybe_unset` names that path, and the witness follows it.
@Suite("flowkit lint --witness, along the finding's path")
struct GuidedWitnessTests {
    @Test func aGuidedSearchFollowsThePathTheFindingNames() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var text = "flowkit: 1\nflow: deep\nstart: a0\nstate: { k: int, seen: int }\nevents: { left: , right: , skip: }\nsteps:\n"
        for index in 0..<50 {
            let (a, b) = index == 49 ? ("done", "done") : ("a\(index + 1)", "b\(index + 1)")
            for side in ["a", "b"] {
                let skip = index == 0 && side == "a" ? ", skip: { forward: t, set: { k: \"1\" } }" : ""
                let next = index == 45 && side == "a" ? "t" : a
                text += "  \(side)\(index): { on: { left: \(a), right: \(b)\(skip) }, next: \(next) }\n"
            }
        }
        text += "  t: { result: { v: int }, set: { seen: \"state.k\" }, next: done }\n  done: { kind: finish }\n"
        try text.write(toFile: folder + "/deep.yaml", atomically: false, encoding: .utf8)
        let findings = try witnessFindings("deep.yaml", in: folder)
        let unset = try #require(findings.first { $0["rule"] as? String == "maybe_unset" })
        let witness = try #require(unset["witness"] as? [String: Any], "\(unset)")
        #expect((witness["steps"] as? [Any])?.count == 47)
    }
}

/// The fixture's starts without the key of a `maybe_unset` finding: the fixture gives 'tier: basic' (which gets a run
/// to 'b') only with the other keys given, 'name' among them; left out, the read of 'name' fails.
@Suite("flowkit lint --witness, the fixture without a key")
struct FixtureWithoutAKeyTests {
    /// `lint FILE --witness` in `folder`: the finding `matching` picks, and the state its witness starts with.
    func witnessStart(_ file: String, in folder: String, matching: ([String: Any]) -> Bool) throws -> (finding: [String: Any], state: [String: Any]) {
        let findings = try witnessFindings(file, in: folder)
        let found = findings.first(where: matching)
        let finding = try #require(found, "\(findings)")
        let witness = try #require(finding["witness"] as? [String: Any], "\(finding)")
        return (finding, try #require((witness["start"] as? [String: Any])?["state"] as? [String: Any]))
    }

    @Test func aReadBehindAFixturesValueIsShownWithoutItsKey() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            flowkit: 1
            flow: gate
            start: a
            state: { tier: [gold, basic], name: string, level: int, code: string }
            events: { go: }
            steps:
              a:
                on:
                  go:
                    - { forward: b, if: "state.tier == 'basic'" }
                    - { forward: done, if: "state.level > 3" }
                    - { forward: done, if: "state.code == 'x'" }
              b:
                result: { ok: bool }
                next: { forward: done, set: { name: "state.name" } }
              done: { kind: finish }
            """.write(toFile: folder + "/gate.yaml", atomically: false, encoding: .utf8)
        let state = try witnessStart("gate.yaml", in: folder) { $0["rule"] as? String == "maybe_unset" && $0["line"] as? Int == 15 }.state
        #expect(state["tier"] as? String == "basic" && state["name"] == nil)
    }

    /// The fixture's starts are spread over the first search's: a flow from the property's bundles (seed 0x5EED_F10E)
    /// whose first 16 starts all have `mode: fast`, where the finding is behind `mode == 'slow'` and a fixture's
    /// `count`.
    @Test func theFixturesStartsAreSpreadOverTheFirstSearchs() throws {
        let state = try witnessStart("main.json", in: packageRoot + "/Tests/Fixtures/witness-spread") {
            $0["rule"] as? String == "type_mismatch" && $0["line"] as? Int == 114
        }.state
        #expect(state["mode"] as? String == "slow" && state["count"] != nil)
    }

    /// A read in an option's `set` that only the option's `if` lets a run reach is shown with the keys of that `if`
    /// given by the host (the other expressions of the finding's step are searched beside it).
    @Test func aReadBehindItsOptionsIfIsShownWithTheIfsKeysGiven() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            flowkit: 1
            flow: gate
            start: a
            state: { ok: bool, count: "int?", mode: [fast, slow] }
            steps:
              a:
                result: { v: int }
                next:
                  - { forward: b, if: "exists(state.count)", set: { mode: "state.ok ? 'fast' : 'slow'" } }
                  - b
              b:
                next: { forward: done, set: { count: "1", ok: "true" } }
              done: { kind: finish }
            """.write(toFile: folder + "/gate.yaml", atomically: false, encoding: .utf8)
        let state = try witnessStart("gate.yaml", in: folder) { $0["rule"] as? String == "maybe_unset" }.state
        #expect(state["count"] != nil && state["ok"] == nil)
    }

    /// A read that only a value of another key the expression reads gets to is shown with that key given by the
    /// host ('b' sets 'count', so it is no host key, but no step sets it before 'a': lint's runs start with the
    /// host's other state unknown).
    @Test func aReadBehindAnotherKeysValueIsShownWithThatKeyGiven() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            flowkit: 1
            flow: gate
            start: a
            state: { count: "int?", mode: [fast, slow] }
            steps:
              a:
                result: { ok: bool }
                set:
                  mode: "(exists(state.count) && state.count > 1) ? state.mode : 'slow'"
                next: b
              b:
                next: { forward: done, set: { count: "5" } }
              done: { kind: finish }
            """.write(toFile: folder + "/gate.yaml", atomically: false, encoding: .utf8)
        let (read, state) = try witnessStart("gate.yaml", in: folder) { $0["rule"] as? String == "maybe_unset" }
        #expect((state["count"] as? Int ?? 0) > 1 && state["mode"] == nil)
        #expect(read["witnessNote"] == nil)
    }

    /// Any rule's finding gets the keys its step reads from the host: the `back` below is taken only with 'mode'
    /// 'slow', which the flow never sets, and which the host may give.
    @Test func aBackMoveBehindAHostsValue() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            flowkit: 1
            flow: gate
            start: a
            state: { mode: [fast, slow] }
            steps:
              a:
                next:
                  - { back: z, if: "exists(state.mode) && state.mode == 'slow'" }
                  - b
              b: { next: { forward: z, set: { mode: "'fast'" } } }
              z: { kind: finish }
            """.write(toFile: folder + "/gate.yaml", atomically: false, encoding: .utf8)
        let (_, state) = try witnessStart("gate.yaml", in: folder) { $0["rule"] as? String == "back_target" }
        #expect(state["mode"] as? String == "slow")
    }

    @Test func aNullStoredInAKeyThatTakesNoneIsShownAsTheTypeMismatchItIs() throws {
        // `type_mismatch` finds `null` stored in a `bool` key; the run stops there with a null value's run error.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            flowkit: 1
            flow: vip
            start: a
            state: { vip: bool }
            steps:
              a: { next: { forward: z, set: { vip: "null" } } }
              z: { kind: finish }
            """.write(toFile: folder + "/vip.yaml", atomically: false, encoding: .utf8)
        let finding = try #require(try witnessFindings("vip.yaml", in: folder).first { $0["rule"] as? String == "type_mismatch" })
        #expect(finding["witness"] as? [String: Any] != nil, "\(finding)")
    }

    @Test func anOptionalKeyTheFlowSetsIsTheHostsToGiveToo() throws {
        // 'b' is reached only with a 'total' above 100 at 'a', which no run of the flow sets ('w', which sets it, is
        // no run's): the host gives it at the start.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            flowkit: 1
            flow: big
            start: a
            state: { total: number?, n: int }
            steps:
              a:
                next:
                  - { forward: b, if: "exists(state.total) && state.total > 100" }
                  - z
              b: { next: { forward: z, set: { n: "state.n + 1" } } }
              w: { next: { forward: z, set: { total: "1.5", n: "1" } } }
              z: { kind: finish }
            """.write(toFile: folder + "/big.yaml", atomically: false, encoding: .utf8)
        let (_, state) = try witnessStart("big.yaml", in: folder) { $0["rule"] as? String == "maybe_unset" }
        #expect((state["total"] as? Double).map { $0 > 100 } == true || (state["total"] as? Int).map { $0 > 100 } == true, "\(state)")
    }
}

/// A finding no witness can show because every run stops first at another finding's run error says where: at its
/// own step, or at the steps nearest it that runs reach.
@Suite("flowkit lint --witness, behind another run error")
struct BehindAnotherErrorTests {
    @Test func theNoteNamesTheRunErrorEveryRunMeetsFirst() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            flowkit: 1
            flow: behind
            start: a
            state: { n: int, note: string? }
            steps:
              a: { result: { v: int }, set: { n: "1 / (result.v - result.v)", note: "state.note + 'x'" }, next: b }
              b: { result: { w: int }, set: { n: "state.note + 1" }, next: done }
              done: { kind: finish }
            """.write(toFile: folder + "/behind.yaml", atomically: false, encoding: .utf8)
        let findings = try witnessFindings("behind.yaml", in: folder)
        let notes = findings.compactMap { finding -> String? in finding["witness"] is NSNull ? finding["witnessNote"] as? String : nil }
        // 'a' always divides by zero, which lint does not foresee (it depends on values): the second store and all of
        // 'b' are behind it. (A run error lint sees always happens, a type error, hides what is behind it instead:
        // "Behind a certain run error".)
        #expect(notes.contains { $0.hasPrefix("runs reach step 'a', but every move the search tried there stops first with another run error: at 6:39, division by zero") })
        #expect(notes.contains { $0.hasPrefix("no run the search made reaches step 'b': the runs that get nearest to it, at 'a', stop there first with another run error: at 6:39") })
    }
}

/// A run error that could be the error of findings about different things shows none of them (issue 31's review):
/// each witness lint gives, simulated, fails with a message about its own finding's subject.
@Suite("flowkit lint --witness, one error for several findings")
struct AmbiguousWitnessTests {
    static let flows: [String: String] = [
        // Two undeclared keys written side by side in a flow mapping: the first write always fails, so only it is
        // reported ("Behind a certain run error"), and its witness must fail at it.
        "keys.yaml": "flowkit: 1\nflow: keys\nstart: a\nstate: { n: int }\nsteps:\n  a:\n    result: { v: int }\n    set: {x: 1, y: 2}\n    next: done\n  done: { kind: finish }\n",
        // Two optional keys in one sum: the error is at the sum, whichever is null.
        "sum.yaml": "flowkit: 1\nflow: sum\nstart: a\nstate: { a: int?, b: int?, t: int }\nsteps:\n  a:\n    result: { x: int?, y: int? }\n    set: { a: result.x, b: result.y }\n    next: c\n  c:\n    result: { v: int }\n    set: { t: \"state.a + state.b\" }\n    next: done\n  done: { kind: finish }\n",
        // Two outcomes a flow step does not handle.
        "parent.yaml": "flowkit: 1\nflow: parent\nstart: sub\nsteps:\n  sub:\n    kind: flow\n    flow: child.yaml\n    on: { done: end }\n  end: { kind: finish }\n",
        "child.yaml": "flowkit: 1\nflow: child\nstart: ask\nevents: { no: , late: }\nsteps:\n  ask:\n    on: { no: cancelled, late: timeout }\n    next: done\n  done: { kind: finish }\n  cancelled: { kind: finish }\n  timeout: { kind: finish }\n",
    ]

    @Test func everyWitnessFailsWithAnErrorAboutItsOwnFinding() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, text) in Self.flows { try text.write(toFile: folder + "/" + name, atomically: false, encoding: .utf8) }
        let lint = try flowkit(["lint", ".", "--witnesses", "out", "--format", "json"], in: folder)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as? [String: Any])
        let findings = try #require(report["diagnostics"] as? [[String: Any]])
        var judged = 0
        // Scenario names as --witnesses gives them: `RULE at L:C`, then ` (2)`, … for another finding at the place.
        var named: [String: Int] = [:]
        for finding in findings where finding.keys.contains("witness") {
            judged += 1
            guard finding["witness"] is [String: Any], let subject = finding["subject"] as? String,
                  let file = (finding["file"] as? String).map({ ($0 as NSString).lastPathComponent }) else { continue }
            let script = "out/" + (file as NSString).deletingPathExtension + ".witnesses.yaml"
            let run = try flowkit(["simulate", "--script", script, "--format", "json"], in: folder)
            let scenarios = try #require((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["scenarios"] as? [[String: Any]])
            let place = "\(file) \(finding["rule"]!) at \(finding["line"]!):\(finding["column"]!)"
            named[place, default: 0] += 1
            let name = "\(finding["rule"]!) at \(finding["line"]!):\(finding["column"]!)" + (named[place]! > 1 ? " (\(named[place]!))" : "")
            let scenario = try #require(scenarios.first { $0["name"] as? String == name })
            // The error is at the finding's very place (a null operand), or names its subject (an outcome, a key).
            let key = subject.hasPrefix("state.") ? String(subject.dropFirst(6)) : subject
            let location = scenario["errorLocation"] as? [String: Any]
            let atTheFinding = location?["line"] as? Int == finding["line"] as? Int && location?["column"] as? Int == finding["column"] as? Int
                && ((location?["file"] as? String).map { $0 == file || $0.hasSuffix("/" + file) } ?? false)
            #expect(atTheFinding || (scenario["error"] as? String)?.contains("'\(key)'") == true, "\(name) about '\(subject)': \(scenario)")
        }
        #expect(judged >= 5, "\(lint.stdout)")
    }
}
