import Foundation
import FlowKit

/// Reads a file as it was at a git revision, without a checkout, for `flowkit diff --git REV`: always from the
/// repository the command runs in, never from one the compared tree holds (docs/format.md, "Flow changes").
package enum GitRevision {
    /// The most bytes read from one file at a revision: a flow file's limit.
    static let maxBytes = ReaderLimits.standard.maxBytes

    /// The repository the working directory is in: its git directory and the top of its work tree.
    package struct Repository: Sendable, Equatable {
        /// The absolute git directory.
        package var gitDirectory: String
        /// The absolute top of the work tree, symbolic links resolved.
        package var topLevel: String

        /// The repository of `directory` (by default the working directory), found by git from there.
        package static func of(_ directory: String = FileManager.default.currentDirectoryPath) throws(FlowDiff.Problem) -> Repository {
            let (status, output, errors) = try GitRevision.git(["rev-parse", "--show-toplevel", "--absolute-git-dir"], in: directory)
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
            guard status == 0, lines.count == 2 else {
                let first = String(decoding: errors, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "no repository"
                throw FlowDiff.Problem(message: "the working directory is not in a git repository; run 'flowkit diff \(CommandOption.git)' inside the repository (\(path: first, limit: 200))",
                                       findings: [])
            }
            return Repository(gitDirectory: lines[1], topLevel: FileFlowResolver.canonical(lines[0]))
        }

        /// `path` relative to the top of the work tree (symbolic links resolved), or nil when it is outside it.
        func relative(_ path: String) -> String? {
            let canonical = FileFlowResolver.canonical(path)
            let top = topLevel.hasSuffix("/") ? topLevel : topLevel + "/"
            guard canonical.hasPrefix(top) else { return nil }
            return String(canonical.dropFirst(top.count))
        }
    }

    /// The bytes of the file at `path` as it was at `revision` in the working directory's repository, or nil when
    /// the revision has no such file. Throws when git cannot run, the revision is not one, the working directory is
    /// not in a repository, or the file is outside it.
    package static func read(_ path: String, at revision: String) throws(FlowDiff.Problem) -> [UInt8]? {
        try read(path, at: revision, in: try Repository.of())
    }

    /// The bytes of the file at `path` as it was at `revision` in `repository`, or nil when the revision has no
    /// such file. Git is told the repository (`--git-dir`, `--work-tree`), so it never looks for one near the file.
    package static func read(_ path: String, at revision: String, in repository: Repository) throws(FlowDiff.Problem) -> [UInt8]? {
        // A revision that starts with '-' would be read by git as an option.
        guard !revision.isEmpty, !revision.hasPrefix("-"), !revision.contains(":"), !revision.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw FlowDiff.Problem(message: "'\(name: revision, limit: .max)' is not a git revision", findings: [])
        }
        guard let relative = repository.relative(path) else {
            throw FlowDiff.Problem(message: "'\(name: path, limit: .max)' is not in the repository at '\(name: repository.topLevel, limit: .max)'",
                                   findings: [])
        }
        let (status, bytes, message) = try git(["--git-dir=" + repository.gitDirectory, "--work-tree=" + repository.topLevel,
                                                "show", "\(revision):\(relative)"], in: repository.topLevel, limit: maxBytes + 1)
        guard status == 0 else {
            let text = String(decoding: message, as: UTF8.self)
            // git's words for a path the revision does not have.
            if text.contains("exists on disk, but not in") || text.contains("does not exist in") { return nil }
            let first = text.split(separator: "\n").first.map(String.init) ?? "git show failed"
            throw FlowDiff.Problem(message: "cannot read '\(name: path, limit: .max)' at '\(name: revision, limit: .max)': \(path: first, limit: 200)",
                                   findings: [])
        }
        return bytes
    }

    /// Runs git with `arguments` in `directory`: its status, standard output (at most `limit` bytes kept) and
    /// standard error.
    static func git(_ arguments: [String], in directory: String, limit: Int = 1 << 16) throws(FlowDiff.Problem) -> (Int32, [UInt8], Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory.isEmpty ? "." : directory)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw FlowDiff.Problem(message: "cannot run git: \(verbatim: error.localizedDescription)", findings: [])
        }
        // Standard output is drained first (a file may be larger than a pipe holds); git's messages are a line
        // or two, which the error pipe holds until they are read.
        var bytes: [UInt8] = []
        let handle = output.fileHandleForReading
        while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty {
            if bytes.count < limit { bytes += chunk.prefix(limit - bytes.count) }
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, bytes, message)
    }
}

extension FlowDiff {
    /// What `flowkit diff --git REV PATH…` finds: the changes of every flow file given (or found in the directories
    /// given, as lint finds them) since `revision`, and notes on the files it had nothing to compare with.
    package struct RevisionComparison: Sendable {
        /// The changes, file after file.
        package var changes: [FlowChange] = []
        /// The files compared.
        package var files: [String] = []
        /// One line per file that is new since the revision (nothing to compare it with).
        package var notes: [CommandMessage] = []
        /// One line per file found in a directory that could not be compared (it has errors, now or at the
        /// revision): the comparison of the others goes on, and the command fails after showing them.
        package var problems: [CommandMessage] = []
        /// The two versions of each file compared, for pictures.
        var flows: [(old: Flow, new: Flow)] = []
    }

    /// Compares each flow file of `paths` with its version at `revision`. Simulation scripts found in directories
    /// are not flows and are passed over; one named directly is an error, as is anything that cannot be read. A
    /// flow named directly that has errors stops the comparison; one found in a directory is listed in `problems`.
    package static func compare(paths: [String], atRevision revision: String) throws(Problem) -> RevisionComparison {
        try compare(paths: paths, atRevision: revision, neighbourhood: nil)
    }

    /// As `compare(paths:atRevision:)`, with the flows and scripts around already read (nil: read them).
    static func compare(paths: [String], atRevision revision: String, neighbourhood known: FlowParents.Neighbourhood?) throws(Problem) -> RevisionComparison {
        let collected = FileCollector.collect(paths, configuration: nil, allowOutside: true)
        if let problem = collected.problems.first { throw Problem(message: CommandMessage(problem), findings: []) }
        let named = Set(paths)
        let neighbourhood = known ?? FlowParents.Neighbourhood(collected.files)
        let repository = try GitRevision.Repository.of()
        var comparison = RevisionComparison()
        for file in collected.files {
            let document: LoadedDocument
            do {
                document = try FlowLoader.load(path: file)
            } catch {
                throw Problem(message: CommandMessage(error.localizedDescription), findings: [])
            }
            if document.isScript && !named.contains(file) { continue }
            // A file in a directory that is no flow file (a JSON Schema saved beside the flows, a package manifest) is
            // passed over as lint's directory walk passes it over, with a note.
            if !document.isFlowFile && !named.contains(file) {
                comparison.notes.append("skipped '\(name: file, limit: .max)': not a flow file (no top-level 'flowkit' or 'flowkit-script' key)")
                continue
            }
            guard let old = try GitRevision.read(file, at: revision, in: repository) else {
                comparison.notes.append("'\(name: file, limit: .max)' is not in '\(name: revision, limit: .max)': a new file, nothing to compare")
                continue
            }
            do {
                let new = try check(document, path: file)
                let before = try load(bytes: old, file: file, name: "\(revision):\(file)")
                comparison.changes += compare(old: before, new: new, parents: neighbourhood.parents(of: file))
                comparison.files.append(file)
                comparison.flows.append((before, new))
            } catch where !named.contains(file) {
                let count = error.findings.count
                comparison.problems.append("\(error.message)\(count == 0 ? "" : " (\(count) error\(count == 1 ? "" : "s"): 'flowkit lint' shows them)")")
            }
        }
        return comparison
    }
}

/// Loads nested flows as they were at a git revision, for the old side of `flowkit diff --git REV`: a reference
/// is located as `FileFlowResolver` locates it (relative to the file that names it, inside `root`), then read at
/// the revision from `repository`, never from the disk.
final class GitFlowResolver: FlowResolver, @unchecked Sendable {
    private let root: String
    private let revision: String
    private let repository: GitRevision.Repository
    private var cache: [String: CompiledFlow] = [:]
    private let lock = NSLock()

    init(root: String, revision: String, repository: GitRevision.Repository) {
        self.root = FileFlowResolver.canonical(root)
        self.revision = revision
        self.repository = repository
    }

    func resolve(_ path: String, from parentFile: String) throws(RunError) -> CompiledFlow {
        let file = try FileFlowResolver.locate(path, from: parentFile, root: root)
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[file] { return cached }
        let bytes: [UInt8]?
        do {
            bytes = try GitRevision.read(file, at: revision, in: repository)
        } catch {
            throw RunError("nested flow '\(name: path)' cannot be read at '\(name: revision)': \(verbatim: error.message.description)", kind: .nestedFlowUnavailable)
        }
        guard let bytes else {
            throw RunError("nested flow '\(name: path)' is not in '\(name: revision)'", kind: .nestedFlowUnavailable)
        }
        let document = FlowLoader.load(bytes: bytes, file: file, format: DocumentFormat(path: file))
        guard let flow = document.flow, document.isWellFormed else {
            throw RunError("nested flow '\(name: path)' does not load at '\(name: revision)'", kind: .nestedFlowUnavailable)
        }
        let compiled = try CompiledFlow(flow: flow)
        cache[file] = compiled
        return compiled
    }
}
