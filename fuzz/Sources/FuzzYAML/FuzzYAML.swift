import FlowKit
import Foundation

/// The file the input is said to be: one in the checkout's `flows/scripts/`, so that a simulation script's
/// `flow: ../transfer.yaml` reads the sample flow as `flowkit lint` would (the `script` rule is the one part of
/// the lint path that reads a file; nested flows are not followed without a workspace).
private let inputFile = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("flows/scripts/fuzz-input.yaml").path

/// libFuzzer's entry point: loads the bytes as a YAML flow document and runs every lint rule over it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let document = FlowLoader.load(bytes: Array(UnsafeBufferPointer(start: data, count: size)), file: inputFile, format: .yaml)
    _ = Linter.lint(document)
    return 0
}
