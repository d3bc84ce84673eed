import CYaml
import FlowKit
import FlowKitTool
import Foundation

/// Measures flowkit where the issues set targets (speed is measured here, never asserted in tests):
///
///     flowkit-bench engine [steps] [rounds] [explicit|results]   engine transitions per second on a chain flow
///                                                  (both kinds of move, or only the one named, for a profiler)
///     flowkit-bench lint [steps]                   load and lint a chain flow, YAML and JSON, in-process
///     flowkit-bench rules FILE                     where one file's lint goes: reading, the graphs, each rule
///     flowkit-bench many DIR                       where the lint of many small files goes, phase by phase
///     flowkit-bench read FILE                      reading a flow: libyaml's events alone (YAML), the positioned tree, the flow
///     flowkit-bench memory FILE                    the heap a lint of FILE holds, phase by phase
///     flowkit-bench generate chain|random N [yaml|json]   write a generated flow to standard output
@main
struct FlowkitBench {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let command = arguments.isEmpty ? "engine" : arguments.removeFirst()
        func number(_ index: Int, _ fallback: Int) -> Int { index < arguments.count ? Int(arguments[index]) ?? fallback : fallback }
        switch command {
        case "engine": try engine(steps: number(0, 10_000), rounds: number(1, 20), only: arguments.count > 2 ? arguments[2] : nil)
        case "lint": lint(steps: number(0, 10_000))
        case "rules": try rules(file: arguments.first ?? "")
        case "many": try many(directory: arguments.first ?? "")
        case "read": try read(file: arguments.first ?? "")
        case "memory": try memory(file: arguments.first ?? "")
        case "generate":
            let kind = arguments.first ?? "chain"
            let steps = number(1, 1_000)
            let json = arguments.count > 2 && arguments[2] == "json"
            let yaml = kind == "random" ? Generator.random(steps: steps) : Generator.chain(steps: steps)
            print(json ? Generator.json(yaml) : yaml, terminator: "")
        default:
            FileHandle.standardError.write(Data("usage: flowkit-bench engine|lint|generate ...\n".utf8))
            exit(2)
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func milliseconds(_ duration: Duration) -> String { String(format: "%.1f ms", seconds(duration) * 1000) }

    /// Transitions per second with explicit events, and with results, `set` and a derived event.
    ///
    /// The rounds run one after the other in this process, each run freed before the next. glibc gives freed memory
    /// at the top of its heap back to the system and then faults it in again for the next round, or not, depending
    /// on where the last allocations happen to lie; so that the figure measures the engine and not that, the heap
    /// is kept (`mallopt`: no trimming, no separate mappings below 32 MB) and every round runs in warm memory.
    static func engine(steps: Int, rounds: Int, only: String? = nil) throws {
        let warm = keepHeap()
        let clock = ContinuousClock()
        var document: LoadedDocument?
        let loadTime = clock.measure { document = FlowLoader.load(bytes: Array(Generator.chain(steps: steps).utf8), file: "chain.yaml", format: .yaml) }
        guard let flow = document?.flow else { fatalError("the generated flow does not load") }
        var compiled: CompiledFlow?
        let compileTime = try clock.measure { compiled = try CompiledFlow(flow: flow) }
        var transitions = 0
        var explicitTime = Duration.zero
        var resultTime = Duration.zero
        for round in 0..<rounds {
            let withResults = only.map { $0 == "results" } ?? (round % 2 == 1)
            var run = try FlowRun(flow: compiled!, maxSteps: steps * 2 + 10)
            let elapsed = try clock.measure {
                while !run.isFinished {
                    if withResults { try run.complete(result: ["v": .int(5)]) } else { try run.complete(event: "go") }
                }
            }
            transitions += run.trace.count
            if withResults { resultTime += elapsed } else { explicitTime += elapsed }
        }
        let half = Double(transitions) / (only == nil ? 2 : 1)
        print("engine: \(steps)-step flow; load \(milliseconds(loadTime)), compile \(milliseconds(compileTime))"
              + (warm ? "; the heap kept between rounds" : "; the heap could not be kept between rounds"))
        if only != "results" { print("engine: explicit events: \(Int(half / seconds(explicitTime))) transitions/s") }
        if only != "explicit" { print("engine: results + set + derived event: \(Int(half / seconds(resultTime))) transitions/s") }
    }

    /// Keeps glibc's heap (no trimming; no separate mappings for blocks under 32 MB), through `mallopt` looked up
    /// at run time (the Glibc module does not declare it); false when it is not there or refuses.
    static func keepHeap() -> Bool {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3
        return mallopt(trimThreshold, Int32.max) == 1 && mallopt(mmapThreshold, 32 << 20) == 1
    }

    /// One file's lint, part by part, each the best of five on one thread: reading and decoding, the shared
    /// graphs (`LintContext`), then every rule (on a fresh context, so work rules share counts for each); then the
    /// whole lint as `Linter.lint` runs it (rules on all cores).
    static func rules(file: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        let clock = ContinuousClock()
        func best(_ work: () -> Void) -> Duration { (0..<5).map { _ in clock.measure(work) }.min()! }
        var document: LoadedDocument?
        print("rules: \(file): load \(milliseconds(best { document = FlowLoader.load(bytes: bytes, file: file) }))")
        print("rules: context (graphs) \(milliseconds(best { _ = LintContext(document: document!) }))")
        var total = Duration.zero
        var times: [(String, Duration)] = []
        for rule in Linter.rules {
            // A fresh context for each run: rules share work through the context's memo, which each pays for
            // here as if it ran first.
            var time = Duration.seconds(1_000)
            for _ in 0..<5 {
                let fresh = LintContext(document: document!)
                time = min(time, clock.measure { _ = rule.check(fresh) })
            }
            total += time
            times.append((rule.description.identifier.rawValue, time))
        }
        for (name, time) in times.sorted(by: { $0.1 > $1.1 }) { print("rules:   \(name) \(milliseconds(time))") }
        print("rules: all rules, one after the other, each with a fresh context \(milliseconds(total))")
        print("rules: Linter.lint (context and rules, rules on all cores) \(milliseconds(best { _ = Linter.lint(document!) }))")
        // What freeing costs, on the thread that drops the last reference.
        var contexts: [LintContext?] = (0..<5).map { _ in LintContext(document: document!) }
        let freeContext = (0..<5).map { index in clock.measure { contexts[index] = nil } }.min()!
        var documents: [LoadedDocument?] = (0..<5).map { _ in FlowLoader.load(bytes: bytes, file: file) }
        let freeDocument = (0..<5).map { index in clock.measure { documents[index] = nil } }.min()!
        print("rules: freeing the graphs \(milliseconds(freeContext)), freeing a loaded document (tree and flow) \(milliseconds(freeDocument))")
    }

    /// The lint of every flow file in `directory`, phase by phase, summed over the files on one thread: each file
    /// is read, loaded, given its graphs and checked by each rule (on a fresh context, so that rules sharing work
    /// each pay for it here) one after the other, as a lint does, so that its data is in the cache as it would be;
    /// each phase's figure is the least of three rounds.
    static func many(directory: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") || $0.hasSuffix(".yaml") }.sorted()
        let paths = names.map { directory + "/" + $0 }
        let clock = ContinuousClock()
        var phases: [String: Duration] = [:]
        var order: [String] = []
        for _ in 0..<3 {
            var round: [String: Duration] = [:]
            func time<T>(_ phase: String, _ work: () throws -> T) rethrows -> T {
                var result: T?
                round[phase, default: .zero] += try clock.measure { result = try work() }
                return result!
            }
            for path in paths {
                let format = DocumentFormat(path: path) ?? .yaml
                let bytes = try time("read") { try FlowLoader.read(path: path, limit: ReaderLimits.standard.maxBytes) }
                let document = time("load \(format)") { FlowLoader.load(bytes: bytes, file: path, format: format) }
                _ = time("context (graphs)") { LintContext(document: document) }
                for rule in Linter.rules {
                    let fresh = LintContext(document: document)
                    _ = time("rule \(rule.description.identifier.rawValue)") { rule.check(fresh) }
                }
                _ = time("Linter.lint (context, rules, order)") { Linter.lint(document) }
            }
            if order.isEmpty { order = round.keys.sorted { round[$0]! > round[$1]! } }
            for (phase, duration) in round { phases[phase] = min(phases[phase] ?? duration, duration) }
        }
        print("many: \(paths.count) files in \(directory), one thread, least of 3 rounds")
        for phase in order where phases[phase]! > .microseconds(500) { print("many:   \(phase) \(milliseconds(phases[phase]!))") }
    }

    /// Where reading a flow file goes (best of five each): for YAML, libyaml's event parser alone (every event
    /// parsed and freed, nothing built); then flowkit's reader (the positioned tree: for YAML, the same events
    /// composed into it); then the whole load (the tree decoded into the flow).
    static func read(file: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        let format = DocumentFormat(path: file) ?? .yaml
        let clock = ContinuousClock()
        func best(_ work: () -> Void) -> Duration { (0..<5).map { _ in clock.measure(work) }.min()! }
        var events = 0
        let alone = format == .json ? .zero : best {
            events = 0
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { fatalError("libyaml cannot start") }
            defer { yaml_parser_delete(&parser) }
            bytes.withUnsafeBufferPointer { buffer in
                yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
                while true {
                    var event = yaml_event_t()
                    guard yaml_parser_parse(&parser, &event) == 1 else { fatalError("libyaml stops: the file is not YAML") }
                    let done = event.type == YAML_STREAM_END_EVENT
                    yaml_event_delete(&event)
                    events += 1
                    if done { break }
                }
            }
        }
        let tree = best { _ = FlowLoader.parse(bytes: bytes, file: file, format: format) }
        let load = best { _ = FlowLoader.load(bytes: bytes, file: file, format: format) }
        print("read: \(file), \(bytes.count / 1024) KiB")
        if format == .yaml { print("read:   libyaml's events alone (\(events) events) \(milliseconds(alone))") }
        print("read:   positioned tree \(milliseconds(tree))")
        print("read:   whole load (tree and decoding) \(milliseconds(load))")
    }

    /// The process's resident memory and its peak (`VmRSS`, `VmHWM` in /proc/self/status) after each phase of one
    /// file's lint, with everything of the phases before still held, as a lint holds it.
    static func memory(file: String) throws {
        func status(_ field: String) -> Int {
            let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
        let start = status("VmRSS")
        var last = start
        func report(_ phase: String) {
            let now = status("VmRSS")
            print("memory:   \(phase): resident \(megabytes(now)) (+\(megabytes(now - last))), peak \(megabytes(status("VmHWM")))")
            last = now
        }
        let bytes = try FlowLoader.read(path: file, limit: ReaderLimits.standard.maxBytes)
        print("memory: \(file), \(bytes.count / 1024) KiB; resident before: \(megabytes(start))")
        report("the file's bytes")
        let format = DocumentFormat(path: file) ?? .yaml
        do {
            let tree = FlowLoader.parse(bytes: bytes, file: file, format: format)
            report("the positioned tree alone")
            withExtendedLifetime(tree) {}
        }
        report("the tree freed")
        let document = FlowLoader.load(bytes: bytes, file: file, format: format)
        report("a load (tree and flow)")
        let context = LintContext(document: document)
        report("the graphs (LintContext)")
        let findings = Linter.lint(document)
        report("Linter.lint's findings (\(findings.count))")
        withExtendedLifetime(context) {}
    }

    /// Load and lint times of a chain flow in both formats (best of five).
    static func lint(steps: Int) {
        let yaml = Generator.chain(steps: steps)
        let json = Generator.json(yaml)
        let clock = ContinuousClock()
        for (name, text, format) in [("YAML", yaml, DocumentFormat.yaml), ("JSON", json, .json)] {
            var load = Duration.seconds(1_000)
            var total = Duration.seconds(1_000)
            var findings = 0
            for _ in 0..<5 {
                var document: LoadedDocument?
                load = min(load, clock.measure { document = FlowLoader.load(bytes: Array(text.utf8), file: "chain", format: format) })
                total = min(total, clock.measure {
                    let again = FlowLoader.load(bytes: Array(text.utf8), file: "chain", format: format)
                    findings = Linter.lint(again).count
                })
                _ = document
            }
            print("lint: \(steps)-step flow, \(name), \(text.utf8.count / 1024) KiB: load \(milliseconds(load)), load + lint \(milliseconds(total)), \(findings) findings")
        }
    }
}

/// Generated flows, deterministic for a given size.
enum Generator {
    /// A chain where every step has a result, a `set`, an explicit and a derived event and a `"*"` handler.
    static func chain(steps: Int) -> String {
        var yaml = "flowkit: 1\nflow: chain\nstart: s0\nstate: { total: int }\nevents: { go: , retry: , big: \"result.v > 100\" }\n"
        yaml += "steps:\n  \"*\":\n    on: { retry: { back: true } }\n"
        for i in 0..<steps {
            let next = i + 1 < steps ? "s\(i + 1)" : "done"
            yaml += "  s\(i): { result: { v: int }, set: { total: result.v }, on: { go: \(next), big: \(next) }, next: \(next) }\n"
        }
        return yaml + "  done: { kind: finish }\n"
    }

    /// A random app-shaped flow: a chain of titled screens with retries back, jumps, cancels and an error alert.
    static func random(steps: Int, seed: UInt64 = 1) -> String {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
        var yaml = "flowkit: 1\nflow: random\ntitle: Random flow\nstart: s0\nevents: { go: , retry: , cancel: , error: , edit: }\n"
        yaml += "steps:\n  \"*\":\n    on:\n      error: alert\n"
        for i in 0..<steps {
            var handlers: [String] = []
            if i > 0 && next(10) < 3 { handlers.append("retry: { back: s\(next(i)) }") }
            if next(10) < 3 { handlers.append("go: s\(next(steps))") }
            if next(10) < 1 { handlers.append("cancel: cancelled") }
            if next(10) < 1 { handlers.append("edit: s\(next(steps))") }
            yaml += "  s\(i):\n    title: Screen number \(i)\n"
            if !handlers.isEmpty { yaml += "    on: { " + handlers.joined(separator: ", ") + " }\n" }
            yaml += "    next: \(i + 1 < steps ? "s\(i + 1)" : "done")\n"
        }
        return yaml + "  alert:\n    next: { back: true }\n  cancelled:\n    kind: finish\n  done:\n    kind: finish\n"
    }

    /// The JSON twin of a generated YAML flow, keys in document order.
    static func json(_ yaml: String) -> String {
        (FlowLoader.load(bytes: Array(yaml.utf8), file: "generated.yaml", format: .yaml).root?.jsonText ?? "") + "\n"
    }
}
