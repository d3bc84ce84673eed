import Foundation
import Testing

/// The package's root folder.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
    }
    return FileManager.default.currentDirectoryPath
}()

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
func flowkit(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: flowkitBinary)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RunResult(stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
                     status: process.terminationStatus)
}

/// Compares `actual` with the golden file `name` next to these tests; `FLOWKIT_RECORD=1` re-records it.
/// A mismatch fails with a unified diff.
func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let path = packageRoot + "/Tests/flowkitTests/Golden/" + name
    if ProcessInfo.processInfo.environment["FLOWKIT_RECORD"] == "1" || !FileManager.default.fileExists(atPath: path) {
        if ProcessInfo.processInfo.environment["FLOWKIT_RECORD"] != "1" {
            Issue.record("golden file \(name) was missing and has been recorded; check it and run again", sourceLocation: sourceLocation)
        }
        try actual.write(toFile: path, atomically: true, encoding: .utf8)
        return
    }
    let expected = try String(contentsOfFile: path, encoding: .utf8)
    guard expected != actual else { return }
    let actualPath = NSTemporaryDirectory() + "/flowkit-golden-" + UUID().uuidString
    try actual.write(toFile: actualPath, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: actualPath) }
    let diff = Process()
    diff.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    diff.arguments = ["diff", "-u", "--label", "expected/\(name)", "--label", "actual", path, actualPath]
    let pipe = Pipe()
    diff.standardOutput = pipe
    try diff.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    diff.waitUntilExit()
    Issue.record("output differs from golden file \(name) (FLOWKIT_RECORD=1 re-records):\n\(output)", sourceLocation: sourceLocation)
}
