// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "flowkit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "FlowKit", targets: ["FlowKit"]),
        .executable(name: "flowkit", targets: ["flowkit"]),
        // Typed Swift for an app target's flow files, generated at build time (docs/format.md, "Generated Swift").
        .plugin(name: "FlowKitPlugin", targets: ["FlowKitPlugin"]),
    ],
    dependencies: [
        // Ranges an app can share: Yams 5 and 6 both build and pass the tests (the oldest, 5.0.1, and the newest,
        // 6.2.2, are checked); ArgumentParser is for the command only.
        .package(url: "https://github.com/jpsim/Yams", "5.0.1"..<"7.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `make docs`: the DocC catalog of the FlowKit library (a plugin only; nothing links it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        .target(
            name: "FlowKit",
            dependencies: [.product(name: "Yams", package: "Yams")]
        ),
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]
        ),
        // The tool's core: a frontend per command, the directory walk, configuration, baselines, reporters, diagrams,
        // coverage, diff, generation, git and output files. The CLI, the plugin's generator and the bench use it;
        // it sees neither Graphviz nor ArgumentParser.
        .target(name: "FlowKitTool", dependencies: ["FlowKit"]),
        .target(name: "FlowKitGraphviz", dependencies: ["FlowKitTool", "CGraphviz"]),
        .executableTarget(
            name: "flowkit",
            dependencies: [
                "FlowKit",
                "FlowKitTool",
                "FlowKitGraphviz",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The generator the build plugin runs: FlowKitTool, so an app's build needs neither Graphviz nor ArgumentParser.
        .executableTarget(name: "FlowKitGenerator", dependencies: ["FlowKit", "FlowKitTool"]),
        .plugin(name: "FlowKitPlugin", capability: .buildTool(), dependencies: ["FlowKitGenerator"]),
        .executableTarget(name: "flowkit-bench", dependencies: ["FlowKit", "FlowKitTool"], path: "bench/Sources/flowkit-bench"),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Random flows, values and walks for property tests (docs/format.md's completion table decides the walks).
        .target(name: "FlowGen", dependencies: ["FlowKit"], path: "Tests/FlowGen"),
        .testTarget(name: "FlowKitTests", dependencies: ["FlowKit", "FlowKitTool", "TestSupport", "FlowGen"], exclude: ["Malformed/Corpus"]),
        .testTarget(name: "FlowKitToolTests", dependencies: ["FlowKit", "FlowKitTool", "TestSupport", "FlowGen"],
                    exclude: ["Reporting/Golden", "Generation/Golden", "Coverage/Golden", "Diff/Golden", "Report/Golden"]),
        .testTarget(name: "FlowKitGraphvizTests", dependencies: ["FlowKitGraphviz", "TestSupport", "FlowGen"], exclude: ["Golden"]),
        .testTarget(name: "flowkitTests", dependencies: ["flowkit", "FlowKit", "FlowKitTool", "TestSupport"], exclude: ["Golden"]),
    ]
)
