import FlowKit
import Foundation

// What every frontend returns or throws: the command line (or any other front end) prints and writes it, in one
// place. A frontend takes typed options, does the command's work and returns a `CommandOutcome`; it prints nothing
// and names no command-line option (a message that must name one carries a `CommandOption`, which the front end
// spells).

/// How a command ends (docs/format.md, "Exit codes").
package enum ExitStatus: Int32, Sendable {
    /// All is well.
    case success = 0
    /// A finding is an error (or, strictly, a warning), a scenario failed, a threshold was missed.
    case findings = 1
    /// The command could not do its work.
    case failure = 2
}

/// An option of a command, by what it means: a message that must name one (`give a script or moves`) names it
/// with this, and the front end spells it (`--script`, `--events`).
package enum CommandOption: Sendable, Equatable {
    case script, events, state, trace, coverage, focus, output, coverageReport, extend, git, traceOut, writeBaseline, fixScripts
}

/// Text for the user that may name options: interpolate a `CommandOption` to name one. Like the library's
/// `Message`, it escapes what is interpolated as the label says (`name:`, `path:`, `verbatim:`); an unlabelled
/// string does not compile.
package struct CommandMessage: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    enum Piece: Sendable, Equatable {
        case text(String)
        case option(CommandOption)
    }

    var pieces: [Piece]

    package init(stringLiteral value: String) {
        self.init(value)
    }

    /// A message of plain text.
    package init(_ text: String) {
        pieces = text.isEmpty ? [] : [.text(text)]
    }

    /// Joins messages: `a + b`.
    package static func + (lhs: CommandMessage, rhs: CommandMessage) -> CommandMessage {
        CommandMessage(joining: [lhs, rhs], separator: "")
    }

    /// `messages`, one after another with `separator` between them.
    package init(joining messages: [CommandMessage], separator: String) {
        var interpolation = Interpolation(literalCapacity: 0, interpolationCount: 0)
        for (index, message) in messages.enumerated() {
            if index > 0 { interpolation.append(separator) }
            interpolation.appendInterpolation(message)
        }
        pieces = interpolation.pieces
    }

    package init(stringInterpolation: Interpolation) {
        pieces = stringInterpolation.pieces
    }

    /// Builds a message from its parts (text next to text is one piece, so that equal messages are equal).
    package struct Interpolation: StringInterpolationProtocol {
        var pieces: [Piece] = []

        package init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func append(_ text: String) {
            guard !text.isEmpty else { return }
            if case .text(let before)? = pieces.last {
                pieces[pieces.count - 1] = .text(before + text)
            } else {
                pieces.append(.text(text))
            }
        }

        package mutating func appendLiteral(_ literal: String) {
            append(literal)
        }

        /// Names an option.
        package mutating func appendInterpolation(_ option: CommandOption) {
            pieces.append(.option(option))
        }

        /// Another message, its options named as they are.
        package mutating func appendInterpolation(_ message: CommandMessage) {
            for piece in message.pieces {
                switch piece {
                case .text(let text): append(text)
                case .option: pieces.append(piece)
                }
            }
        }

        /// A name: escaped and cut at `limit` characters, as the library's `Message` does.
        package mutating func appendInterpolation(name: some StringProtocol, limit: Int = 60) {
            append(("\(name: name, limit: limit)" as Message).text)
        }

        /// A path or a text from a file: escaped, whole unless a `limit` is given.
        package mutating func appendInterpolation(path: some StringProtocol, limit: Int = .max) {
            append(("\(path: path, limit: limit)" as Message).text)
        }

        /// Text this program wrote, as it is.
        package mutating func appendInterpolation(verbatim: some StringProtocol) {
            append(String(verbatim))
        }

        /// A message of the library's, already escaped.
        package mutating func appendInterpolation(_ message: Message) {
            append(message.text)
        }

        /// A number.
        package mutating func appendInterpolation(_ number: some BinaryInteger) {
            append("\(number)")
        }

        /// A number.
        package mutating func appendInterpolation(_ number: Double) {
            append("\(number)")
        }
    }

    /// The message with each option spelled by `spelling`.
    package func text(spelling: (CommandOption) -> String) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): return text
            case .option(let option): return spelling(option)
            }
        }.joined()
    }

    /// The message with options named by their meaning, `<traceOut>` (for logs and tests; a front end spells
    /// them itself).
    package var description: String {
        text { "<\($0)>" }
    }
}

/// One thing a command's outcome asks its front end to do, in order.
package enum CommandOutput: Sendable, Equatable {
    /// Text for standard output.
    case standardOutput(String)
    /// A line (or lines) for standard error: a note, a table beside a machine-readable report.
    case note(CommandMessage)
    /// Bytes for a file, written as docs/format.md's "Output files" says (`-` is standard output), then `written`
    /// on standard error when given. A failed write is an error of the command (exit 2), after the other outputs.
    case file(path: String, bytes: [UInt8], written: CommandMessage?)
}

/// What a command did: what to print and write, in order, the errors to print after it, and how it ends.
package struct CommandOutcome: Sendable, Equatable {
    /// The outputs, in order.
    package var outputs: [CommandOutput] = []
    /// Errors to print after the outputs (`flowkit: error: ...`): work that could not be done (with `.failure`),
    /// or why the command fails (a coverage threshold missed, with `.findings`); with `.success` there are none.
    package var errors: [CommandMessage] = []
    /// How the command ends when every output was written.
    package var status: ExitStatus = .success

    package init(outputs: [CommandOutput] = [], errors: [CommandMessage] = [], status: ExitStatus = .success) {
        self.outputs = outputs
        self.errors = errors
        self.status = status
    }

    /// Adds text for standard output.
    package mutating func print(_ text: String) {
        outputs.append(.standardOutput(text))
    }

    /// Adds a line for standard error.
    package mutating func note(_ text: String) {
        outputs.append(.note(CommandMessage(text)))
    }

    /// Adds a line for standard error that may name options.
    package mutating func note(_ message: CommandMessage) {
        outputs.append(.note(message))
    }

    /// Adds a file to write, and a note to print once it is written.
    package mutating func write(_ bytes: [UInt8], to path: String, written: CommandMessage? = nil) {
        outputs.append(.file(path: path, bytes: bytes, written: written))
    }
}

/// Why a command stopped before it had an outcome: the one error of the frontends, printed in one place.
package struct CommandError: Error, Sendable {
    /// Findings to show first, already rendered (empty for none).
    package var findings: String
    /// The errors, one line each (`flowkit: error: ...`), or the usage problem when `isUsage`.
    package var messages: [CommandMessage]
    /// How the command ends.
    package var status: ExitStatus
    /// Whether the command line was not usable (shown with the command's usage; exit 2).
    package var isUsage: Bool
    /// Whether the process must end at once, tearing nothing down (work that cannot be stopped still runs).
    package var immediately: Bool

    package init(findings: String = "", _ messages: [CommandMessage], status: ExitStatus, isUsage: Bool = false, immediately: Bool = false) {
        self.findings = findings
        self.messages = messages
        self.status = status
        self.isUsage = isUsage
        self.immediately = immediately
    }

    /// The command line cannot be used as given.
    package static func usage(_ message: CommandMessage) -> CommandError {
        CommandError([message], status: .failure, isUsage: true)
    }

    /// The command could not do its work.
    package static func failure(_ messages: CommandMessage...) -> CommandError {
        CommandError(messages, status: .failure)
    }
}
