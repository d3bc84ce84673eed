import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// The canonical paths the directory walk hands the lint (so that it need not resolve each file again) are the
/// paths `FileFlowResolver.canonical` gives, for every file of random trees reached through links and `..`.
@Suite("File collector")
struct FileCollectorTests {
    /// A random tree under a fresh folder: nested directories, flow files, links to files inside and a link to a
    /// directory (not followed); returns the folder, canonical.
    static func randomTree(seed: UInt64) throws -> String {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let manager = FileManager.default
        let folder = FileFlowResolver.canonical(NSTemporaryDirectory() + "flowkit-collect-\(UUID().uuidString)")
        try manager.createDirectory(atPath: folder + "/tree", withIntermediateDirectories: true)
        var directories = [folder + "/tree"]
        var files: [String] = []
        for index in 0..<(20 + next(30)) {
            let parent = directories[next(directories.count)]
            switch next(6) {
            case 0:
                let directory = parent + "/d\(index)"
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: false)
                directories.append(directory)
            case 1 where !files.isEmpty:
                try manager.createSymbolicLink(atPath: parent + "/link\(index).yaml", withDestinationPath: files[next(files.count)])
            case 2 where directories.count > 1:
                try manager.createSymbolicLink(atPath: parent + "/dirlink\(index)", withDestinationPath: directories[next(directories.count)])
            default:
                let file = parent + "/f\(index)." + ["yaml", "json", "yml"][next(3)]
                try "flowkit: 1\nflow: f\nstart: done\nsteps:\n  done: { kind: finish }\n".write(toFile: file, atomically: false, encoding: .utf8)
                files.append(file)
            }
        }
        // The tree is also reachable through a link to it.
        try manager.createSymbolicLink(atPath: folder + "/alias", withDestinationPath: folder + "/tree")
        return folder
    }

    @Test(arguments: 1...12)
    func everyFileFoundInADirectoryComesWithTheCanonicalPathTheResolverGives(seed: Int) throws {
        let folder = try Self.randomTree(seed: UInt64(seed))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for given in [folder + "/tree", folder + "/alias", folder + "/alias/../tree/", folder + "//tree/."] {
            let collected = FileCollector.collect([given], configuration: nil, allowOutside: false)
            #expect(!collected.files.isEmpty)
            for file in collected.files {
                #expect(collected.canonicalPaths[file] == FileFlowResolver.canonical(file), "\(file) given as \(given)")
            }
        }
    }
}
