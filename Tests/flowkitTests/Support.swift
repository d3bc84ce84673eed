import FlowKit
import Foundation
import Testing
@_exported import TestSupport

/// The built `flowkit` binary: `FLOWKIT_BIN`, else beside the test bundle, else the debug build folder.
let flowkitBinary: String = {
    if let path = ProcessInfo.processInfo.environment["FLOWKIT_BIN"] { return path }
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("flowkit").path
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    return packageRoot + "/.build/debug/flowkit"
}()

/// What a run of the binary printed and how it exited.
struct RunResult {
    let stdout: String
    let stderr: String
    let status: Int32
}

/// Runs `flowkit` with `arguments` in the package root, with `NO_COLOR` unless `environment` says otherwise.
func flowkit(_ arguments: [String], environment: [String: String] = [:], input: String? = nil, in directory: String = packageRoot) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: flowkitBinary)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let stdin = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    if let input {
        // Small inputs only: the pipe's buffer holds them, so the writer never waits for the reader.
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }
    let (stdout, stderr) = readBoth(out, err)
    process.waitUntilExit()
    return RunResult(stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
                     status: process.terminationStatus)
}

/// Everything written to both pipes, standard error read on another thread: a child that fills one pipe while
/// the test waits on the other (a long leak report on standard error at exit) would otherwise never end.
private func readBoth(_ out: Pipe, _ err: Pipe) -> (Data, Data) {
    final class Box: @unchecked Sendable { var data = Data() }
    let errors = Box()
    let done = DispatchGroup()
    let handle = err.fileHandleForReading
    DispatchQueue.global().async(group: done) { errors.data = handle.readDataToEndOfFile() }
    let output = out.fileHandleForReading.readDataToEndOfFile()
    done.wait()
    return (output, errors.data)
}

/// Compares `actual` with the golden file `name` in this target's Golden folder.
func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try TestSupport.expectGolden(actual, name, in: "Tests/flowkitTests/Golden", sourceLocation: sourceLocation)
}

/// Runs `executable` with `arguments` in `directory` (the package root by default), standard input empty; what it
/// printed (standard error only when `keepStandardError`, else dropped) and how it exited.
func runProcess(_ executable: String, _ arguments: [String], in directory: String = packageRoot, environment: [String: String]? = nil,
                keepStandardError: Bool = true) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = keepStandardError ? err : FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let (stdout, stderr) = keepStandardError ? readBoth(out, err) : (out.fileHandleForReading.readDataToEndOfFile(), Data())
    process.waitUntilExit()
    return RunResult(stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
                     status: process.terminationStatus)
}

/// The compiler on the `PATH` (beside the toolchain's `swift`).
func swiftc() throws -> String {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let path = directory + "/swiftc"
        if FileManager.default.isExecutableFile(atPath: String(path)) { return String(path) }
    }
    throw FlowKitError.noSuchFile("swiftc")
}

/// Type-checks `files` as a module of their own that imports this build's FlowKit as an app does (from outside the
/// package: only its public API), Swift 6 language mode, warnings as errors.
func typeCheckAgainstFlowKit(_ files: [String], moduleName: String) throws -> RunResult {
    let modules = URL(fileURLWithPath: flowkitBinary).deletingLastPathComponent().path + "/Modules"
    let yamsMap = packageRoot + "/.build/checkouts/Yams/Sources/CYaml/include/module.modulemap"
    return try runProcess(try swiftc(), ["-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", modules,
                                         "-Xcc", "-fmodule-map-file=" + yamsMap, "-module-name", moduleName] + files)
}
