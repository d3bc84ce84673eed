// swift-tools-version:6.0
import Foundation
import PackageDescription

/// flowkit's fuzz targets: libFuzzer entry points over the library, built with `--sanitize=fuzzer` (`make fuzz`).
/// They live in a package of their own because an executable target without `main` breaks `swift build` of the
/// parent package.

/// SwiftPM names a path dependency after the last component of its directory, so the parent's identity is
/// whatever the checkout's directory is called (`flowkit`, `main`, ...).
let parent = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// One executable target per entry point, each a single file in `Sources/<name>/`.
let targets = ["FuzzJSON", "FuzzYAML", "FuzzExpression", "FuzzEngine"]

let package = Package(
    name: "flowkit-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "..")],
    targets: targets.map { .executableTarget(name: $0, dependencies: [.product(name: "FlowKit", package: parent)]) }
)
