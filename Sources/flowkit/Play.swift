import ArgumentParser
import FlowKit
import FlowKitTool
import Foundation

/// `flowkit simulate FLOW --interactive`: a loop over standard input and output around the library's `PlaySession`,
/// which does the work. It reads whole lines, so piped input works as typed input does.
struct Play {
    let flowPath: String
    let flow: CompiledFlow
    let resolver: FlowResolver
    let state: [String: Value]
    let maxSteps: Int

    func run() throws {
        var session = try start()
        try say("playing '\(path: flowPath)': type a choice's number, an event name (or its start), next, back, or a result as JSON or key=value pairs\n\n")
        while !session.run.isFinished { try step(&session) }
        try StandardOutput.write(session.prompt)
        try offerToSave(session)
    }

    private func start() throws -> PlaySession {
        do {
            return try PlaySession(flow: flow, state: state, resolver: resolver, maxSteps: maxSteps)
        } catch {
            throw CommandError.usage(CommandMessage("the run cannot start: \(error.message)" + (error.kind == .missingInput ? "; give it with \(CommandOption.state.flag) '{\"key\": value}'" : "")))
        }
    }

    /// Prompts, reads a line and plays it.
    private func step(_ session: inout PlaySession) throws {
        try StandardOutput.write(session.prompt)
        guard let line = readLine() else {
            try StandardOutput.write("\n")
            throw CommandError(["the input ended at step '\(name: session.run.currentStep ?? "")' before the flow finished"], status: .findings)
        }
        // Piped input is not echoed by a terminal: echo it, so the transcript reads as a session.
        if isatty(STDIN_FILENO) == 0 { try say("\(path: line)\n") }
        switch session.handle(line) {
        case .moved(let trace): try StandardOutput.write(trace + "\n")
        case .invalid(let message): try say("  \(path: message)\n\n")
        case .runError(let message): try say("  run error: \(path: message); choose again\n\n")
        }
    }

    /// Asks for a script file and a scenario name, and writes the run there as a new script; an existing file is
    /// never replaced (another name is asked for).
    private func offerToSave(_ session: PlaySession) throws {
        while true {
            try StandardOutput.write("save this run as a script scenario? a new script file (empty: do not save): ")
            let answer = readLine()
            if isatty(STDIN_FILENO) == 0 { try say("\(path: answer ?? "")\n") }
            guard let line = answer, !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            let path = line.trimmingCharacters(in: .whitespaces)
            try StandardOutput.write("scenario name (empty: 'played run'): ")
            let given = readLine()?.trimmingCharacters(in: .whitespaces) ?? ""
            if isatty(STDIN_FILENO) == 0 { try say("\(path: given)\n") }
            let directory = FilePath.directory(of: path)
            let relative = DisplayPath.relative(FileFlowResolver.canonical(flowPath), to: FileFlowResolver.canonical(directory.isEmpty ? "." : directory))
            let script = session.scenarioScript(name: given.isEmpty ? "played run" : given, flowPath: relative)
            do {
                try OutputFile.create(Array(script.utf8), at: path)
                try say("wrote \(path: path); run it with: flowkit simulate \(CommandOption.script) \(path: path)\n")
                return
            } catch {
                try say("  \(path: (error as? LocalizedError)?.errorDescription ?? "\(error)"); give another file\n")
            }
        }
    }

    /// Writes `message` to standard output, its options spelled as the command line spells them.
    private func say(_ message: CommandMessage) throws {
        try StandardOutput.write(message.line)
    }
}
