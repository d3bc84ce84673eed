import FlowKit

/// The flow every nested-flow reference leads to, whatever it names: two outcomes, a result, a restart, a back
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

/// Resolves every nested-flow reference to `child`, without reading files.
private struct ChildResolver: FlowResolver {
    func resolve(_ path: String, from parentFile: String) throws(RunError) -> CompiledFlow { child }
}

/// Turns the bytes after the flow into a run: a start (plain or at an entry, with an initial state), then
/// completions until the flow finishes, the bytes run out (a byte past the end reads as 0) or `maxCompletions`
/// have been tried. Each completion's byte says whether it raises an event (one the current step handles, or any
/// event at all) and whether it carries a result (of the step's declared shape, or over the state keys when it
/// declares none; now and then with a key left out, of another kind or unknown).
private struct Driver {
    /// The most steps a run shows: small, so that no input loops for long.
    static let maxSteps = 200
    /// The most completions a run is given, failed ones included, so that long inputs stay fast.
    static let maxCompletions = 2 * maxSteps

    /// The flow under test.
    let flow: CompiledFlow
    /// The bytes that drive the run, and the next one to read.
    let bytes: [UInt8]
    var index = 0
    /// Every event of the flow and of `child`, and one that neither knows.
    let events: [String]

    init(flow: CompiledFlow, bytes: [UInt8]) {
        self.flow = flow
        self.bytes = bytes
        var events: Set = ["undeclaredEvent"]
        for compiled in [flow, child] {
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

    /// The flow and compiled step the run is at: a qualified name (`parent/child`) is inside `child`.
    func step(at name: String?) -> (flow: CompiledFlow, step: CompiledFlow.Step?) {
        let parts = name?.split(separator: "/") ?? []
        let current = parts.count > 1 ? child : flow
        return (current, parts.last.flatMap { current.ids[String($0)] }.map { current.steps[$0] })
    }

    /// A value for a key of `type`: mostly of the type (edge values included), now and then null or another kind.
    mutating func value(of type: TypeRef) -> Value {
        let choice = byte()
        if choice % 32 == 31 { return pick([.null, .string("x"), .int(1), .bool(true), .number(0.5), .object([:])]) }
        if type.optional && choice % 8 == 0 { return .null }
        switch type.base {
        case .int: return .int(pick([0, 1, -1, 50, 100, 500, .max, .min]))
        case .number: return pick([.number(0), .number(-0.0), .number(1.5), .number(-2.25), .number(1e308), .number(9.3e18), .int(7)])
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

    /// Runs the flow; run errors are answers, not failures, and the run goes on after them as a host's would.
    mutating func run() {
        var run: FlowRun
        do {
            run = try FlowRun(flow: flow, start: start(), resolver: ChildResolver(), maxSteps: Self.maxSteps)
        } catch {
            return
        }
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
            try? run.complete(event: event, result: result)
        }
    }
}

/// libFuzzer's entry point: the bytes before the first NUL (which no flow text may hold) are a flow document, YAML
/// or JSON told apart as the CLI does; a well-formed flow that compiles is run as the bytes after the NUL say.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let end = bytes.firstIndex(of: 0) ?? bytes.count
    let document = FlowLoader.load(bytes: Array(bytes[..<end]), file: "fuzz-input")
    guard let flow = document.flow, document.isWellFormed, let compiled = try? CompiledFlow(flow: flow) else { return 0 }
    var driver = Driver(flow: compiled, bytes: Array(bytes[min(end + 1, bytes.count)...]))
    driver.run()
    return 0
}
