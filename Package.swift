// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "flowkit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "FlowKit", targets: ["FlowKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
    ],
    targets: [
        .target(
            name: "FlowKit",
            dependencies: [.product(name: "Yams", package: "Yams")]
        ),
        .testTarget(name: "FlowKitTests", dependencies: ["FlowKit"]),
    ]
)
