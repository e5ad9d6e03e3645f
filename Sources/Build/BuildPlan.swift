import FileInput
import Flipbook
import Foundation

/// A manifest's outputs with what decides whether and in what order each is built: its key
/// (a hash of everything that makes its bytes), its estimated cost, and whether the file on
/// disk carries that key.
///
/// The key covers the scene file, the config, every image the scene reads (their bytes, not
/// their dates), the render arguments and the tool's version; an output is fresh when the file
/// carries its key as an `OutputStamp`, so a key travels with the file into git or out of a
/// CI shard and no state file is shared.
public struct BuildPlan: Sendable {
    /// Whether an output's file is up to date.
    public enum State: String, Sendable {
        /// The file carries the output's key.
        case fresh
        /// The file carries another key, or none.
        case stale
        /// There is no file.
        case missing
    }

    /// One output, weighed.
    public struct Item: Sendable {
        public let output: BuildOutput
        /// The render arguments, with paths from the working directory.
        public let arguments: [String]
        public let key: String
        /// What rendering it will take, estimated without rendering.
        public let estimate: RenderEstimate
        /// The estimate as one number, for ordering and sharding.
        public var cost: Double { estimate.cost }
        public let state: State
        /// The output file, from the working directory.
        public let file: String
    }

    public let manifest: BuildManifest
    public let items: [Item]

    /// The version of the build key's recipe: a change to what the key covers bumps it.
    static let keyVersion = 1

    /// Weighs every output of `manifest`. `toolVersion` goes into every key (a new release
    /// rebuilds everything); `check` is given each output's render arguments and throws when
    /// the render command would refuse them. Every problem is found before this returns, and
    /// thrown together with the manifest's line for each.
    public init(
        manifest: BuildManifest, toolVersion: String, check: ([String]) throws -> Void = { _ in }
    ) throws {
        self.manifest = manifest
        var problems: [ManifestProblem] = []
        var outlines: [String: TransitionOutline] = [:]
        let outliner = TransitionOutliner()
        var fileParams: [String: Set<String>] = [:]
        let digests = FileDigests()
        var items: [Item] = []
        for output in manifest.outputs {
            func problem(_ message: String) {
                problems.append(
                    ManifestProblem(file: manifest.file, line: output.line, keyPath: output.place, message: message))
            }
            do {
                let sceneFile = output.resolved(folder: manifest.folder).scene
                if fileParams[sceneFile] == nil {
                    fileParams[sceneFile] = try outliner.fileParams(of: sceneFile)
                }
                let arguments = output.renderArguments(folder: manifest.folder, fileParams: fileParams[sceneFile] ?? [])
                try check(arguments)
                let resolved = output.resolved(folder: manifest.folder, fileParams: fileParams[sceneFile] ?? [])
                let outline = try Self.outline(of: output, resolved, outliner: outliner, cache: &outlines)
                let file = resolved.file
                let key = try Self.key(
                    of: output, outline: outline, toolVersion: toolVersion, digests: digests)
                let state: State
                switch OutputStamp.read(file) {
                case key?: state = .fresh
                case _ where FileManager.default.fileExists(atPath: file): state = .stale
                default: state = .missing
                }
                items.append(
                    Item(
                        output: output, arguments: arguments, key: key,
                        estimate: RenderEstimate(output, outline), state: state, file: file))
            } catch {
                problem("\(error)")
            }
        }
        guard problems.isEmpty else { throw BuildError.manifest(problems) }
        self.items = items
    }

    /// The outline of the transition an output renders, shared by outputs that differ only in
    /// format options.
    static func outline(
        of output: BuildOutput, _ r: BuildOutput.Resolved, outliner: TransitionOutliner,
        cache: inout [String: TransitionOutline]
    ) throws -> TransitionOutline {
        let fps = output.option("fps"), scale = output.option("scale"), width = output.option("width")
        let id =
            ([r.scene, output.storyboard ?? "", r.config ?? "", fps ?? "", scale ?? "", width ?? ""] + r.assignments)
            .joined(separator: "\u{0}")
        if let known = cache[id] { return known }
        let outline = try outliner.outline(
            r.scene, storyboard: output.storyboard, config: r.config, set: r.assignments, fps: fps.flatMap(Double.init),
            scale: scale.flatMap { Int($0) }, width: width.flatMap { Int($0) })
        cache[id] = outline
        return outline
    }

    /// The output's key: a SHA-256 over the recipe's version, the tool's version, the render
    /// arguments as the manifest spells them (less the output's own path), and the bytes of the
    /// scene file, the config and every image.
    static func key(
        of output: BuildOutput, outline: TransitionOutline, toolVersion: String, digests: FileDigests
    ) throws -> String {
        var hash = SHA256()
        hash.update(field: "flipbook-build \(keyVersion)")
        hash.update(field: toolVersion)
        hash.update(field: output.kind.rawValue)
        for argument in output.renderArguments(folder: "").dropLast() { hash.update(field: argument) }
        hash.update(field: "scene")
        hash.update(field: try digests.digest(outline.sceneFile))
        if let config = outline.configFile {
            hash.update(field: "config")
            hash.update(field: try digests.digest(config))
        }
        for image in outline.imageFiles.sorted(by: { $0.key < $1.key }) {
            hash.update(field: image.key)
            hash.update(field: try digests.digest(image.path))
        }
        return hash.hex()
    }
}

/// Files' SHA-256 digests, each file read once however many outputs share it.
final class FileDigests: @unchecked Sendable {
    private var known: [String: String] = [:]
    private let lock = NSLock()

    /// The most bytes an input may have: a few times the largest image a scene accepts.
    static let maximumBytes = 512 << 20

    func digest(_ path: String) throws -> String {
        if let d = lock.withLock({ known[path] }) { return d }
        let bytes: [UInt8]
        do {
            bytes = try readWholeFile(path, maximumBytes: Self.maximumBytes)
        } catch FileInputError.notFound {
            throw BuildError.manifest([ManifestProblem(file: path, line: nil, keyPath: "", message: "no such file")])
        } catch {
            throw BuildError.manifest([
                ManifestProblem(file: path, line: nil, keyPath: "", message: "cannot read: \(error)")
            ])
        }
        var hash = SHA256()
        hash.update(bytes)
        let d = hash.hex()
        lock.withLock { known[path] = d }
        return d
    }
}
