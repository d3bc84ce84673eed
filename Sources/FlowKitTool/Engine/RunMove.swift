import FlowKit

/// One thing a user (or `flowkit simulate --events`) does at the step a run is at (docs/format.md, "Moves").
package enum RunMove: Equatable, Sendable {
    /// Complete the step with this explicit event and no result.
    case event(String)
    /// Complete the step with neither event nor result: its derived events or `next` decide.
    case next
    /// The back button: leave the step without completing it.
    case back
    /// Complete the step with this result and no explicit event; when `step` is given, the run must be at it.
    case result([String: Value], step: String?)

    /// Makes the move on `run`. A result for another step than the one the run is at is an error
    /// (`invalidCompletion`), so that a list of moves cannot silently drift from the steps it was written for.
    package func apply(to run: inout FlowRun) throws(RunError) {
        switch self {
        case .event(let name): try run.complete(event: name)
        case .next: try run.complete()
        case .back: try run.goBack()
        case .result(let values, let step):
            if let step, let current = run.currentStep, step != current {
                throw RunError("the move gives a result for step '\(name: step)', but the run is at '\(name: current)'",
                               kind: .invalidCompletion, step: current)
            }
            try run.complete(result: values)
        }
    }

    /// How the move is written in a list of moves.
    package var text: String {
        switch self {
        case .event(let name): return name
        case .next: return "next"
        case .back: return "back"
        case .result(let values, let step): return (step.map { $0 + "=" } ?? "=") + Value.object(values).jsonText
        }
    }
}

/// A list of moves that cannot be read, with the column (1-based, in characters) where the problem is.
package struct RunMoveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    package let message: String
    /// Where in the text, counted in characters from 1.
    package let column: Int

    /// "column N: message".
    package var description: String { "column \(column): \(message)" }

    /// An error at `column`, its names escaped as the message was written.
    package init(message: Message, column: Int) {
        self.message = message.text
        self.column = column
    }
}

extension RunMove {
    /// The most moves one list may hold.
    package static let maxCount = 100_000

    /// Reads a comma-separated list of moves (docs/format.md, "Moves"): `NAME` (an event), `next`, `back`, and
    /// `STEP={json}` or `={json}` (a result as a JSON object, commas inside it allowed). Spaces around a move are
    /// ignored; an empty list is no moves, an empty move in a list (`a,,b`) is an error.
    package static func parseList(_ text: String) throws(RunMoveError) -> [RunMove] {
        let characters = Array(text)
        var moves: [RunMove] = []
        if characters.allSatisfy({ $0 == " " || $0 == "\t" }) { return [] }
        var index = 0
        func skipSpaces() { while index < characters.count, characters[index] == " " || characters[index] == "\t" { index += 1 } }
        while true {
            skipSpaces()
            let start = index
            guard moves.count < maxCount else { throw RunMoveError(message: "more than \(maxCount) moves", column: start + 1) }
            while index < characters.count, characters[index] != ",", characters[index] != "=" { index += 1 }
            let name = String(characters[start..<index]).trimmingSpaces
            if index < characters.count, characters[index] == "=" {
                if !name.isEmpty && !name.split(separator: "/", omittingEmptySubsequences: false).allSatisfy({ Identifier.isValid(String($0)) }) {
                    throw RunMoveError(message: "'\(name: name)' is not a step name", column: start + 1)
                }
                index += 1
                skipSpaces()
                let objectStart = index
                guard index < characters.count, characters[index] == "{" else {
                    throw RunMoveError(message: "a result is a JSON object after '=', e.g. \(verbatim: name.isEmpty ? "amount" : name)={\"amount\": 150}", column: index + 1)
                }
                index = try endOfObject(characters, from: index)
                let values = try object(String(characters[objectStart..<index]), column: objectStart + 1)
                moves.append(.result(values, step: name.isEmpty ? nil : name))
                skipSpaces()
            } else {
                guard !name.isEmpty else { throw RunMoveError(message: "an empty move; give an event name, next, back or STEP={result}", column: start + 1) }
                switch name {
                case "next": moves.append(.next)
                case "back": moves.append(.back)
                default:
                    guard Identifier.isValid(name) else {
                        throw RunMoveError(message: "'\(name: name)' is not an event name, next, back or STEP={result}", column: start + 1)
                    }
                    moves.append(.event(name))
                }
            }
            if index == characters.count { return moves }
            guard characters[index] == "," else {
                throw RunMoveError(message: "expected ',' between moves, found '\(name: characters[index])'", column: index + 1)
            }
            index += 1
        }
    }

    /// The index just past the JSON object that starts at `start` (a `{`), strings and escapes respected.
    private static func endOfObject(_ characters: [Character], from start: Int) throws(RunMoveError) -> Int {
        var depth = 0
        var inString = false
        var index = start
        while index < characters.count {
            let character = characters[index]
            if inString {
                if character == "\\" { index += 1 } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "{" || character == "[" {
                depth += 1
            } else if character == "}" || character == "]" {
                depth -= 1
                if depth == 0 { return index + 1 }
            }
            index += 1
        }
        throw RunMoveError(message: "the result's JSON object is not closed", column: start + 1)
    }

    /// The JSON object `text` as values (a result, an initial state); `column` is where it starts, for errors.
    package static func object(_ text: String, column: Int) throws(RunMoveError) -> [String: Value] {
        let parsed = JSONReader.parse(Array(text.utf8), file: "")
        if let problem = parsed.diagnostics.first {
            throw RunMoveError(message: "the result is not valid JSON: \(verbatim: problem.message)", column: column + problem.position.column - 1)
        }
        var hasList = false
        guard let root = parsed.root, case .object(let values)? = root.flowValue(list: { _ in hasList = true }), !hasList else {
            throw RunMoveError(message: "a result must be a JSON object", column: column)
        }
        return values
    }
}

private extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
