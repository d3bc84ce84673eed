import FlowKit

/// Plays a flow step by step from what a person types (`flowkit simulate FLOW --interactive`; docs/format.md,
/// "Playing a flow"): at each step it describes the step and the choices it takes, reads one line, makes the move
/// and says what happened. It holds no terminal: the command feeds it lines and prints what it returns, so it works
/// the same with piped input.
package struct PlaySession: Sendable {
    /// One choice at the current step, as the numbered menu lists it.
    package struct Choice: Equatable, Sendable {
        /// What typing it (or its number) does.
        package let move: RunMove
        /// How the menu shows it.
        package let label: String
    }

    /// What a line did.
    package enum Reply: Equatable, Sendable {
        /// The move was made: the trace lines it added (the state changes are on them).
        case moved(String)
        /// The line was not a move the step takes; the message says why and what to type.
        case invalid(String)
        /// The move was tried and the run stopped with a run error; the run is unchanged.
        case runError(String)
    }

    /// The run so far.
    public private(set) var run: FlowRun
    /// The moves made, in order (the back button included), for saving as a scenario.
    public private(set) var moves: [(step: String, move: RunMove)] = []
    /// The initial state the run started with.
    package let initialState: [String: Value]

    /// Starts `flow` at its `start` with `state` (its inputs).
    package init(flow: CompiledFlow, state: [String: Value] = [:], resolver: FlowResolver? = nil, maxSteps: Int = 10_000) throws(RunError) {
        run = try FlowRun(flow: flow, start: .start(state: state), resolver: resolver, maxSteps: maxSteps)
        initialState = state
    }

    /// The choices at the current step, in menu order: the events the step (or `"*"`) handles that a person can
    /// raise, `next` when the step may complete without a result, a result when it declares one, and `back` when
    /// there is somewhere to go back to. Empty once the flow has finished.
    package var choices: [Choice] {
        guard let (step, flow) = run.currentStepDefinition else { return [] }
        let derived = Set(flow.events.filter { $0.expression != nil }.map(\.name.text))
        var choices: [Choice] = []
        var seen = Set<String>()
        for handler in step.on + (step.name.text == "*" ? [] : flow.anyStep?.on ?? []) {
            let event = handler.event.text
            guard !derived.contains(event), seen.insert(event).inserted else { continue }
            choices.append(Choice(move: .event(event), label: "event \(event)"))
        }
        if let fields = step.result {
            let shape = fields.map { "\($0.name.text): \($0.type)" }.joined(separator: ", ")
            choices.append(Choice(move: .result([:], step: nil), label: "a result { \(shape) }, as JSON or key=value pairs"))
        } else if step.next != nil || flow.anyStep?.next != nil
                    || derived.contains(where: { step.handler(for: $0) != nil || flow.anyStep?.handler(for: $0) != nil }) {
            choices.append(Choice(move: .next, label: "next"))
        }
        if run.canGoBack { choices.append(Choice(move: .back, label: "back (the back button)")) }
        return choices
    }

    /// The description of the current step and its numbered choices, ending in a prompt; or the outcome.
    package var prompt: String {
        guard let name = run.currentStep, let (step, _) = run.currentStepDefinition else {
            return ("the flow finished with outcome '\(name: run.outcome ?? "")'\n" as Message).text
        }
        var text: Message = "step '\(name: name)'"
        if let title = step.title { text = text + ": \(path: title)" }
        text = text + " (\(verbatim: step.kind.rawValue))\n"
        for (index, choice) in choices.enumerated() {
            text = text + "  \(index + 1)) \(path: choice.label)\n"
        }
        return (text + "> ").text
    }

    /// Reads `line` as a choice and makes it: a menu number, `next`, `back`, an event name (or a prefix of one that
    /// only one event has), a JSON object, or `key=value` pairs separated by spaces (each value read as JSON, else
    /// as text) for a result.
    package mutating func handle(_ line: String) -> Reply {
        var trimmed = Substring(line)
        while let first = trimmed.first, first == " " || first == "\t" { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, last == " " || last == "\t" || last == "\r" { trimmed = trimmed.dropLast() }
        let text = String(trimmed)
        guard let current = run.currentStep else { return .invalid("the flow has finished") }
        let move: RunMove
        switch read(text) {
        case .success(let chosen): move = chosen
        case .failure(let problem): return .invalid(problem.message)
        }
        let before = run.trace.count
        do {
            try move.apply(to: &run)
        } catch {
            return .runError(error.message)
        }
        moves.append((current, move))
        let lines = TextSimulationReporter.trace(run.trace).split(separator: "\n", omittingEmptySubsequences: false)
        return .moved(lines[before..<run.trace.count].joined(separator: "\n") + "\n")
    }

    private struct Problem: Error {
        let message: String

        init(message: Message) {
            self.message = message.text
        }
    }

    private func read(_ text: String) -> Result<RunMove, Problem> {
        let choices = self.choices
        let events = choices.compactMap { choice -> String? in if case .event(let name) = choice.move { return name } else { return nil } }
        if text.isEmpty { return .failure(Problem(message: "type a choice: its number, an event name, next, back, or a result")) }
        if let number = Int(text) {
            guard number >= 1, number <= choices.count else { return .failure(Problem(message: "choose 1 to \(choices.count)")) }
            if case .result = choices[number - 1].move {
                return .failure(Problem(message: "type the result, as JSON ({\"amount\": 150}) or key=value pairs (amount=150)"))
            }
            return .success(choices[number - 1].move)
        }
        if text == "next" { return .success(.next) }
        if text == "back" { return .success(.back) }
        if text.hasPrefix("{") {
            do {
                return .success(.result(try RunMove.object(text, column: 1), step: nil))
            } catch {
                return .failure(Problem(message: Message(verbatim: error.message)))
            }
        }
        if text.contains("=") { return pairs(text).map { .result($0, step: nil) } }
        if events.contains(text) { return .success(.event(text)) }
        let matches = events.filter { $0.hasPrefix(text) }
        if matches.count == 1 { return .success(.event(matches[0])) }
        if matches.count > 1 {
            return .failure(Problem(message: "'\(name: text)' could be \(Message.quoted(matches, separator: " or "))"))
        }
        let hint = Suggestions.didYouMean(text, in: events + ["next", "back"])
        return .failure(Problem(message: "step '\(name: run.currentStep ?? "")' takes no '\(name: text)'\(verbatim: hint)"))
    }

    /// `key=value key=value`: each value JSON when it reads as JSON (`150`, `true`, `"a b"`), else text.
    private func pairs(_ text: String) -> Result<[String: Value], Problem> {
        var values: [String: Value] = [:]
        for pair in text.split(separator: " ", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                return .failure(Problem(message: "'\(name: pair)' is not key=value"))
            }
            let key = String(pair[..<equals])
            let raw = String(pair[pair.index(after: equals)...])
            if let value = try? RunMove.object("{\"v\": \(raw)}", column: 1)["v"] {
                values[key] = value
            } else {
                values[key] = .string(raw)
            }
        }
        return .success(values)
    }

    /// The run as a scenario of a simulation script (YAML), named `name`, for a script beside `flowPath` (as the
    /// script's `flow` names it): its start state, every move, and what the run did as `expect`.
    package func scenarioScript(name: String, flowPath: String) -> String {
        let steps = moves.map { step, move -> ScriptStep in
            let at = Name(step, at: .start)
            switch move {
            case .event(let event): return ScriptStep(step: at, event: Name(event, at: .start), result: nil)
            case .next: return ScriptStep(step: at, event: nil, result: nil)
            case .back: return ScriptStep(step: at, event: nil, result: nil, back: true)
            case .result(let values, _): return ScriptStep(step: at, event: nil, result: values)
            }
        }
        let expect = Expectation(outcome: run.outcome.map { Name($0, at: .start) }, path: run.path.map { Name($0, at: .start) },
                                 state: run.state.keys.sorted().map { (Name($0, at: .start), run.state[$0]!) })
        let scenario = Scenario(name: name, position: .start, start: .state(initialState), steps: steps, expect: expect)
        return ScriptWriter.text(Script(file: "", flow: flowPath, flowPosition: nil, scenarios: [scenario]))
    }
}
