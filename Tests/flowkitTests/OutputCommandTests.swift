import FlowKit
import Foundation
import Testing

/// Runs `flowkit` with its standard output on `stdoutPath` (a device such as /dev/full), optionally through
/// `prefix` (a program such as setpriv that then runs flowkit), in the package root.
private func flowkitRedirected(_ arguments: [String], stdoutTo stdoutPath: String? = nil, through prefix: [String] = []) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: prefix.first ?? flowkitBinary)
    process.arguments = prefix.isEmpty ? arguments : Array(prefix.dropFirst()) + [flowkitBinary] + arguments
    process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    if let stdoutPath {
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
    } else {
        process.standardOutput = out
    }
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    if stdoutPath != nil { try out.fileHandleForWriting.close() }
    let stdout = stdoutPath == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RunResult(stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
                     status: process.terminationStatus)
}

private func scratchFolder() throws -> String {
    let path = NSTemporaryDirectory() + "flowkit-output-cli-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

private let smallFlow = """
    flowkit: 1
    flow: small
    start: first
    steps:
      first: { next: done }
      done: { kind: finish }

    """

@Suite("writing output")
struct OutputCommandTests {
    @Test(arguments: [
        ["lint", "flows/transfer.yaml"],
        ["lint", "flows/transfer.yaml", "--format", "json"],
        ["render", "--mermaid", "flows/transfer.yaml", "-o", "-"],
        ["simulate", "flows/scripts/transfer.yaml"],
        ["schema"],
        ["rules"],
        ["explain", "dead_end"],
        ["--help"],
    ])
    func aFullStandardOutputIsAnErrorAndExitTwo(_ arguments: [String]) throws {
        let result = try flowkitRedirected(arguments, stdoutTo: "/dev/full")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("flowkit: error: cannot write to standard output: no space left on device\n"), "\(result.stderr)")
    }

    @Test func renderToDevNullWritesAStreamAndKeepsTheDevice() throws {
        let result = try flowkit(["render", "--dot", "flows/transfer.yaml", "-o", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func renderToADirectoryIsRefusedByName() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try flowkit(["render", "--mermaid", "flows/transfer.yaml", "-o", folder])
        #expect(result.status == 2)
        #expect(result.stderr == "flowkit: error: \(folder): cannot write the file: it is a directory\n")
    }

    @Test(arguments: ["mermaid", "dot", "svg"])
    func renderDefaultOutputThatIsTheInputIsRefused(_ format: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/flow." + (format == "mermaid" ? "mmd" : format)
        try smallFlow.write(toFile: input, atomically: true, encoding: .utf8)
        let result = try flowkit(["render", "--\(format)", input])
        #expect(result.status == 2)
        #expect(result.stderr.contains("the default output '\(input)' is the input file itself; name the output with -o"))
        #expect(try String(contentsOfFile: input, encoding: .utf8) == smallFlow)
    }

    @Test func renderDefaultOutputThatIsALinkToTheInputIsRefused() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try smallFlow.write(toFile: folder + "/flow.yaml", atomically: true, encoding: .utf8)
        #expect(symlink("flow.yaml", folder + "/flow.svg") == 0)
        let result = try flowkit(["render", "--svg", folder + "/flow.yaml"])
        #expect(result.status == 2)
        #expect(try String(contentsOfFile: folder + "/flow.yaml", encoding: .utf8) == smallFlow)
    }

    @Test func lintReportKeepsMode0600AndWritesThroughALink() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "old".write(toFile: folder + "/report.sarif", atomically: true, encoding: .utf8)
        #expect(chmod(folder + "/report.sarif", 0o600) == 0)
        #expect(symlink("report.sarif", folder + "/link.sarif") == 0)
        let result = try flowkit(["lint", "flows/transfer.yaml", "--report", "sarif:\(folder)/link.sarif"])
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(lstat(folder + "/link.sarif", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(lstat(folder + "/report.sarif", &info) == 0 && info.st_mode & 0o7777 == 0o600)
        #expect(try String(contentsOfFile: folder + "/report.sarif", encoding: .utf8).contains("\"version\""))
    }

    @Test func simulateTraceOutToAFIFOIsStreamed() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/trace"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let pipe = Pipe()
        reader.standardOutput = pipe
        try reader.run()
        let result = try flowkit(["simulate", "flows/scripts/transfer.yaml", "--trace-out", fifo])
        let trace = pipe.fileHandleForReading.readDataToEndOfFile()
        reader.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: trace, as: UTF8.self).contains("\"scenarios\""))
    }
}

@Suite("nothing skipped in silence")
struct LintCoverageTests {
    @Test func aDirectoryThatCannotBeReadIsAnErrorNamingIt() throws {
        // As root, permissions stop nobody: run flowkit without the capabilities that override them.
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"))
        let folder = try scratchFolder()
        defer {
            chmod(folder + "/locked", 0o755)
            try? FileManager.default.removeItem(atPath: folder)
        }
        try smallFlow.write(toFile: folder + "/small.yaml", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder + "/locked", withIntermediateDirectories: false)
        try smallFlow.write(toFile: folder + "/locked/hidden.yaml", atomically: true, encoding: .utf8)
        #expect(chmod(folder + "/locked", 0) == 0)
        let result = try flowkitRedirected(["lint", folder], through: ["/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("flowkit: error: \(folder)/locked: cannot read the directory: permission denied"), "\(result.stderr)")
    }

    @Test func aPathPastTheSystemLimitIsAnErrorNamingIt() throws {
        let folder = try scratchFolder()
        defer {
            let remove = Process()
            remove.executableURL = URL(fileURLWithPath: "/bin/rm")
            remove.arguments = ["-rf", folder]
            try? remove.run()
            remove.waitUntilExit()
        }
        try smallFlow.write(toFile: folder + "/small.yaml", atomically: true, encoding: .utf8)
        // Directories nested past PATH_MAX (4096 bytes), made relative to each other as paths that long cannot be.
        var descriptor = open(folder, O_RDONLY | O_DIRECTORY)
        let component = String(repeating: "d", count: 250)
        for _ in 0..<20 {
            #expect(mkdirat(descriptor, component, 0o755) == 0)
            let next = openat(descriptor, component, O_RDONLY | O_DIRECTORY)
            close(descriptor)
            descriptor = next
        }
        close(descriptor)
        let result = try flowkit(["lint", folder])
        #expect(result.status == 2)
        #expect(result.stderr.contains("flowkit: error: \(folder)/\(component)/"), "\(result.stderr)")
        #expect(result.stderr.contains("cannot read the directory: file name too long"), "\(result.stderr)")
    }

    @Test func aNameLongerThanTheSystemAllowsIsAnErrorNamingIt() throws {
        let name = String(repeating: "n", count: 300) + ".yaml"
        let result = try flowkit(["lint", name, "flows/transfer.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr == "flowkit: error: \(name): cannot read the file: file name too long\n")
    }

    @Test func aDirectoryWithNoFlowFilesIsAnError() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "notes".write(toFile: folder + "/README.md", atomically: true, encoding: .utf8)
        let result = try flowkit(["lint", folder])
        #expect(result.status == 2)
        #expect(result.stderr == "flowkit: error: \(folder): no flow files found\n")
    }

    @Test func aDirectoryWhoseFlowFilesAreAllExcludedIsAnError() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try smallFlow.write(toFile: folder + "/small.yaml", atomically: true, encoding: .utf8)
        try "exclude: ['*.yaml']\n".write(toFile: folder + "/.flowkit.yml", atomically: true, encoding: .utf8)
        let result = try flowkit(["lint", folder])
        #expect(result.status == 2)
        #expect(result.stderr == "flowkit: error: \(folder): no flow files found (the configuration excludes 1)\n")
    }
}

@Suite("no control characters reach the terminal")
struct EscapedOutputTests {
    @Test func aDuplicateYAMLKeyWithANewlineAndEscapeCannotForgeALine() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let yaml = smallFlow + "  \"first\\nflows/x.yaml:1:1: error: forged \\e[31m\\u202E\": { next: done }\n"
            + "  \"first\\nflows/x.yaml:1:1: error: forged \\e[31m\\u202E\": { next: done }\n"
        try yaml.write(toFile: folder + "/forged.yaml", atomically: true, encoding: .utf8)
        let result = try flowkit(["lint", "--color", "never", folder + "/forged.yaml"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix(folder) || $0.hasPrefix("1 file checked") }, "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{202E}"))
        #expect(result.stdout.contains("duplicate key 'first\\nflows/x.yaml:1:1: error: forged \\u{1b}[31m\\u{202e}'"), "\(result.stdout)")
    }

    @Test func aFileNamedWithALineFeedIsOneEscapedLineInTheTextReport() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try (smallFlow + "  orphan: { next: done }\n").write(toFile: folder + "/a\nx.yaml:1:1: error: forged.yaml", atomically: true, encoding: .utf8)
        let result = try flowkit(["lint", folder])
        #expect(result.status == 1)
        #expect(result.stdout == "\(folder)/a\\nx.yaml:1:1: error: forged.yaml:7:3: error: step 'orphan' is not reachable from 'first' [unreachable_step]\n"
            + "1 file checked: 1 error\n")
    }

    @Test func aPathWithControlCharactersIsEscapedInErrors() throws {
        let result = try flowkit(["lint", "no-such\n\u{1B}[2Jfile.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr == "flowkit: error: no-such\\n\\u{1b}[2Jfile.yaml: no such file or directory\n")
    }
}
