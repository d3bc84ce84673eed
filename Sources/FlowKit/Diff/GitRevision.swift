import Foundation

/// Reads a file as it was at a git revision (`git show REV:./PATH`, run in the file's directory), without a checkout,
/// for `flowkit diff --git REV`.
public enum GitRevision {
    /// The most bytes read from one file at a revision: a flow file's limit.
    static let maxBytes = ReaderLimits.standard.maxBytes

    /// The bytes of the file at `path` as it was at `revision`, or nil when the revision has no such file. Throws
    /// when git cannot run, the revision is not one, or the directory is not in a repository.
    public static func read(_ path: String, at revision: String) throws(FlowDiff.Problem) -> [UInt8]? {
        // A revision that starts with '-' would be read by git as an option.
        guard !revision.isEmpty, !revision.hasPrefix("-"), !revision.contains(":"), !revision.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw FlowDiff.Problem(message: "'\(Identifier.display(revision, limit: .max))' is not a git revision", findings: [])
        }
        let directory = (path as NSString).deletingLastPathComponent
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "show", "\(revision):./\((path as NSString).lastPathComponent)"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory.isEmpty ? "." : directory)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw FlowDiff.Problem(message: "cannot run git: \(error.localizedDescription)", findings: [])
        }
        // Standard output is drained first (a file may be larger than a pipe holds); git's messages are a line
        // or two, which the error pipe holds until they are read.
        var bytes: [UInt8] = []
        let handle = output.fileHandleForReading
        while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty {
            if bytes.count <= maxBytes { bytes += chunk.prefix(maxBytes + 1 - bytes.count) }
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self)
            // git's words for a path the revision does not have.
            if text.contains("exists on disk, but not in") || text.contains("does not exist in") { return nil }
            let first = text.split(separator: "\n").first.map(String.init) ?? "git show failed"
            throw FlowDiff.Problem(message: "cannot read '\(Identifier.display(path, limit: .max))' at '\(Identifier.display(revision, limit: .max))': "
                                   + Identifier.display(first, limit: 200, quoting: false), findings: [])
        }
        return bytes
    }
}

extension FlowDiff {
    /// What `flowkit diff --git REV PATH…` finds: the changes of every flow file given (or found in the directories
    /// given, as lint finds them) since `revision`, and notes on the files it had nothing to compare with.
    public struct RevisionComparison: Sendable {
        /// The changes, file after file.
        public var changes: [FlowChange] = []
        /// The files compared.
        public var files: [String] = []
        /// One line per file that is new since the revision (nothing to compare it with).
        public var notes: [String] = []
        /// One line per file found in a directory that could not be compared (it has errors, now or at the
        /// revision): the comparison of the others goes on, and the command fails after showing them.
        public var problems: [String] = []
        /// The two versions of each file compared, for pictures.
        var flows: [(old: Flow, new: Flow)] = []
    }

    /// Compares each flow file of `paths` with its version at `revision`. Simulation scripts found in directories
    /// are not flows and are passed over; one named directly is an error, as is anything that cannot be read. A
    /// flow named directly that has errors stops the comparison; one found in a directory is listed in `problems`.
    public static func compare(paths: [String], atRevision revision: String) throws(Problem) -> RevisionComparison {
        try compare(paths: paths, atRevision: revision, neighbourhood: nil)
    }

    /// As `compare(paths:atRevision:)`, with the flows and scripts around already read (nil: read them).
    static func compare(paths: [String], atRevision revision: String, neighbourhood known: FlowParents.Neighbourhood?) throws(Problem) -> RevisionComparison {
        let collected = FileCollector.collect(paths, configuration: nil, allowOutside: true)
        if let problem = collected.problems.first { throw Problem(message: problem, findings: []) }
        let named = Set(paths)
        let neighbourhood = known ?? FlowParents.Neighbourhood(collected.files)
        var comparison = RevisionComparison()
        for file in collected.files {
            let document: LoadedDocument
            do {
                document = try FlowLoader.load(path: file)
            } catch {
                throw Problem(message: error.localizedDescription, findings: [])
            }
            if document.isScript && !named.contains(file) { continue }
            guard let old = try GitRevision.read(file, at: revision) else {
                comparison.notes.append("'\(Identifier.display(file, limit: .max))' is not in '\(Identifier.display(revision, limit: .max))': a new file, nothing to compare")
                continue
            }
            do {
                let new = try check(document, path: file)
                let before = try load(bytes: old, file: file, name: "\(revision):\(file)")
                comparison.changes += compare(old: before, new: new, parents: neighbourhood.parents(of: file))
                comparison.files.append(file)
                comparison.flows.append((before, new))
            } catch where !named.contains(file) {
                comparison.problems.append(error.message + (error.findings.isEmpty ? "" : " (\(error.findings.count) error\(error.findings.count == 1 ? "" : "s"): 'flowkit lint' shows them)"))
            }
        }
        return comparison
    }
}
