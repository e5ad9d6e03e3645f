import FileInput
import Flipbook
import Foundation

/// A manifest's outputs with what decides whether and in what order each is built: its key
/// (a hash of everything that makes its bytes), its estimated cost, and whether the file on
/// disk carries that key.
///
/// The key covers the scene file, the config, every image the scene reads (their bytes, not
/// their dates), the export's settings and the tool (`ToolIdentity`: its rendering code and
/// the C libraries that encode); an output is fresh when the file carries its key as an
/// `OutputStamp`, so a key travels with the file into git or out of a CI shard and no state
/// file is shared. A stale file's stamp says which of those changed.
public struct BuildPlan: Sendable {
    /// Whether an output's file is up to date.
    public enum State: String, Sendable {
        /// The file carries the output's key.
        case fresh
        /// The file carries another key, or none (`Item.staleBecause` says which part changed).
        case stale
        /// There is no file.
        case missing
    }

    /// One output, weighed.
    public struct Item: Sendable {
        public let output: BuildOutput
        /// The export that makes it, with paths from the working directory.
        public let request: ExportRequest
        public let key: OutputKey
        /// Why a stale output is stale: the parts of its key that changed since its file was
        /// made (`OutputKey.partNames`); `file` for a file that carries its key but is not
        /// whole; nothing for a file whose stamp names no parts.
        public let staleBecause: [String]
        /// What rendering it will take, estimated without rendering.
        public let estimate: RenderEstimate
        /// The estimate as one number, for ordering and sharding.
        public var cost: Double { estimate.cost }
        public let state: State
        /// The output file, from the working directory.
        public let file: String
        /// The output file's one spelling (`canonicalPath`).
        public let resolvedFile: String
        /// The files it reads, resolved: its scene file, config and images.
        public let inputs: [String]
    }

    public let manifest: BuildManifest
    public let items: [Item]

    /// The version of the build key's recipe: a change to what the key covers bumps it.
    static let keyVersion = 3

    /// Weighs every output of `manifest`. `tool` goes into every key (other rendering code or
    /// another encoder library rebuilds everything); each output's export is checked as a
    /// render checks it. Every problem is found before this returns, and
    /// thrown together with the manifest's line for each.
    ///
    /// Outputs are compared by their resolved paths (`canonicalPath`): two spellings of one
    /// file are one file, an error, and an output outside the manifest's folder is one unless
    /// `allowOutside`. An output that reads another (an image or a config another
    /// output writes) depends on it: it is built after it, its key covers that output's key
    /// (not the bytes on disk, which the build is about to replace), and outputs that read each
    /// other in a cycle are an error.
    public init(
        manifest: BuildManifest, tool: ToolIdentity, allowOutside: Bool = false
    ) throws {
        self.manifest = manifest
        var problems: [ManifestProblem] = []
        func problem(_ output: BuildOutput, _ message: String, allowedBy: String? = nil) {
            problems.append(
                ManifestProblem(
                    file: manifest.file, line: output.line, keyPath: output.place, message: message,
                    allowedBy: allowedBy))
        }
        var outlines: [String: TransitionOutline] = [:]
        let outliner = TransitionOutliner()
        var fileParams: [String: Set<String>] = [:]
        // First what each output writes and reads, found without reading an image.
        struct Weighed {
            var output: BuildOutput
            var request: ExportRequest
            var resolved: BuildOutput.Resolved
            var file: String
            var canonical: String
            var inputs: [String]
        }
        var weighed: [Weighed] = []
        for output in manifest.outputs {
            do {
                let sceneFile = output.resolved(folder: manifest.folder).scene
                if fileParams[sceneFile] == nil {
                    fileParams[sceneFile] = try outliner.fileParams(of: sceneFile)
                }
                let request = try output.request(folder: manifest.folder, fileParams: fileParams[sceneFile] ?? [])
                try request.check()
                let resolved = output.resolved(folder: manifest.folder, fileParams: fileParams[sceneFile] ?? [])
                let inputs = try outliner.inputs(resolved.scene, config: resolved.config, set: resolved.assignments)
                weighed.append(
                    Weighed(
                        output: output, request: request, resolved: resolved, file: resolved.file,
                        canonical: canonicalPath(resolved.file), inputs: inputs.map(canonicalPath)))
            } catch {
                problem(output, "\(error)")
            }
        }
        // A manifest writes inside its own folder: one from a pull request must not reach any
        // file on the machine through `../`, an absolute path or a linked folder.
        let home = canonicalPath(manifest.folder)
        if !allowOutside {
            for w in weighed where !w.canonical.hasPrefix(home.hasSuffix("/") ? home : home + "/") {
                problem(
                    w.output, "\(w.output.path) is outside the manifest's folder (\(w.canonical))",
                    allowedBy: "allowOutside")
            }
        }
        // One file, one output.
        var writer: [String: Int] = [:]
        for (i, w) in weighed.enumerated() {
            if let first = writer[w.canonical] {
                let other = weighed[first]
                problem(
                    w.output,
                    "\(w.output.path) is the file \(other.output.path) that line \(other.output.line.map(String.init) ?? "?") writes; each output needs its own"
                )
            } else {
                writer[w.canonical] = i
            }
        }
        guard problems.isEmpty else { throw BuildError.manifest(problems) }
        // Which outputs each reads, and an order that builds those first.
        let reads = weighed.map { w in Set(w.inputs.compactMap { writer[$0] }) }
        let order: [Int]
        do {
            order = try Self.dependencyOrder(reads)
        } catch let cycle as Cycle {
            let names = cycle.members.map { weighed[$0].output.path }
            problem(
                weighed[cycle.members[0]].output,
                "outputs read each other in a cycle (\((names + [names[0]]).joined(separator: " → "))): none could ever be fresh"
            )
            throw BuildError.manifest(problems)
        }
        // Then each outline, in that order: a still another output will write is taken at the
        // size that output renders.
        var outlineOf: [Int: TransitionOutline] = [:]
        for i in order {
            let w = weighed[i]
            var known: [String: (width: Int, height: Int)] = [:]
            for j in reads[i]
            where weighed[j].output.kind == .still && !FileManager.default.fileExists(atPath: weighed[j].file) {
                if let size = outlineOf[j]?.pixelSize { known[weighed[j].canonical] = size }
            }
            do {
                let outline = try Self.outline(
                    of: w.output, w.resolved, outliner: outliner, cache: &outlines, knownSizes: known)
                outlineOf[i] = outline
                // A still's moment is in the storyboard, as render checks it (to the centisecond).
                if w.output.kind == .still, let time = w.output.option("time").flatMap(Double.init),
                    time > outline.duration + 0.005
                {
                    problem(
                        w.output,
                        "time: \(time.formatted()) is past the end of the \(outline.storyboard) storyboard, which lasts \(String(format: "%.2f", outline.duration)) s"
                    )
                }
            } catch {
                problem(w.output, "\(error)")
            }
        }
        guard problems.isEmpty else { throw BuildError.manifest(problems) }
        let digests = FileDigests()
        var keys = [OutputKey?](repeating: nil, count: weighed.count)
        for i in order {
            let w = weighed[i]
            do {
                let outline = outlineOf[i]!
                let produced = Dictionary(
                    uniqueKeysWithValues: reads[i].map { (weighed[$0].canonical, keys[$0]?.hex ?? "") })
                keys[i] = try Self.key(
                    of: w.output, outline: outline, tool: tool, digests: digests, produced: produced)
            } catch {
                problem(w.output, "\(error)")
            }
        }
        guard problems.isEmpty else { throw BuildError.manifest(problems) }
        self.items = weighed.indices.map { i in
            let w = weighed[i]
            let key = keys[i]!
            let state: State
            var because: [String] = []
            let stamp = OutputStamp.read(w.file)
            switch stamp {
            // A stamp is believed only of a file that is whole.
            case key.stamp? where ContainerCheck.isWhole(w.file): state = .fresh
            case _ where FileManager.default.fileExists(atPath: w.file):
                state = .stale
                because = stamp.flatMap(OutputKey.init(stamp:)).map { key.changedParts(since: $0) } ?? []
                // Its own key, in a file that is not whole: the file changed, not its inputs.
                if stamp == key.stamp { because = ["file"] }
            default: state = .missing
            }
            return Item(
                output: w.output, request: w.request, key: key, staleBecause: because,
                estimate: RenderEstimate(w.output, outlineOf[i]!), state: state, file: w.file,
                resolvedFile: w.canonical, inputs: w.inputs)
        }
    }

    /// Outputs that read each other in a cycle.
    struct Cycle: Error {
        var members: [Int]
    }

    /// The outputs in an order where each comes after every output it reads (`reads[i]`);
    /// throws the first cycle found.
    static func dependencyOrder(_ reads: [Set<Int>]) throws -> [Int] {
        var order: [Int] = []
        var mark = [UInt8](repeating: 0, count: reads.count)  // 0 new, 1 on the path, 2 done
        var path: [Int] = []
        func visit(_ i: Int) throws {
            if mark[i] == 2 { return }
            if mark[i] == 1 { throw Cycle(members: Array(path[path.lastIndex(of: i)!...])) }
            mark[i] = 1
            path.append(i)
            for j in reads[i].sorted() { try visit(j) }
            path.removeLast()
            mark[i] = 2
            order.append(i)
        }
        for i in reads.indices { try visit(i) }
        return order
    }

    /// The outline of the transition an output renders, shared by outputs that differ only in
    /// format options.
    static func outline(
        of output: BuildOutput, _ r: BuildOutput.Resolved, outliner: TransitionOutliner,
        cache: inout [String: TransitionOutline], knownSizes: [String: (width: Int, height: Int)] = [:]
    ) throws -> TransitionOutline {
        let fps = output.option("fps"), scale = output.option("scale"), width = output.option("width")
        let id =
            ([r.scene, output.storyboard ?? "", r.config ?? "", fps ?? "", scale ?? "", width ?? ""] + r.assignments)
            .joined(separator: "\u{0}")
        if knownSizes.isEmpty, let known = cache[id] { return known }
        let outline = try outliner.outline(
            r.scene, storyboard: output.storyboard, config: r.config, set: r.assignments, fps: fps.flatMap(Double.init),
            scale: scale.flatMap { Int($0) }, width: width.flatMap { Int($0) }, knownSizes: knownSizes)
        if knownSizes.isEmpty { cache[id] = outline }
        return outline
    }

    /// The output's key, from its parts' digests: the tool; the recipe's version, the output's
    /// kind and the export's settings (less where it writes, and its threads and stats); the
    /// bytes of the scene file, of the config, and of every image (for one another output
    /// writes, that output's key).
    static func key(
        of output: BuildOutput, outline: TransitionOutline, tool: ToolIdentity, digests: FileDigests,
        produced: [String: String] = [:]
    ) throws -> OutputKey {
        // An input another output writes counts by that output's key.
        func digest(_ path: String) throws -> String {
            if let key = produced[canonicalPath(path)] { return "output " + key }
            return try digests.digest(path)
        }
        func digestOf(_ fields: [String]) -> String {
            var hash = SHA256()
            for field in fields { hash.update(field: field) }
            return hash.hex()
        }
        // Where it writes and how fast are not what it writes.
        let unkeyed: Set<ExportOption> = [.output, .dryRun, .sheet, .threads, .stats]
        let settings =
            ["flipbook-build \(keyVersion)", output.kind.rawValue, output.scene]
            + (try output.request(folder: "").settings).filter { !unkeyed.contains($0.0) }.map {
                "\($0.0.name)=\($0.1)"
            }
        var images: [String] = []
        for image in outline.imageFiles.sorted(by: { $0.key < $1.key }) {
            images += [image.key, try digest(image.path)]
        }
        return OutputKey(parts: [
            digestOf([tool.keyed]), digestOf(settings), try digest(outline.sceneFile),
            try outline.configFile.map(digest) ?? digestOf(["no config"]), digestOf(images),
        ])
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
