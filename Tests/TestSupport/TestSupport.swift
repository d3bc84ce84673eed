import Foundation
import Testing

/// The package's root folder, found from this file.
public let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
    }
    return FileManager.default.currentDirectoryPath
}()

/// Compares `actual` with the golden file `name` in `folder` (relative to the package root). `FLOWKIT_RECORD=1`
/// re-records it; a missing file is recorded and reported; a mismatch fails with a unified diff.
public func expectGolden(_ actual: String, _ name: String, in folder: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let path = packageRoot + "/" + folder + "/" + name
    let record = ProcessInfo.processInfo.environment["FLOWKIT_RECORD"] == "1"
    guard !record, FileManager.default.fileExists(atPath: path) else {
        try actual.write(toFile: path, atomically: true, encoding: .utf8)
        if !record { Issue.record("golden file \(name) was missing and has been recorded; check it and run again", sourceLocation: sourceLocation) }
        return
    }
    let expected = try String(contentsOfFile: path, encoding: .utf8)
    guard expected != actual else { return }
    let actualPath = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-golden-" + UUID().uuidString).path
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
