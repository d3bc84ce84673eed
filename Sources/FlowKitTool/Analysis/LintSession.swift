import Foundation
import FlowKit

/// One `flowkit lint` run over many files: files are linted in parallel (the output order stays the input
/// order), nested flows they name are followed and linted once each against their own files, each file's
/// configuration is applied, and a baseline hides findings recorded before.
package struct LintSession: Sendable {
    /// What the run produced.
    package struct Outcome: Sendable {
        /// Every finding not hidden by the baseline, by file in order, then by position.
        package var diagnostics: [Diagnostic]
        /// Every finding, the baseline not applied (what `--write-baseline` records).
        package var allDiagnostics: [Diagnostic]
        /// The files checked, given ones first, then nested flows they led to.
        package var files: [String]
        /// Files that could not be read, as messages.
        package var failures: [String]
        /// How many findings the baseline hid.
        package var baselined: Int
        /// Files found in a directory that are not flow files (`LoadedDocument.isFlowFile`), not checked.
        package var skipped: [String] = []
    }

    /// The directory trees nested flows must stay inside.
    package var roots: [String]
    /// Whether nested flows may be read outside `roots`.
    package var allowOutside: Bool
    /// How the user reads a nested flow outside `roots` anyway, said in the finding of one (the front end's words).
    package var outsideNote: String?
    /// A configuration for every file, instead of each file's nearest `.flowkit.yml`.
    package var configuration: LintConfiguration?
    /// Findings to hide.
    package var baseline: Baseline?
    /// Texts linted instead of the files at these canonical paths, given or nested (an editor's unsaved
    /// documents, `lint --fix`'s fixed files).
    package var overlay: [String: [UInt8]] = [:]
    /// The rules a file is checked with, before its configuration's `disabled` rules are left out (a test seam).
    var rules: [any Rule.Type] = Linter.rules
    /// Where each file's nearest `.flowkit.yml` is, looked up once per directory.
    var lookup = ConfigurationLookup()

    /// Creates a session.
    package init(roots: [String], allowOutside: Bool = false, configuration: LintConfiguration? = nil, baseline: Baseline? = nil) {
        self.roots = roots
        self.allowOutside = allowOutside
        self.configuration = configuration
        self.baseline = baseline
    }

    /// Lints `files` (and the nested flows they name). Configuration files that cannot be read are failures.
    /// Files in `discovered` were found in a directory rather than named: those that are not flow files are
    /// skipped, not checked. `canonicalPaths` gives the canonical paths already known (`FileCollector`'s); the
    /// others are resolved.
    package func run(_ files: [String], discovered: Set<String> = [], canonicalPaths: [String: String] = [:]) -> Outcome {
        let workspace = LintWorkspace(roots: roots, allowOutside: allowOutside, outsideNote: outsideNote, overlay: overlay)
        let configurations = ConfigurationCache(fixed: configuration, lookup: lookup)
        var checked: [String] = []
        var seen = Set<String>()
        var results: [FileResult] = []
        // Each file's canonical path, resolved once (it costs a system call per path component).
        var canonical = canonicalPaths
        for file in files where canonical[file] == nil { canonical[file] = FileFlowResolver.canonical(file) }
        var batch = files.filter { seen.insert(canonical[$0]!).inserted }
        while !batch.isEmpty {
            checked += batch
            results += Self.lintInParallel(batch, discovered: discovered, rules: rules, workspace: workspace, configurations: configurations,
                                           overlay: overlay)
            // Nested flows named by what was just linted, not yet linted themselves, in a stable order.
            batch = workspace.loadedFiles.filter { seen.insert($0).inserted }.sorted().map(Self.displayPath)
        }
        // Nested flows a configuration excludes still serve their parents' checks, but their findings are not shown.
        let given = Set(files.map { canonical[$0]! })
        let all = results.flatMap { result -> [Diagnostic] in
            if !given.contains(canonical[result.file] ?? FileFlowResolver.canonical(result.file)), let configuration = configurations.configuration(for: result.file), !configuration.includes(result.file) {
                return []
            }
            return result.diagnostics
        }
        var diagnostics = all
        var baselined = 0
        if let baseline {
            (diagnostics, baselined) = baseline.filter(diagnostics)
        }
        // A file that could not be read was not checked.
        let unread = Set(results.filter { $0.failure != nil || $0.skipped }.map(\.file))
        return Outcome(diagnostics: diagnostics, allDiagnostics: all, files: checked.filter { !unread.contains($0) },
                       failures: results.compactMap(\.failure) + configurations.failures, baselined: baselined,
                       skipped: results.filter(\.skipped).map(\.file))
    }

    /// `path` (canonical) relative to the working directory, with `..` where needed.
    static func displayPath(_ path: String) -> String {
        DisplayPath.relative(path, to: FileFlowResolver.canonical(FileManager.default.currentDirectoryPath))
    }

    private typealias FileResult = (file: String, diagnostics: [Diagnostic], failure: String?, skipped: Bool)

    private static func lintInParallel(_ files: [String], discovered: Set<String>, rules: [any Rule.Type], workspace: LintWorkspace,
                                       configurations: ConfigurationCache, overlay: [String: [UInt8]]) -> [FileResult] {
        Parallel.map(files.count) { index in
            let file = files[index]
            do {
                var document: LoadedDocument
                if !overlay.isEmpty, let bytes = overlay[FileFlowResolver.canonical(file)] {
                    document = FlowLoader.load(bytes: bytes, file: file, format: DocumentFormat(path: file))
                } else {
                    document = try FlowLoader.load(path: file)
                }
                if discovered.contains(file) && !document.isFlowFile { return (file, [], nil, true) }
                // Disabled rules are left out before anything runs, not filtered out afterwards.
                let configuration = configurations.configuration(for: file)
                let enabled = rules.filter { !(configuration?.disabled.contains($0.description.identifier) ?? false) }
                if !document.isScript && (document.flow?.steps.count ?? 0) >= Linter.parallelThreshold {
                    // The rules of a flow read its model, not its syntax tree: a large tree is freed here, before
                    // the graphs are built, so that they reuse its memory.
                    document.root = nil
                }
                let findings = Linter.lint(document, workspace: workspace, rules: enabled)
                let configured = configuration.map { $0.apply(findings) } ?? findings
                return (file, configured, nil, false)
            } catch {
                return (file, [], (error as? LocalizedError)?.errorDescription ?? "\(file): \(error)", false)
            }
        }
    }
}

/// Each file's nearest configuration, loaded once per configuration file.
private final class ConfigurationCache: @unchecked Sendable {
    private let fixed: LintConfiguration?
    private var loaded: [String: LintConfiguration] = [:]
    private var problems: [String: String] = [:]
    private let lock = NSLock()

    private let lookup: ConfigurationLookup

    init(fixed: LintConfiguration?, lookup: ConfigurationLookup) {
        self.fixed = fixed
        self.lookup = lookup
    }

    func configuration(for file: String) -> LintConfiguration? {
        if let fixed { return fixed }
        guard let path = lookup.find(from: file) else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let configuration = loaded[path] { return configuration }
        if problems[path] != nil { return nil }
        do {
            let configuration = try LintConfiguration.load(path: path)
            loaded[path] = configuration
            return configuration
        } catch {
            problems[path] = (error as? LocalizedError)?.errorDescription ?? "\(path): \(error)"
            return nil
        }
    }

    var failures: [String] {
        lock.lock()
        defer { lock.unlock() }
        return problems.keys.sorted().compactMap { problems[$0] }
    }
}

/// Why a lint of paths stopped before linting anything: configuration files that cannot be used (exit 2).
package struct LintSetupError: Error, Sendable {
    /// One message per problem.
    package let problems: [String]
}

extension LintSession {
    /// `flowkit lint PATH…` without the command line: the files the paths lead to (`FileCollector`), linted with
    /// `configuration` (else each file's nearest `.flowkit.yml`, all of which must be usable, or nothing is linted:
    /// `LintSetupError`) and `baseline`. Paths that could not be used, and directories in which no flow file was
    /// found, are among the outcome's failures, first.
    package static func lint(paths: [String], configuration: LintConfiguration?, baseline: Baseline?,
                            allowOutside: Bool, outsideNote: String? = nil, overlay: [String: [UInt8]] = [:]) throws(LintSetupError) -> Outcome {
        let lookup = ConfigurationLookup()
        let collected = FileCollector.collect(paths, configuration: configuration, allowOutside: allowOutside, lookup: lookup)
        if configuration == nil {
            let broken = LintConfiguration.problems(for: collected.files, lookup: lookup)
            if !broken.isEmpty { throw LintSetupError(problems: broken) }
        }
        var session = LintSession(roots: collected.roots, allowOutside: allowOutside, configuration: configuration, baseline: baseline)
        session.lookup = lookup
        session.outsideNote = outsideNote
        session.overlay = overlay
        var outcome = session.run(collected.files, discovered: Set(collected.directoryOf.keys), canonicalPaths: collected.canonicalPaths)
        outcome.failures = collected.problems + FileCollector.emptyDirectories(collected, outcome: outcome) + outcome.failures
        return outcome
    }
}

extension LintSession.Outcome {
    /// The report of this outcome: the findings the baseline leaves, the files checked and skipped, and how many
    /// problems (the outcome's failures) fail the run.
    package func report(strict: Bool, toolVersion: String = FlowKitVersion.current) -> LintReport {
        LintReport(diagnostics: diagnostics, fileCount: files.count, skippedCount: skipped.count, strict: strict, files: files,
                   toolVersion: toolVersion, problemCount: failures.count)
    }
}
