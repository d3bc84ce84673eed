import ArgumentParser
import FlowKit
import Foundation

/// `flowkit lint`: checks flow files and directories of them.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check flow files for mistakes.",
        discussion: """
            Takes files and directories; a directory is searched recursively for .json, .yaml and .yml files \
            (hidden files and directories are skipped). There, a document with a top-level 'flowkit' key is a \
            flow and one with a 'flowkit-script' key is a simulation script, checked against the flow it names; \
            other documents (a JSON Schema, a trace) are skipped and counted (--verbose lists them). A file named \
            on the command line is always checked. A directory that cannot be read, or in which no flow file is \
            found, is an error (exit 2).

            Examples:
              flowkit lint flows/transfer.json
              flowkit lint flows/ --strict
              flowkit lint flows/ --format json > findings.json
            """)

    @Argument(help: ArgumentHelp("Flow files or directories to check.", valueName: "path"), completion: .file(extensions: ["json", "yaml", "yml"]))
    var paths: [String]

    @Flag(name: .long, help: "Fail (exit 1) on warnings too, not only on errors.")
    var strict = false

    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: ArgumentHelp("Also write a report to a file, as FORMAT:PATH (repeatable), e.g. sarif:flowkit.sarif.", valueName: "format:path"), completion: .list(LintReportFormat.allCases.map { $0.rawValue + ":" }))
    var report: [String] = []

    @Option(name: .long, help: ArgumentHelp("The configuration file (default: the nearest .flowkit.yml above each linted file).", valueName: "file"), completion: .file(extensions: ["yml", "yaml"]))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("Hide findings recorded in this baseline; new findings still fail.", valueName: "file"), completion: .file(extensions: ["json"]))
    var baseline: String?

    @Option(name: .customLong("write-baseline"), help: ArgumentHelp("Record the current findings as a baseline and exit 0.", valueName: "file"), completion: .file(extensions: ["json"]))
    var writeBaseline: String?

    @Flag(name: .customLong("allow-outside"), help: "Follow nested flows outside the directories given on the command line.")
    var allowOutside = false

    @Flag(name: .long, help: "List the files skipped in directories because they are not flow files.")
    var verbose = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one flow file or directory, e.g. 'flowkit lint flows/'") }
        for item in report where LintReportFormat.parseReport(item) == nil {
            throw ValidationError("--report takes FORMAT:PATH with a format of \(LintReportFormat.allCases.map(\.rawValue).joined(separator: ", ")), not '\(Identifier.display(item, limit: .max))'")
        }
    }

    func run() throws {
        let configuration = try explicitConfiguration()
        let collected = FileCollector.collect(paths, configuration: configuration, allowOutside: allowOutside)
        if configuration == nil {
            // A configuration that cannot be used stops the lint before any finding is printed.
            let broken = LintConfiguration.problems(for: collected.files)
            if !broken.isEmpty {
                for problem in broken { printError("flowkit: error: \(problem)") }
                throw ExitCode(2)
            }
        }
        var session = LintSession(roots: collected.roots, allowOutside: allowOutside, configuration: configuration)
        if let baseline {
            session.baseline = try Baseline.load(path: baseline)
        }
        let outcome = session.run(collected.files, discovered: Set(collected.directoryOf.keys))
        if verbose {
            for file in outcome.skipped {
                printError("skipped \(Identifier.display(file, limit: .max, quoting: false)): not a flow file (no top-level 'flowkit' or 'flowkit-script' key)")
            }
        }
        let problems = collected.problems + FileCollector.emptyDirectories(collected, outcome: outcome)
        if let writeBaseline {
            let failures = problems + outcome.failures
            guard failures.isEmpty else {
                for failure in failures { printError("flowkit: error: \(failure)") }
                printError("flowkit: error: no baseline written: the lint could not check everything")
                throw ExitCode(2)
            }
            let recorded = outcome.allDiagnostics
            try OutputFile.write(Array(Baseline(findings: recorded, relativeTo: writeBaseline).json.utf8), to: writeBaseline)
            printError("wrote \(Identifier.display(writeBaseline, limit: .max, quoting: false)) with \(outcome.allDiagnostics.count) finding\(outcome.allDiagnostics.count == 1 ? "" : "s")")
            return
        }
        let lintReport = LintReport(diagnostics: outcome.diagnostics, fileCount: outcome.files.count, skippedCount: outcome.skipped.count, strict: strict)
        let reporter = output.format.reporter(color: output.color.enabled(for: STDOUT_FILENO), files: outcome.files, toolVersion: Flowkit.version)
        try StandardOutput.write(reporter.render(lintReport))
        if outcome.baselined > 0 && output.format == .text {
            printError("\(outcome.baselined) finding\(outcome.baselined == 1 ? "" : "s") hidden by the baseline")
        }
        var failures = problems + outcome.failures
        for item in report {
            guard let (format, path) = LintReportFormat.parseReport(item) else { continue }
            do {
                try OutputFile.write(Array(format.reporter(color: false, files: outcome.files, toolVersion: Flowkit.version).render(lintReport).utf8), to: path)
            } catch {
                failures.append(error.localizedDescription)
            }
        }
        for failure in failures { printError("flowkit: error: \(failure)") }
        if !failures.isEmpty { throw ExitCode(2) }
        if lintReport.fails { throw ExitCode(1) }
    }

    /// The configuration named with --config, loaded; nil when each file's nearest one applies.
    private func explicitConfiguration() throws -> LintConfiguration? {
        guard let config else { return nil }
        return try LintConfiguration.load(path: config)
    }
}

/// Turns the paths given on the command line into the list of files to check.
enum FileCollector {
    /// What the paths given lead to.
    struct Collected {
        /// The files to check, in order.
        var files: [String] = []
        /// The directory trees they come from (for nested flows).
        var roots: [String] = []
        /// The paths that could not be used, as messages.
        var problems: [String] = []
        /// Each file found in a directory, with the directory given on the command line it was found in.
        var directoryOf: [String: String] = [:]
        /// How many files each directory's configuration excludes.
        var excluded: [String: Int] = [:]
    }

    /// The extensions searched for in directories.
    static let extensions: Set<String> = ["json", "yaml", "yml"]

    /// Files named directly are kept as given; directories are searched recursively in sorted order, without
    /// following symbolic links to directories, keeping the files their configuration includes (an explicit
    /// configuration, else the nearest `.flowkit.yml`). Returns the files, the directory trees they come from
    /// (for nested flows), and the paths that could not be used: a path that cannot be examined, a directory that
    /// cannot be listed or whose paths are too long for the system, and a directory with no flow files, so that
    /// nothing is skipped in silence.
    static func collect(_ paths: [String], configuration: LintConfiguration?, allowOutside: Bool) -> Collected {
        var collected = Collected()
        var seen = Set<String>()
        for path in paths {
            var info = stat()
            guard lstat(path, &info) == 0 else {
                let code = errno
                let error = code == ENOENT || code == ENOTDIR
                    ? FlowKitError.noSuchFile(path) : FlowKitError.unreadable(path, reason: OutputFile.reason(code))
                collected.problems.append(error.localizedDescription)
                continue
            }
            // A symbolic link that leads nowhere (or to itself) goes to the loader, which says why it cannot be read.
            var target = stat()
            let isDirectory = stat(path, &target) == 0 && target.st_mode & S_IFMT == S_IFDIR
            guard isDirectory else {
                let directory = (path as NSString).deletingLastPathComponent
                collected.roots.append(directory.isEmpty ? "." : directory)
                if seen.insert(path).inserted { collected.files.append(path) }
                continue
            }
            collected.roots.append(path)
            var found: [String] = []
            let problemsBefore = collected.problems.count
            walk(path, root: FileFlowResolver.canonical(path), allowOutside: allowOutside, into: &found, problems: &collected.problems)
            var nearest: [String: LintConfiguration?] = [:]
            var excluded = 0
            var kept = 0
            for file in found.sorted() {
                let applicable: LintConfiguration?
                if let configuration {
                    applicable = configuration
                } else if let configPath = LintConfiguration.find(from: file) {
                    if nearest[configPath] == nil { nearest[configPath] = try? LintConfiguration.load(path: configPath) }
                    applicable = nearest[configPath] ?? nil
                } else {
                    applicable = nil
                }
                guard applicable?.includes(file) ?? true else {
                    excluded += 1
                    continue
                }
                kept += 1
                if seen.insert(file).inserted {
                    collected.files.append(file)
                    collected.directoryOf[file] = path
                }
            }
            if kept == 0 && collected.problems.count == problemsBefore {
                collected.problems.append(FlowKitError.noFlowFiles(path, excluded: excluded).localizedDescription)
            }
            collected.excluded[path] = excluded
        }
        return collected
    }

    /// The directories given whose files were all skipped as not flow files: each is a directory with no flow
    /// files, an error, so that nothing passes having checked nothing.
    static func emptyDirectories(_ collected: Collected, outcome: LintSession.Outcome) -> [String] {
        let checked = Set(outcome.files)
        var skipped: [String: Int] = [:]
        for file in outcome.skipped { if let directory = collected.directoryOf[file] { skipped[directory, default: 0] += 1 } }
        var withChecked = Set<String>()
        for (file, directory) in collected.directoryOf where checked.contains(file) { withChecked.insert(directory) }
        return skipped.keys.sorted().filter { !withChecked.contains($0) }.map { directory in
            FlowKitError.noFlowFiles(directory, excluded: collected.excluded[directory] ?? 0, skipped: skipped[directory] ?? 0).localizedDescription
        }
    }

    /// Collects flow files below `directory`. Directory links are not followed; a file link is kept only when
    /// its target is a regular file inside `root` (or with `allowOutside`). A directory that cannot be listed, an
    /// entry that cannot be examined (a path too long for the system) or named in bytes that are not UTF-8 is a
    /// problem, never skipped in silence.
    private static func walk(_ directory: String, root: String, allowOutside: Bool, into found: inout [String], problems: inout [String]) {
        let names: [String]
        do {
            names = try list(directory)
        } catch {
            problems.append(error.localizedDescription)
            return
        }
        for name in names where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else {
                problems.append(FlowKitError.unreadableDirectory(path, reason: OutputFile.reason(errno)).localizedDescription)
                continue
            }
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR {
                walk(path, root: root, allowOutside: allowOutside, into: &found, problems: &problems)
                continue
            }
            guard extensions.contains((name as NSString).pathExtension.lowercased()) else { continue }
            if type == S_IFLNK {
                let target = FileFlowResolver.canonical(path)
                var targetInfo = stat()
                guard stat(target, &targetInfo) == 0, targetInfo.st_mode & S_IFMT == S_IFREG,
                      allowOutside || target == root || target.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { continue }
            }
            found.append(path)
        }
    }

    /// The names in `directory`, `.` and `..` left out; a name that is not UTF-8 cannot be checked and is an error.
    private static func list(_ directory: String) throws -> [String] {
        guard let stream = opendir(directory) else {
            throw FlowKitError.unreadableDirectory(directory, reason: OutputFile.reason(errno))
        }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw FlowKitError.unreadableDirectory(directory, reason: OutputFile.reason(errno)) }
                return names
            }
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                let shown = String(decoding: bytes, as: UTF8.self)
                throw FlowKitError.unreadableDirectory(directory, reason: "the name '\(Identifier.display(shown))' is not UTF-8, so it cannot be checked")
            }
            names.append(name)
        }
    }
}
