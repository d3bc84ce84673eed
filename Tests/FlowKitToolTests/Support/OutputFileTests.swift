@testable import FlowKit
@testable import FlowKitTool
import Foundation
import Testing
import FlowGen

/// A fresh temporary folder for one test, removed by the caller.
private func scratchFolder() throws -> String {
    let path = NSTemporaryDirectory() + "flowkit-output-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// What `lstat` says about `path`.
private func status(_ path: String) -> stat? {
    var info = stat()
    return lstat(path, &info) == 0 ? info : nil
}

private func contents(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}

/// The temporary files a write could have left behind in `folder`.
private func leftovers(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".fk-") }
}

/// Reads everything from the FIFO at `path` on another thread, which opens it as the writer does.
private final class FIFOReader: @unchecked Sendable {
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ path: String) {
        let thread = Thread { [self] in
            let descriptor = open(path, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while descriptor >= 0 {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { break }
                bytes += buffer[..<count]
            }
            if descriptor >= 0 { close(descriptor) }
            done.signal()
        }
        thread.start()
    }

    /// Everything read, once the writer has closed the FIFO.
    func result() -> [UInt8] {
        done.wait()
        return bytes
    }
}

@Suite("output writer")
struct OutputFileTests {
    @Test func aDeviceIsWrittenAsAStreamAndStaysADevice() throws {
        let before = try #require(status("/dev/null"))
        try OutputFile.write(Array("picture".utf8), to: "/dev/null")
        let after = try #require(status("/dev/null"))
        #expect(after.st_mode == before.st_mode)
        #expect(after.st_rdev == before.st_rdev)
    }

    @Test func aFIFOIsWrittenAsAStreamToItsReader() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = FIFOReader(fifo)
        let bytes = Array(repeating: Array("flow\n".utf8), count: 40_000).flatMap { $0 }
        try OutputFile.write(bytes, to: fifo)
        #expect(reader.result() == bytes)
        #expect(status(fifo).map { $0.st_mode & S_IFMT } == S_IFIFO)
        #expect(leftovers(folder).isEmpty)
    }

    @Test func aSymbolicLinkIsKeptAndItsTargetWritten() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/target.svg"))
        #expect(symlink("target.svg", folder + "/link.svg") == 0)
        try OutputFile.write(Array("new".utf8), to: folder + "/link.svg")
        #expect(status(folder + "/link.svg").map { $0.st_mode & S_IFMT } == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.svg") == "target.svg")
        #expect(contents(folder + "/target.svg") == Array("new".utf8))
        #expect(leftovers(folder).isEmpty)
    }

    @Test func aDanglingSymbolicLinkGetsItsTargetCreated() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(symlink("made.svg", folder + "/link.svg") == 0)
        try OutputFile.write(Array("new".utf8), to: folder + "/link.svg")
        #expect(status(folder + "/link.svg").map { $0.st_mode & S_IFMT } == S_IFLNK)
        #expect(contents(folder + "/made.svg") == Array("new".utf8))
    }

    @Test func aFileWithMode0600Keeps0600() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/secret.json"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o600) == 0)
        try OutputFile.write(Array("new".utf8), to: path)
        #expect(status(path).map { $0.st_mode & 0o7777 } == 0o600)
        #expect(contents(path) == Array("new".utf8))
    }

    @Test func aNewFileGetsTheDefaultModeLessTheUmask() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mask = umask(0)
        umask(mask)
        try OutputFile.write(Array("new".utf8), to: folder + "/new.json")
        #expect(status(folder + "/new.json").map { $0.st_mode & 0o7777 } == 0o666 & ~mask)
    }

    @Test func aDirectoryIsRefusedByName() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: FlowKitError.unwritable(folder, reason: "it is a directory")) {
            try OutputFile.write(Array("new".utf8), to: folder)
        }
        #expect(status(folder).map { $0.st_mode & S_IFMT } == S_IFDIR)
    }

    @Test func aNameOfTheLongestLengthIsWritten() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for length in [250, 255] {
            let path = folder + "/" + String(repeating: "n", count: length - 4) + ".svg"
            try OutputFile.write(Array("long".utf8), to: path)
            try OutputFile.write(Array("longer".utf8), to: path)
            #expect(contents(path) == Array("longer".utf8))
        }
        #expect(leftovers(folder).isEmpty)
    }

    @Test func aFailedWriteLeavesTheDestinationAsItWas() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(symlink("/dev/full", folder + "/full") == 0)
        #expect(throws: FlowKitError.unwritable(folder + "/full", reason: "no space left on device")) {
            try OutputFile.write(Array("bytes".utf8), to: folder + "/full")
        }
        #expect(status(folder + "/full").map { $0.st_mode & S_IFMT } == S_IFLNK)
    }

    /// The kinds of destination the property test draws.
    enum Kind: CaseIterable {
        case absent, regular, linkToRegular, linkToLink, danglingLink, fifo, device
    }

    /// For random sequences of destination kinds, modes and contents: after each write the destination holds
    /// exactly the content (a FIFO's reader gets it), and its kind, mode and links are unchanged.
    @Test func everyDestinationHoldsExactlyTheContentAndKeepsItsKindModeAndLinks() throws {
        var random = SplitMix64(seed: 0x5EED_F10C)
        let modes: [mode_t] = [0o600, 0o640, 0o644, 0o444, 0o755, 0o664]
        for round in 0..<60 {
            let folder = try scratchFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let kind = Kind.allCases.randomElement(using: &random)!
            let mode = modes.randomElement(using: &random)!
            let name = folder + "/out-\(round).data"
            var finalPath = name
            switch kind {
            case .absent: break
            case .regular:
                try Data("before".utf8).write(to: URL(fileURLWithPath: name))
                chmod(name, mode)
            case .linkToRegular, .linkToLink:
                finalPath = folder + "/real-\(round).data"
                try Data("before".utf8).write(to: URL(fileURLWithPath: finalPath))
                chmod(finalPath, mode)
                if kind == .linkToLink {
                    symlink("real-\(round).data", folder + "/middle")
                    symlink("middle", name)
                } else {
                    symlink(finalPath, name)
                }
            case .danglingLink:
                finalPath = folder + "/made-\(round).data"
                symlink("made-\(round).data", name)
            case .fifo:
                mkfifo(name, mode)
            case .device:
                finalPath = "/dev/null"
            }
            let destination = kind == .device ? "/dev/null" : name
            let before = status(destination)
            let targetBefore = status(finalPath)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let count = [0, 1, 100, 70_000].randomElement(using: &random)!
                let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
                let reader = kind == .fifo ? FIFOReader(name) : nil
                try OutputFile.write(bytes, to: destination)
                switch kind {
                case .fifo: #expect(reader?.result() == bytes, "round \(round)")
                case .device: break
                default: #expect(contents(finalPath) == bytes, "round \(round), \(kind)")
                }
                let after = status(destination)
                if let before {
                    #expect(after?.st_mode == before.st_mode, "round \(round), \(kind): kind or mode changed")
                }
                if kind == .linkToRegular || kind == .linkToLink || kind == .danglingLink {
                    #expect(after.map { $0.st_mode & S_IFMT } == S_IFLNK)
                }
                if let targetBefore, kind != .device {
                    #expect(status(finalPath)?.st_mode == targetBefore.st_mode, "round \(round), \(kind): target mode changed")
                }
                if kind == .absent || kind == .danglingLink {
                    let mask = umask(0)
                    umask(mask)
                    #expect(status(finalPath).map { $0.st_mode & 0o7777 } == 0o666 & ~mask)
                }
            }
            #expect(leftovers(folder).isEmpty, "round \(round)")
        }
    }
}
