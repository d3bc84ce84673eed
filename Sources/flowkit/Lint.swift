import ArgumentParser
import FlowKit
import Foundation

/// `flowkit lint`: checks flow files and directories of them.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check flow files for mistakes.",
        discussion: """
            Takes files and directories; a directory is searched recursively for .json, .yaml and .yml files \
            (hidden files and directories are skipped). Documents with a 'flowkit-script' key are simulation \
            scripts: they are checked against the flow they name.

            Examples:
              flowkit lint flows/transfer.json
              flowkit lint flows/ --strict
              flowkit lint flows/ --format json > findings.json
            """)

    @Argument(help: ArgumentHelp("Flow files or directories to check.", valueName: "path"))
    var paths: [String]

    @Flag(name: .long, help: "Fail (exit 1) on warnings too, not only on errors.")
    var strict = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one flow file or directory, e.g. 'flowkit lint flows/'") }
    }

    func run() throws {
        let (files, problems) = FileCollector.collect(paths)
        var diagnostics: [Diagnostic] = []
        var checked = 0
        var failures = problems
        for file in files {
            do {
                let document = try FlowLoader.load(path: file)
                checked += 1
                diagnostics += Linter.lint(document)
            } catch {
                failures.append(error.localizedDescription)
            }
        }
        let report = LintReport(diagnostics: diagnostics, fileCount: checked)
        let reporter = output.format.reporter(color: output.color.enabled(for: STDOUT_FILENO))
        FileHandle.standardOutput.write(Data(reporter.render(report).utf8))
        for failure in failures { printError("flowkit: error: \(failure)") }
        if !failures.isEmpty { throw ExitCode(2) }
        if report.fails(strict: strict) { throw ExitCode(1) }
    }
}

/// Turns the paths given on the command line into the list of files to check.
enum FileCollector {
    /// The extensions searched for in directories.
    static let extensions: Set<String> = ["json", "yaml", "yml"]

    /// Files named directly are kept as given; directories are searched recursively in sorted order, without
    /// following symbolic links to directories. Returns the files and the paths that could not be used.
    static func collect(_ paths: [String]) -> (files: [String], problems: [String]) {
        var files: [String] = []
        var problems: [String] = []
        var seen = Set<String>()
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                problems.append(FlowKitError.noSuchFile(path).localizedDescription)
                continue
            }
            guard isDirectory.boolValue else {
                if seen.insert(path).inserted { files.append(path) }
                continue
            }
            var found: [String] = []
            walk(path, into: &found)
            for file in found.sorted() where seen.insert(file).inserted { files.append(file) }
        }
        return (files, problems)
    }

    private static func walk(_ directory: String, into found: inout [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                walk(path, into: &found)
            } else if extensions.contains((name as NSString).pathExtension.lowercased()) {
                found.append(path)
            }
        }
    }
}
