import Foundation
import FlowKit

/// `flowkit generate swift` and the build plugin's tool over `SwiftGenerator`: reads flow files from disk, generates,
/// and writes each Swift file whose bytes changed into a directory.
package struct SwiftGeneration: Sendable {
    /// What a generation did.
    package struct Outcome: Sendable {
        /// Every file generated, in order: the inputs, then the nested flows found from them.
        package var outputs: [SwiftGenerator.Output]
        /// The paths of the files written (the others were already up to date).
        package var written: [String]
        /// The lint warnings (and notes) of the flows.
        package var warnings: [Diagnostic]
    }

    /// The flow files named.
    package var paths: [String]
    /// The directory the Swift files go to; made when it does not exist.
    package var outputDirectory: String
    /// Whether a nested flow must be among `paths` (the build plugin's mode: its outputs are declared up front); then
    /// `paths` may hold other JSON and YAML files too, and one that cannot be read and shows no `flowkit` key is
    /// not taken for a broken flow.
    package var listedOnly: Bool

    /// A generation of `paths` into `outputDirectory`.
    package init(paths: [String], outputDirectory: String, listedOnly: Bool = false) {
        self.paths = paths
        self.outputDirectory = outputDirectory
        self.listedOnly = listedOnly
    }

    /// Reads, generates and writes. A file that cannot be read is a `FlowKitError`; lint errors and clashes of
    /// names are a `SwiftGenerator.Failure`, and then nothing is written.
    package func run() throws -> Outcome {
        let limit = ReaderLimits.standard.maxBytes
        var inputs: [SwiftGenerator.Input] = []
        for path in paths {
            inputs.append(SwiftGenerator.Input(name: path, bytes: try FlowLoader.read(path: path, limit: limit)))
        }
        // A nested flow is read only inside the folders of the flow files given, as lint reads it (docs/format.md,
        // "Generated Swift"): `flow: ../../x.yaml` or an absolute path never brings another file into the code.
        let roots = Set(paths.map { (FilePath.directory(of: FileFlowResolver.canonical($0)) as NSString).standardizingPath })
        let read: ((String) throws -> [UInt8])? = listedOnly ? nil : { name in
            let file = FileFlowResolver.canonical(name)
            guard roots.contains(where: { root in file.hasPrefix(root.hasSuffix("/") ? root : root + "/") }) else {
                throw FlowKitError.unreadable(name, reason: "it is outside the directories of the flow files given")
            }
            return try FlowLoader.read(path: name, limit: limit)
        }
        let generated = try SwiftGenerator.generate(inputs, read: read, othersAmongInputs: listedOnly)
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: outputDirectory, isDirectory: &isDirectory) {
            do {
                try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
            } catch {
                throw FlowKitError.unwritable(outputDirectory, reason: "cannot make the directory: \(error.localizedDescription)")
            }
        } else if !isDirectory.boolValue {
            throw FlowKitError.unwritable(outputDirectory, reason: "not a directory")
        }
        var written: [String] = []
        for output in generated.outputs {
            let path = (outputDirectory.hasSuffix("/") ? outputDirectory : outputDirectory + "/") + output.fileName
            let bytes = Array(output.contents.utf8)
            // An unchanged file is left alone, so that a build does not compile it again.
            if let existing = try? FlowLoader.read(path: path, limit: bytes.count), existing == bytes { continue }
            try OutputFile.write(bytes, to: path)
            written.append(path)
        }
        return Outcome(outputs: generated.outputs, written: written, warnings: generated.warnings)
    }
}
