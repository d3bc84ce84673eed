@testable import FlowKit

/// The flow every nested-flow reference leads to, whatever it names, when the input holds no nested documents: two outcomes, a result, a restart, a back
/// move, a derived event, and a `flow` step of its own that nests it again while `depth` stays below 40 (so runs
/// reach `FlowRun.maxNesting`). Its state keys match `flows/nested/sign-in.yaml`, which the samples nest.
private let child: CompiledFlow = {
    let text = """
        flowkit: 1
        flow: child
        start: ask
        state: { email: "string?", customerId: "string?", depth: "int?" }
        events: { cancel: , retry: , signedIn: , deeper: "exists(state.depth) && state.depth < 40" }
        steps:
          "*": { on: { cancel: gaveUp } }
          ask:
            result: { email: string, depth: "int?" }
            set: { email: result.email, depth: "exists(result.depth) ? result.depth : null" }
            on: { deeper: inner, retry: { restart: true } }
            next: [{ forward: check, if: "exists(state.email)" }, gaveUp]
          inner:
            kind: flow
            flow: child.yaml
            input: { depth: "state.depth + 1" }
            set: { customerId: result.customerId }
            on: { signedIn: signedIn }
            next: { back: ask }
          check:
            result: { customerId: string }
            set: { customerId: result.customerId }
            on: { retry: { back: true } }
            next: signedIn
          signedIn: { kind: finish }
          gaveUp: { kind: finish }
        """
    guard let flow = FlowLoader.load(bytes: Array(text.utf8), file: "child.yaml").flow, let compiled = try? CompiledFlow(flow: flow) else {
        fatalError("the nested flow of FuzzEngine does not load")
    }
    return compiled
}()

/// Resolves nested-flow references without reading files: to the fuzzed child documents when the input has any
/// (the reference's bytes pick one, so different `flow:` values reach different children, and a child may nest
/// itself or the other), else to `child`. A child that does not load or compile answers every reference to it
/// with its run error, as a file that does not load would.
private struct FuzzResolver: FlowResolver {
    /// The fuzzed children, compiled or not.
    let children: [Result<CompiledFlow, RunError>]

    /// Loads and compiles each child document.
    init(documents: [[UInt8]]) {
        children = documents.enumerated().map { index, bytes in
            let document = FlowLoader.load(bytes: bytes, file: "child\(index).yaml")
            guard let flow = document.flow, document.isWellFormed else {
                return .failure(RunError("nested flow 'child\(index).yaml' does not load", kind: .nestedFlowUnavailable))
            }
            do throws(RunError) {
                return .success(try CompiledFlow(flow: flow))
            } catch {
                return .failure(error)
            }
        }
    }

    func resolve(_ path: String, from parentFile: String) throws(RunError) -> CompiledFlow {
        guard !children.isEmpty else { return child }
        let pick = path.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF } % children.count
        return try children[pick].get()
    }

    /// Every flow a reference can lead to.
    var flows: [CompiledFlow] {
        children.isEmpty ? [child] : children.compactMap { try? $0.get() }
    }
}

/// Turns the bytes after the documents into a run: a start (plain or at an entry, with an initial state), then
/// completions until the flow finishes, the bytes run out (a byte past the end reads as 0) or `maxCompletions`
/// have been tried. Each completion's byte says whether it raises an event (one the current step handles, or any
/// event at all) and whether it carries a result (of the step's declared shape, or over the state keys when it
/// declares none; now and then with a key left out, of another kind or unknown). Numbers include the edge values a
/// host or a YAML script can hand in: NaN, the infinities, -0, the largest finite ones. After every start and
/// completion the run's invariants are checked, and a broken one stops the fuzzer.
private struct Driver {
    /// The most steps a run shows: small, so that no input loops for long.
    static let maxSteps = 200
    /// The most completions a run is given, failed ones included, so that long inputs stay fast.
    static let maxCompletions = 2 * maxSteps

    /// The flow under test.
    let flow: CompiledFlow
    /// Where its nested flows come from.
    let resolver: FuzzResolver
    /// The bytes that drive the run, and the next one to read.
    let bytes: [UInt8]
    var index = 0
    /// Every event of the flow and of the nested flows, and one that none knows.
    let events: [String]

    init(flow: CompiledFlow, resolver: FuzzResolver, bytes: [UInt8]) {
        self.flow = flow
        self.resolver = resolver
        self.bytes = bytes
        var events: Set = ["undeclaredEvent"]
        for compiled in [flow] + resolver.flows {
            events.formUnion(compiled.flow.events.map(\.name.text))
            for step in compiled.steps + (compiled.anyStep.map { [$0] } ?? []) { events.formUnion(step.handlers.keys) }
        }
        self.events = events.sorted()
    }

    /// Whether every byte has been read.
    var isExhausted: Bool { index >= bytes.count }

    /// The next byte, 0 once they are used up.
    mutating func byte() -> Int {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return Int(bytes[index])
    }

    /// One of `choices` (not empty), picked by the next byte.
    mutating func pick<T>(_ choices: [T]) -> T { choices[byte() % choices.count] }

    /// The flow and compiled step the run is at: each part of a qualified name (`pay/card/code`) but the last is a
    /// `flow` step whose nested flow holds the next.
    func step(at name: String?) -> (flow: CompiledFlow, step: CompiledFlow.Step?) {
        let parts = name?.split(separator: "/").map(String.init) ?? []
        var current = flow
        for part in parts.dropLast() {
            guard let id = current.ids[part], let reference = current.steps[id].step.flowPath,
                  let nested = try? resolver.resolve(reference, from: current.flow.file) else { return (current, nil) }
            current = nested
        }
        return (current, parts.last.flatMap { current.ids[$0] }.map { current.steps[$0] })
    }

    /// A value for a key of `type`: mostly of the type (edge values included), now and then null or another kind.
    mutating func value(of type: TypeRef) -> Value {
        let choice = byte()
        if choice % 32 == 31 {
            return pick([.null, .string("x"), .int(1), .bool(true), .number(0.5), .object([:]), .number(.nan), .number(-.infinity)])
        }
        if type.optional && choice % 8 == 0 { return .null }
        switch type.base {
        case .int: return .int(pick([0, 1, -1, 50, 100, 500, .max, .min, .max - 1, .min + 1]))
        case .number:
            return pick([.number(0), .number(-0.0), .number(1.5), .number(-2.25), .number(1e308), .number(9.3e18), .int(7),
                         .number(.nan), .number(.infinity), .number(-.infinity), .number(.greatestFiniteMagnitude),
                         .number(-.greatestFiniteMagnitude), .number(.leastNonzeroMagnitude), .number(9_223_372_036_854_775_808.0),
                         .number(-9_223_372_036_854_775_808.0), .number(-0.5)])
        case .string: return .string(pick(["", "RU", "Ada", "é", "a'b"]))
        case .bool: return .bool(choice % 2 == 0)
        case .enumeration(let values): return .string(values.isEmpty || choice % 16 == 15 ? "notAValue" : pick(values))
        case .object(let fields): return .object(self.fields(fields.map { ($0.name.text, $0.type) }))
        }
    }

    /// Values for `fields`, now and then with a key left out or a key that is not declared.
    mutating func fields(_ fields: [(name: String, type: TypeRef)]) -> [String: Value] {
        var values: [String: Value] = [:]
        for (name, type) in fields where byte() % 16 != 0 { values[name] = value(of: type) }
        if byte() % 32 == 31 { values["undeclaredKey"] = .int(1) }
        return values
    }

    /// The sorted fields of a type table.
    func sorted(_ types: [String: TypeRef]) -> [(name: String, type: TypeRef)] {
        types.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Where the run starts: at `start` or at one of the entries, with path parameters from a few spellings.
    mutating func start() -> RunStart {
        let entries = flow.flow.entries
        let choice = byte() % (entries.count + 1)
        let state = fields(sorted(flow.stateTypes))
        guard choice > 0 else { return .start(state: state) }
        let entry = entries[choice - 1]
        var params: [String: String] = [:]
        for name in EntryPath.parameters(entry.path) {
            params[name] = pick(["500", "-1", "1.5", "", "true", "economy", "9223372036854775808", "é"])
        }
        return .entry(entry.name.text, params: params, state: state)
    }

    /// What holds after every start and completion: the step bound, a current step exactly until the flow
    /// finishes, and a landing step on every trace entry of a completion that did not fail.
    func check(_ run: FlowRun, completedSince firstNew: Int?) {
        precondition(run.path.count <= Self.maxSteps, "the run showed \(run.path.count) steps, past the bound")
        precondition(run.isFinished == (run.currentStep == nil), "a finished run is at a step, or an unfinished one is at none")
        if let firstNew {
            precondition(run.trace[firstNew...].allSatisfy { !$0.to.isEmpty }, "a completion left a trace entry without its landing step")
        }
        if let state = run.state.values.first(where: { if case .number(let number) = $0 { !number.isFinite } else { false } }) {
            preconditionFailure("the state holds \(state)")
        }
    }

    /// Runs the flow; run errors are answers, not failures, and the run goes on after them as a host's would.
    mutating func run() {
        var run: FlowRun
        do {
            run = try FlowRun(flow: flow, start: start(), resolver: resolver, maxSteps: Self.maxSteps)
        } catch {
            return
        }
        check(run, completedSince: 0)
        var completions = 0
        while !run.isFinished && !isExhausted && completions < Self.maxCompletions {
            completions += 1
            let action = byte()
            let (current, step) = step(at: run.currentStep)
            let event: String?
            switch action % 4 {
            case 1:
                var handled = Set(step.map { Array($0.handlers.keys) } ?? [])
                handled.formUnion(current.anyStep.map { Array($0.handlers.keys) } ?? [])
                event = handled.isEmpty ? nil : pick(handled.sorted())
            case 2:
                event = pick(events)
            default:
                event = nil
            }
            let result = action & 4 != 0 ? fields(sorted(step?.resultTypes ?? current.stateTypes)) : nil
            let before = run.trace.count
            do {
                try run.complete(event: event, result: result)
                check(run, completedSince: before)
            } catch {
                check(run, completedSince: nil)
            }
        }
    }
}

/// libFuzzer's entry point: the bytes before the first NUL (which no flow text may hold) are documents separated by
/// 0x01 bytes (which no flow text may hold either): the flow under test, then up to two nested flows that its
/// `flow` steps lead to (further 0x01 bytes stay in the last one). Each is YAML or JSON, told apart as the CLI
/// does; a well-formed flow that compiles is run as the bytes after the NUL say.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let end = bytes.firstIndex(of: 0) ?? bytes.count
    let documents = bytes[..<end].split(separator: 1, maxSplits: 2, omittingEmptySubsequences: false).map(Array.init)
    let document = FlowLoader.load(bytes: documents.first ?? [], file: "fuzz-input")
    guard let flow = document.flow, document.isWellFormed, let compiled = try? CompiledFlow(flow: flow) else { return 0 }
    let resolver = FuzzResolver(documents: Array(documents.dropFirst()))
    var driver = Driver(flow: compiled, resolver: resolver, bytes: Array(bytes[min(end + 1, bytes.count)...]))
    driver.run()
    return 0
}
