// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "flowkit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "FlowKit", targets: ["FlowKit"]),
        .library(name: "FlowKitGraphviz", targets: ["FlowKitGraphviz"]),
        .executable(name: "flowkit", targets: ["flowkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .target(
            name: "FlowKit",
            dependencies: [.product(name: "Yams", package: "Yams")],
            // The analyses' hot loops are checked for exclusive access at compile time; the run-time checks
            // cost about a tenth of a lint of a large flow in release builds.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]
        ),
        .target(name: "FlowKitGraphviz", dependencies: ["FlowKit", "CGraphviz"]),
        .executableTarget(
            name: "flowkit",
            dependencies: [
                "FlowKit",
                "FlowKitGraphviz",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "flowkit-bench", dependencies: ["FlowKit"], path: "bench/Sources/flowkit-bench"),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Random flows, values and walks for property tests (docs/format.md's completion table decides the walks).
        .target(name: "FlowGen", dependencies: ["FlowKit"], path: "Tests/FlowGen"),
        .testTarget(name: "FlowKitTests", dependencies: ["FlowKit", "TestSupport", "FlowGen"], exclude: ["Reporting/Golden", "Malformed/Corpus"]),
        .testTarget(name: "FlowKitGraphvizTests", dependencies: ["FlowKitGraphviz", "TestSupport", "FlowGen"], exclude: ["Golden"]),
        .testTarget(name: "flowkitTests", dependencies: ["flowkit", "FlowKit", "TestSupport"], exclude: ["Golden"]),
    ]
)
